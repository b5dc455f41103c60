// Frames made once and written as they are. A stream that sends one update to thousands of sockets
// makes its WebSocket frame (RFC 6455 §5.2: header and payload, a server's frames unmasked) once,
// and every socket gets the same bytes. Each socket's frames are written together, in one write,
// FLUSH_AFTER_MS after the first of them waits.
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

/**
 * How long a socket's first waiting frame waits for others to share its write. A socket's write is
 * the streams' largest cost (the kernel's loopback TCP work is done in the writer); at 5,000 AIS
 * streams, about 9 updates a second each, writing at the end of each turn of the event loop made
 * about one write an update; 20 ms took a stream process 12 % fewer cores and a quarter fewer writes
 * (bench/README, stream), for an update at most 20 ms later. 50 ms saved more writes and cost more
 * latency than it saved.
 */
const FLUSH_AFTER_MS = 20;

/** Writers with frames waiting, written out together FLUSH_AFTER_MS after the first. */
let due: FrameWriter[] = [];

function flushDue(): void {
  const writers = due;
  due = [];
  for (const writer of writers) writer.flush();
}

/**
 * The frames one socket is yet to be sent: collected, then written in one write FLUSH_AFTER_MS
 * after the first (or sooner, once `flushBytes` wait, or at `flush()`). The frames go straight to the socket
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
  /** Listed to be flushed with the due writers. */
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
    if (due.length === 0) setTimeout(flushDue, FLUSH_AFTER_MS);
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
