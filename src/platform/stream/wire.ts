// Frames made once and written as they are. A stream that sends one update to thousands of sockets
// makes its WebSocket frame (RFC 6455 §5.2: header and payload, a server's frames unmasked) once,
// and every socket gets the same bytes. Each socket's frames of one turn of the event loop are
// written together, in one write, when the turn's I/O is done.
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';

/** A complete text frame (FIN, opcode 1, unmasked) carrying `text`. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (headerLength === 2) {
    frame[1] = length;
  } else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, headerLength);
  return frame;
}

/** The payload of a frame `textFrame` made. */
export function textFramePayload(frame: Buffer): Buffer {
  const marker = frame[1]! & 0x7f;
  return frame.subarray(marker < 126 ? 2 : marker === 126 ? 4 : 10);
}

/** Writers with frames waiting, written out together once the event loop's turn is done. */
let due: FrameWriter[] = [];

function flushDue(): void {
  const writers = due;
  due = [];
  for (const writer of writers) writer.flush();
}

/**
 * The frames one socket is yet to be sent: collected, then written in one write when the event
 * loop's turn is done (or sooner, once `flushBytes` wait). The frames go straight to the socket
 * under the WebSocket, so they must be complete frames, and only while the WebSocket is open. Every
 * data frame of the socket must go through here (leave `ws` its pings and close frame), or frames
 * could leave out of order.
 */
export class FrameWriter {
  readonly #ws: WebSocket;
  readonly #socket: Duplex;
  readonly #flushBytes: number;
  #frames: Buffer[] = [];
  #bytes = 0;
  /** Listed to be flushed at the end of the turn. */
  #due = false;

  constructor(ws: WebSocket, socket: Duplex, flushBytes: number) {
    this.#ws = ws;
    this.#socket = socket;
    this.#flushBytes = flushBytes;
  }

  /** Bytes not yet sent: waiting here and in the socket. */
  get bufferedAmount(): number {
    return this.#bytes + this.#ws.bufferedAmount;
  }

  write(frame: Buffer): void {
    this.#frames.push(frame);
    this.#bytes += frame.length;
    if (this.#bytes >= this.#flushBytes) {
      this.flush();
      return;
    }
    if (this.#due) return;
    this.#due = true;
    if (due.length === 0) setImmediate(flushDue);
    due.push(this);
  }

  /** Writes what waits now; a closing or closed WebSocket's frames are dropped instead. */
  flush(): void {
    this.#due = false;
    if (this.#bytes === 0) return;
    const frames = this.#frames;
    const data = this.#ws.readyState === WebSocket.OPEN && this.#socket.writable
      ? (frames.length === 1 ? frames[0]! : Buffer.concat(frames, this.#bytes))
      : null;
    frames.length = 0;
    this.#bytes = 0;
    if (data) this.#socket.write(data);
  }
}
