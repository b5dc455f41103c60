// UDP listener: the way AIS-catcher, rtl-ais, OpenCPN and most receivers forward NMEA. Each
// datagram is self-contained and may carry several lines; its last line needs no line ending.
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { errorText, FeedBase } from './base.ts';
import type { FeedBaseOptions } from './base.ts';
import { DEFAULT_MAX_LINE_LENGTH, splitLines } from './lines.ts';
import type { UdpFeedSpec } from './types.ts';

export interface UdpFeedOptions extends FeedBaseOptions {
  /** Line-length cap (characters), default 1024. */
  maxLineLength?: number;
  /** Kernel receive buffer (bytes) to ask for, to ride out bursts; default the system's. */
  receiveBufferBytes?: number;
}

export class UdpFeed extends FeedBase {
  readonly spec: UdpFeedSpec;
  readonly #maxLineLength: number;
  readonly #receiveBufferBytes: number | undefined;
  #socket: Socket | null = null;
  #port: number | null = null;
  #abortBind: ((error: Error) => void) | null = null;

  constructor(spec: UdpFeedSpec, options: UdpFeedOptions = {}) {
    super(spec.id, 'udp', 'live', options);
    this.spec = spec;
    this.#maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
    this.#receiveBufferBytes = options.receiveBufferBytes;
  }

  /** The bound port (the chosen one when the spec says 0), null when not bound. */
  get port(): number | null {
    return this.#port;
  }

  protected async open(): Promise<void> {
    const { host, port } = this.spec;
    const family = isIP(host) || (await lookup(host)).family;
    if (this.stopping) return;
    const socket = createSocket({ type: family === 6 ? 'udp6' : 'udp4' });
    this.#socket = socket;
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.#abortBind = onError;
      socket.once('error', onError);
      socket.bind(port, host, () => {
        socket.off('error', onError);
        resolve();
      });
    }).finally(() => {
      this.#abortBind = null;
    });
    if (this.#receiveBufferBytes !== undefined) {
      try {
        socket.setRecvBufferSize(this.#receiveBufferBytes);
      } catch (error) {
        this.log('warn', `could not set the receive buffer: ${errorText(error)}`);
      }
    }
    socket.on('error', (error) => this.log('warn', `socket error: ${errorText(error)}`));
    socket.on('message', (datagram) => this.#onDatagram(datagram));
    const address = socket.address();
    this.#port = address.port;
    this.setState('listening', `listening on ${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`);
  }

  #onDatagram(datagram: Buffer): void {
    this.countBytes(datagram.length);
    const { lines, oversized } = splitLines(datagram, this.#maxLineLength);
    this.counters.oversizedLines += oversized;
    this.deliverLines(lines);
  }

  protected async close(): Promise<void> {
    const socket = this.#socket;
    this.#socket = null;
    this.#port = null;
    this.#abortBind?.(new Error('stopped while binding'));
    if (socket === null) return;
    await new Promise<void>((resolve) => {
      try {
        socket.close(() => resolve());
      } catch {
        resolve(); // not bound or already closed
      }
    });
  }
}
