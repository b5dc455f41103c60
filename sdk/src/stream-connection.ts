// What every stream client shares: one WebSocket at a time, authenticated by header (Node, `ws`) or
// by a first auth message (browser-style WebSockets), a watchdog and client heartbeats once
// admitted, and reconnecting with exponential backoff and jitter, except after the close codes that
// say trying again cannot help (the server's close code table, from its AsyncAPI document). A
// stream's client brings its URL, its close codes and what it does with frames.
import { apiError, LamisError, problemFrom, type LamisApiError } from './errors.ts';
import { parseRateLimit } from './rate-limit.ts';

export interface ReconnectOptions {
  /** First delay; default 1 s. */
  initialDelayMs?: number;
  /** Longest delay; default 30 s. */
  maxDelayMs?: number;
  /** Shortest delay while the organisation holds all its streams (4429, or 429 at the upgrade); default 30 s. */
  capDelayMs?: number;
  /** Give up after this many attempts in a row; default never. */
  maxAttempts?: number;
  /** A connection that stays up this long starts the delays over; default 30 s. */
  stableAfterMs?: number;
}

/** The parts of a WebSocket (browser or `ws`) the client uses. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: any) => void): void;
}

export type WebSocketFactory = new (url: string, protocols?: string | string[], options?: { headers: Record<string, string> }) => WebSocketLike;

export interface StreamClientOptions {
  apiKey: string;
  /** The service's address (`https://lamis.example.com`) or the stream's (`wss://…/v3/stream/…`). */
  url: string;
  /**
   * A WebSocket class. Default: `ws` in Node, the global WebSocket elsewhere. A class other than
   * `ws` is assumed unable to send headers, so the key goes in an auth message unless `auth` says
   * `header`.
   */
  WebSocket?: WebSocketFactory;
  /** How the key is presented: `header` (Authorization, at the upgrade) or `message`. */
  auth?: 'header' | 'message';
  /** `false` turns reconnecting off. */
  reconnect?: ReconnectOptions | false;
  /**
   * A connection on which nothing arrives for this long is taken for dead and replaced; default
   * three heartbeat intervals (before `ready`: 30 s).
   */
  idleTimeoutMs?: number;
}

export interface CloseInfo {
  code: number;
  reason: string;
  /** Whether the client will connect again. */
  reconnecting: boolean;
  /** Why the connection could not be made: the refused upgrade's problem, or a network error. */
  error?: Error;
}

export interface ReconnectingInfo {
  /** 1 for the first attempt after a drop. */
  attempt: number;
  delayMs: number;
  code: number;
  reason: string;
}

/** The events every stream client emits; `ready`, `heartbeat` and `error` carry its stream's frames. */
export interface ConnectionEvents {
  /** The WebSocket is open (not yet admitted: see `ready`). */
  open: undefined;
  ready: unknown;
  heartbeat: unknown;
  error: unknown;
  close: CloseInfo;
  reconnecting: ReconnectingInfo;
}

export type StreamState = 'idle' | 'connecting' | 'open' | 'ready' | 'waiting' | 'closed';

/** The stream closed for good: by `close()`, a final close code, or after the last attempt. */
export class LamisStreamClosedError extends LamisError {
  readonly code: number;
  readonly reason: string;

  constructor(code: number, reason: string, options?: ErrorOptions) {
    super(`the stream closed (${code}${reason ? `: ${reason}` : ''})`, options);
    this.code = code;
    this.reason = reason;
  }
}

export interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

export function waiter<T>(): Waiter<T> & { promise: Promise<T> } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A stream's close code table, as its AsyncAPI document gives it. */
export type CloseCodeTable = readonly { readonly code: number; readonly reconnect: string }[];

/** Close codes after which reconnecting cannot help (the server's table says `no`). */
export const finalCloseCodes = (table: CloseCodeTable): ReadonlySet<number> =>
  new Set(table.filter((close) => close.reconnect === 'no').map((close) => close.code));
/** Close codes that say: try again, but not soon (the organisation holds all its plan's streams). */
export const longBackoffCloseCodes = (table: CloseCodeTable): ReadonlySet<number> =>
  new Set(table.filter((close) => close.reconnect.includes('long backoff')).map((close) => close.code));

/** `https://host` → `wss://host<path>`; a ws(s) URL with a path is kept as it is. */
export function streamAddress(address: string, path: string): string {
  const url = new URL(address);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new TypeError(`not an http(s) or ws(s) URL: ${address}`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = path;
  return url.toString();
}

const OPEN = 1;
const CLOSED = 3;
const DEFAULT_IDLE_BEFORE_READY_MS = 30_000;

type Listener = (payload: never) => void;

export abstract class StreamConnection<Events extends ConnectionEvents, Ready extends { heartbeat_interval_sec: number }> {
  readonly url: string;
  readonly #apiKey: string;
  readonly #WebSocket: WebSocketFactory | undefined;
  readonly #auth: 'header' | 'message' | undefined;
  readonly #reconnect: Required<ReconnectOptions> | false;
  readonly #idleTimeoutMs: number | undefined;
  readonly #final: ReadonlySet<number>;
  readonly #longBackoff: ReadonlySet<number>;
  readonly #listeners = new Map<keyof Events, Set<Listener>>();

  #state: StreamState = 'idle';
  #socket: WebSocketLike | undefined;
  #ready: Ready | undefined;
  #readyWaiters: Waiter<Ready>[] = [];
  #attempt = 0;
  #refusal: Error | undefined;
  #lastReceived = 0;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #watchdog: ReturnType<typeof setInterval> | undefined;
  #stableTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: StreamClientOptions, stream: { path: string; closeCodes: CloseCodeTable }) {
    if (!options.apiKey) throw new TypeError(`${new.target.name} needs an apiKey`);
    this.url = streamAddress(options.url, stream.path);
    this.#apiKey = options.apiKey;
    this.#WebSocket = options.WebSocket;
    this.#auth = options.auth;
    this.#reconnect = options.reconnect === false ? false : {
      initialDelayMs: 1000,
      maxDelayMs: 30_000,
      capDelayMs: 30_000,
      maxAttempts: Infinity,
      stableAfterMs: 30_000,
      ...options.reconnect,
    };
    this.#idleTimeoutMs = options.idleTimeoutMs;
    this.#final = finalCloseCodes(stream.closeCodes);
    this.#longBackoff = longBackoffCloseCodes(stream.closeCodes);
  }

  /** A frame other than `ready` and `heartbeat`; `frame` is all of it, with any fields beside `event` and `data`. */
  protected abstract frame(event: unknown, data: any, frame: Record<string, unknown>): void;
  /** The URL of the next connection. */
  protected connectUrl(): string {
    return this.url;
  }
  /** Admitted (after `ready` was emitted). */
  protected admitted(_info: Ready): void {}
  /** The connection ended; another may follow. */
  protected dropped(): void {}
  /** Closed for good: reject what waits. */
  protected finished(_closed: Error): void {}

  get state(): StreamState {
    return this.#state;
  }

  /** What the server said when it admitted the current connection. */
  get readyInfo(): Ready | undefined {
    return this.#ready;
  }

  /** Adds a listener; the returned function removes it. */
  on<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => this.off(event, listener);
  }

  off<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void): void {
    this.#listeners.get(event)?.delete(listener);
  }

  /** Connects (if not yet) and resolves once the server has admitted the connection. */
  connect(): Promise<Ready> {
    if (this.#state === 'closed') return Promise.reject(new LamisStreamClosedError(1000, 'the client was closed'));
    if (this.#state === 'ready') return Promise.resolve(this.#ready!);
    const wait = waiter<Ready>();
    this.#readyWaiters.push(wait);
    this.start();
    return wait.promise;
  }

  /** Opens the first connection, unless one is open or coming. */
  protected start(): void {
    if (this.#state === 'idle') void this.#open();
  }

  /** Closes the connection (1000) and stops reconnecting; resolves once the socket has closed. */
  close(): Promise<void> {
    if (this.#state === 'closed') return Promise.resolve();
    const socket = this.#socket;
    const closing = socket && socket.readyState !== CLOSED
      ? new Promise<void>((resolve) => socket.addEventListener('close', () => resolve()))
      : Promise.resolve();
    this.#finish(1000, 'closed by the client');
    if (socket) socket.close(1000, 'closed by the client');
    return closing;
  }

  protected emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])] as ((payload: Events[E]) => void)[]) {
      try {
        listener(payload);
      } catch (error) {
        // A failing listener must not stop the others or the connection; its error still surfaces.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  protected send(message: Record<string, unknown>): void {
    if (this.#socket?.readyState === OPEN) this.#socket.send(JSON.stringify(message));
  }

  async #open(): Promise<void> {
    this.#state = 'connecting';
    this.#refusal = undefined;
    let socket: WebSocketLike;
    let auth: 'header' | 'message';
    try {
      const { WebSocket, canSendHeaders } = await this.#webSocketClass();
      if (this.#state !== 'connecting') return;
      auth = this.#auth ?? (canSendHeaders ? 'header' : 'message');
      const url = this.connectUrl();
      socket = auth === 'header'
        ? new WebSocket(url, [], { headers: { authorization: `Bearer ${this.#apiKey}` } })
        : new WebSocket(url);
    } catch (error) {
      if (this.#state !== 'connecting') return;
      this.#refusal = error as Error;
      this.#closed(1006, (error as Error).message);
      return;
    }
    this.#socket = socket;
    this.#watchRefusal(socket);
    socket.addEventListener('open', () => {
      if (this.#socket !== socket) return;
      this.#state = 'open';
      this.#lastReceived = Date.now();
      this.#startWatchdog(this.#idleTimeoutMs ?? DEFAULT_IDLE_BEFORE_READY_MS);
      if (auth === 'message') socket.send(JSON.stringify({ type: 'auth', api_key: this.#apiKey }));
      this.emit('open', undefined as Events['open']);
    });
    socket.addEventListener('message', (event: { data: unknown }) => {
      if (this.#socket === socket && typeof event.data === 'string') this.#frame(event.data);
    });
    socket.addEventListener('error', (event: { error?: unknown; message?: string }) => {
      if (this.#socket === socket && !this.#refusal) {
        this.#refusal = event.error instanceof Error ? event.error : new LamisError(event.message || 'the WebSocket failed');
      }
    });
    socket.addEventListener('close', (event: { code: number; reason: string }) => {
      // A socket the client closed itself (close(), or replacing a dead one) is already dealt with.
      if (this.#socket === socket) this.#closed(event.code, event.reason);
    });
  }

  /** `ws` in Node, which can send headers; otherwise the global (browser) WebSocket. */
  async #webSocketClass(): Promise<{ WebSocket: WebSocketFactory; canSendHeaders: boolean }> {
    if (this.#WebSocket) return { WebSocket: this.#WebSocket, canSendHeaders: false };
    if (typeof process !== 'undefined' && process.versions?.node) {
      const ws = await import('ws');
      return { WebSocket: ws.WebSocket as unknown as WebSocketFactory, canSendHeaders: true };
    }
    const global = (globalThis as { WebSocket?: WebSocketFactory }).WebSocket;
    if (!global) throw new LamisError('no WebSocket implementation: pass one as the WebSocket option');
    return { WebSocket: global, canSendHeaders: false };
  }

  /** `ws` reports an upgrade answered with an error status: keep its problem document. */
  #watchRefusal(socket: WebSocketLike): void {
    const emitter = socket as WebSocketLike & { on?: (event: string, listener: (...args: any[]) => void) => unknown; terminate?: () => void };
    if (typeof emitter.on !== 'function' || typeof emitter.terminate !== 'function') return;
    emitter.on('unexpected-response', async (_request: unknown, response: AsyncIterable<Uint8Array> & { statusCode: number; statusMessage?: string; headers: Record<string, string | string[] | undefined> }) => {
      const chunks: Uint8Array[] = [];
      try {
        for await (const chunk of response) chunks.push(chunk);
      } catch {
        // A cut-off body still leaves the status to go by.
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
      }
      const problem = problemFrom(response.statusCode, response.statusMessage ?? '', body, text, new URL(this.url).pathname);
      this.#refusal = apiError({ status: response.statusCode, problem, headers, rateLimit: parseRateLimit(headers) });
      emitter.terminate!();
    });
  }

  #frame(text: string): void {
    this.#lastReceived = Date.now();
    let frame: { event?: unknown; data?: any; [field: string]: unknown };
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame.event === 'ready') this.#admitted(frame.data as Ready);
    else if (frame.event === 'heartbeat') this.emit('heartbeat', frame.data as Events['heartbeat']);
    else this.frame(frame.event, frame.data, frame);
  }

  #admitted(info: Ready): void {
    this.#state = 'ready';
    this.#ready = info;
    const intervalMs = Math.max(1, info.heartbeat_interval_sec) * 1000;
    this.#startWatchdog(this.#idleTimeoutMs ?? intervalMs * 3);
    this.#heartbeat = setInterval(() => this.send({ type: 'heartbeat' }), intervalMs);
    if (this.#reconnect) {
      this.#stableTimer = setTimeout(() => {
        this.#attempt = 0;
      }, this.#reconnect.stableAfterMs);
    }
    this.emit('ready', info as Events['ready']);
    for (const wait of this.#readyWaiters.splice(0)) wait.resolve(info);
    this.admitted(info);
  }

  /** Replaces a connection on which nothing has arrived for `idleMs`. */
  #startWatchdog(idleMs: number): void {
    clearInterval(this.#watchdog);
    this.#watchdog = setInterval(() => {
      if (Date.now() - this.#lastReceived < idleMs) return;
      const socket = this.#socket;
      // A dead peer never completes a close handshake: `ws` can drop the socket at once.
      (socket as { terminate?: () => void } | undefined)?.terminate?.();
      this.#closed(4408, `nothing received for ${idleMs} ms`);
      socket?.close(4408, 'idle');
    }, Math.min(idleMs, 1000));
  }

  #stopConnectionTimers(): void {
    clearInterval(this.#heartbeat);
    clearInterval(this.#watchdog);
    clearTimeout(this.#stableTimer);
    this.#heartbeat = this.#watchdog = this.#stableTimer = undefined;
  }

  /** The current connection ended: reconnect unless the code or the caller says not to. */
  #closed(code: number, reason: string): void {
    this.#socket = undefined;
    this.#ready = undefined;
    this.#stopConnectionTimers();
    this.dropped();
    const error = this.#refusal;
    this.#refusal = undefined;

    const status = (error as LamisApiError | undefined)?.status;
    const final = this.#final.has(code) || (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429);
    const reconnect = this.#reconnect;
    if (final || !reconnect || this.#attempt >= reconnect.maxAttempts) {
      this.#finish(code, reason, error);
      return;
    }
    this.#attempt++;
    const base = Math.min(reconnect.maxDelayMs, reconnect.initialDelayMs * 2 ** (this.#attempt - 1));
    // Equal jitter: half the delay fixed, half random, so clients dropped together come back spread out.
    let delayMs = Math.round(base / 2 + Math.random() * (base / 2));
    // Never sooner than a refused upgrade said (503 overloaded, 429 every stream held).
    delayMs = Math.max(delayMs, ((error as LamisApiError | undefined)?.retryAfterSec ?? 0) * 1000);
    if (this.#longBackoff.has(code) || status === 429) delayMs = Math.max(delayMs, reconnect.capDelayMs);
    this.#state = 'waiting';
    this.emit('close', { code, reason, reconnecting: true, ...(error ? { error } : {}) } as Events['close']);
    this.emit('reconnecting', { attempt: this.#attempt, delayMs, code, reason } as Events['reconnecting']);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (this.#state === 'waiting') void this.#open();
    }, delayMs);
    this.#timers.add(timer);
  }

  /** Closed for good: nothing pending survives and no timer is left running. */
  #finish(code: number, reason: string, error?: Error): void {
    const wasOpen = this.#state !== 'closed';
    this.#state = 'closed';
    this.#socket = undefined;
    this.#ready = undefined;
    this.#stopConnectionTimers();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const closed = error instanceof LamisError && !(error instanceof LamisStreamClosedError)
      ? error
      : new LamisStreamClosedError(code, reason, error ? { cause: error } : undefined);
    for (const wait of this.#readyWaiters.splice(0)) wait.reject(closed);
    this.finished(closed);
    if (wasOpen) this.emit('close', { code, reason, reconnecting: false, ...(error ? { error } : {}) } as Events['close']);
  }
}
