// TCP feeds. The client connects to a receiver or aggregator (AIS-catcher's TCP server, ShipXplorer
// or AISHub-style relays, gpsd-like forwarders) and reads lines, reconnecting with backoff. The
// server accepts receivers that push lines to it. Both use TCP keepalive and drop a connection that
// has been silent for the idle timeout: a half-dead connection otherwise looks healthy forever.
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { Backoff, errorText, FeedBase, seconds, timing } from './base.ts';
import type { BackoffOptions, FeedBaseOptions } from './base.ts';
import { DEFAULT_MAX_LINE_LENGTH, LineSplitter } from './lines.ts';
import type { TcpFeedSpec, TcpListenFeedSpec } from './spec.ts';

/** A receiver in a quiet area can go a while without traffic; five minutes of silence means trouble. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_KEEPALIVE_MS = 30_000;
const DEFAULT_MAX_CONNECTIONS = 64;

export interface TcpClientFeedOptions extends FeedBaseOptions {
  backoff?: BackoffOptions;
  /** A connection with no data for this long (ms) is dropped and reconnected; the spec's `idle=` wins. Default 300 000. */
  idleTimeoutMs?: number;
  /** A connection attempt is abandoned after this long (ms), default 10 000. */
  connectTimeoutMs?: number;
  /** Idle time (ms) before TCP keepalive probes start, default 30 000. */
  keepAliveMs?: number;
  /** Line-length cap (characters), default 1024. */
  maxLineLength?: number;
}

function remoteOf(socket: Socket): string {
  const address = socket.remoteAddress ?? '?';
  return `${address.includes(':') ? `[${address}]` : address}:${socket.remotePort ?? '?'}`;
}

export class TcpClientFeed extends FeedBase {
  readonly spec: TcpFeedSpec;
  readonly #backoff: Backoff;
  readonly #idleTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #keepAliveMs: number;
  readonly #maxLineLength: number;
  #socket: Socket | null = null;
  #socketClosed: Promise<void> | null = null;
  #retryTimer: NodeJS.Timeout | null = null;

  constructor(spec: TcpFeedSpec, options: TcpClientFeedOptions = {}) {
    super(spec.id, 'tcp', 'live', options);
    this.spec = spec;
    this.#backoff = new Backoff(options.backoff);
    this.#idleTimeoutMs = spec.idleTimeoutMs ?? timing(options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS, 'idleTimeoutMs');
    this.#connectTimeoutMs = timing(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS, 'connectTimeoutMs');
    this.#keepAliveMs = timing(options.keepAliveMs, DEFAULT_KEEPALIVE_MS, 'keepAliveMs');
    this.#maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  }

  protected async open(): Promise<void> {
    this.#connect();
  }

  #connect(): void {
    if (this.stopping) return;
    const socket = connect({ host: this.spec.host, port: this.spec.port });
    const splitter = new LineSplitter(this.#maxLineLength);
    let oversizedSeen = 0;
    const syncOversized = (): void => {
      this.counters.oversizedLines += splitter.oversized - oversizedSeen;
      oversizedSeen = splitter.oversized;
    };
    this.#socket = socket;
    let openedAt: number | null = null;
    let reason: string | null = null;
    socket.setTimeout(this.#connectTimeoutMs);
    this.#socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

    socket.on('connect', () => {
      openedAt = Date.now();
      this.counters.connections = 1;
      socket.setKeepAlive(true, this.#keepAliveMs);
      socket.setTimeout(this.#idleTimeoutMs);
      this.setState('connected', `connected to ${remoteOf(socket)}`);
    });
    socket.on('data', (chunk: Buffer) => {
      this.countBytes(chunk.length);
      const lines = splitter.push(chunk);
      syncOversized();
      this.holdWhileBehind(socket, this.deliverLines(lines));
    });
    socket.on('timeout', () => {
      reason = openedAt === null ? `connect timed out after ${seconds(this.#connectTimeoutMs)}` : `no data for ${seconds(this.#idleTimeoutMs)}`;
      socket.destroy();
    });
    socket.on('error', (error) => {
      reason ??= errorText(error);
    });
    socket.on('end', () => {
      reason ??= 'closed by the server';
    });
    socket.on('close', () => {
      // A line cut by the disconnect still goes on, to be counted by the pipeline.
      this.deliverLines(splitter.flush());
      syncOversized();
      if (this.#socket === socket) this.#socket = null;
      this.counters.connections = 0;
      if (this.stopping) return;
      this.#backoff.connectionClosed(openedAt, Date.now());
      const delay = this.#backoff.next();
      const what = reason ?? 'connection closed';
      this.setState('reconnecting', `${what}; retrying in ${seconds(delay)}`, 'warn');
      this.#retryTimer = setTimeout(() => {
        this.#retryTimer = null;
        this.counters.reconnects++;
        this.#connect();
      }, delay);
    });
  }

  protected async close(): Promise<void> {
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    const socket = this.#socket;
    if (socket !== null) socket.destroy();
    await this.#socketClosed;
  }
}

export interface TcpListenFeedOptions extends FeedBaseOptions {
  /** Most receivers connected at once; more are refused. The spec's `max_connections=` wins. Default 64. */
  maxConnections?: number;
  /** A receiver silent for this long (ms) is disconnected, freeing its slot; the spec's `idle=` wins. Default 300 000. */
  idleTimeoutMs?: number;
  keepAliveMs?: number;
  maxLineLength?: number;
}

export class TcpListenFeed extends FeedBase {
  readonly spec: TcpListenFeedSpec;
  readonly #maxConnections: number;
  readonly #idleTimeoutMs: number;
  readonly #keepAliveMs: number;
  readonly #maxLineLength: number;
  readonly #sockets = new Map<Socket, Promise<void>>();
  #server: Server | null = null;
  #listening = '';
  #port: number | null = null;
  /** Connections refused at the cap. */
  refused = 0;

  constructor(spec: TcpListenFeedSpec, options: TcpListenFeedOptions = {}) {
    super(spec.id, 'tcp-listen', 'live', options);
    this.spec = spec;
    this.#maxConnections = spec.maxConnections ?? options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    if (!Number.isInteger(this.#maxConnections) || this.#maxConnections < 1) throw new RangeError('maxConnections must be a positive integer');
    this.#idleTimeoutMs = spec.idleTimeoutMs ?? timing(options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS, 'idleTimeoutMs');
    this.#keepAliveMs = timing(options.keepAliveMs, DEFAULT_KEEPALIVE_MS, 'keepAliveMs');
    this.#maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  }

  /** The bound port (the chosen one when the spec says 0), null when not listening. */
  get port(): number | null {
    return this.#port;
  }

  protected async open(): Promise<void> {
    const server = createServer({ keepAlive: true, keepAliveInitialDelay: this.#keepAliveMs });
    this.#server = server;
    server.on('connection', (socket) => this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.spec.port, this.spec.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (this.#server !== server) {
      server.close(); // stop() came while binding
      return;
    }
    server.on('error', (error) => this.log('warn', `server error: ${errorText(error)}`));
    const address = server.address();
    if (address !== null && typeof address === 'object') {
      this.#port = address.port;
      this.#listening = `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    }
    this.setState('listening', `listening on ${this.#listening}`);
  }

  #accept(socket: Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const peer = remoteOf(socket);
    if (this.#sockets.size >= this.#maxConnections) {
      this.refused++;
      this.log('warn', `refused ${peer}: already ${this.#maxConnections} connections`, { peer });
      socket.destroy();
      return;
    }
    const splitter = new LineSplitter(this.#maxLineLength);
    let oversizedSeen = 0;
    const syncOversized = (): void => {
      this.counters.oversizedLines += splitter.oversized - oversizedSeen;
      oversizedSeen = splitter.oversized;
    };
    this.#sockets.set(socket, new Promise<void>((resolve) => socket.once('close', () => resolve())));
    this.#updateConnections();
    this.log('info', `receiver connected from ${peer}`, { peer });
    socket.setKeepAlive(true, this.#keepAliveMs);
    socket.setTimeout(this.#idleTimeoutMs);
    let reason = 'disconnected';
    socket.on('data', (chunk: Buffer) => {
      this.countBytes(chunk.length);
      const lines = splitter.push(chunk);
      syncOversized();
      this.holdWhileBehind(socket, this.deliverLines(lines));
    });
    socket.on('timeout', () => {
      reason = `silent for ${seconds(this.#idleTimeoutMs)}, disconnected`;
      socket.destroy();
    });
    socket.on('error', (error) => {
      reason = errorText(error);
    });
    socket.on('close', () => {
      this.deliverLines(splitter.flush());
      syncOversized();
      this.#sockets.delete(socket);
      if (this.stopping) return;
      this.log('info', `receiver ${peer}: ${reason}`, { peer });
      this.#updateConnections();
    });
  }

  #updateConnections(): void {
    const count = this.#sockets.size;
    this.counters.connections = count;
    if (count === 0) this.setState('listening', `listening on ${this.#listening}`);
    else this.setState('connected', `${count} receiver${count === 1 ? '' : 's'} connected; listening on ${this.#listening}`);
  }

  protected async close(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    this.#port = null;
    const closed = [...this.#sockets.values()];
    for (const socket of this.#sockets.keys()) socket.destroy();
    if (server !== null) {
      await new Promise<void>((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
      });
    }
    await Promise.all(closed);
    this.counters.connections = 0;
  }
}
