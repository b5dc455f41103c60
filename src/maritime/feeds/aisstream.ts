// aisstream.io-compatible WebSocket feed: connect, send the subscription (API key, bounding boxes,
// optional MMSI and message-type filters) at once (the service closes connections that have not
// subscribed within a few seconds), then receive one JSON message per frame, converted to the
// codec's AisMessage. Pings keep the connection alive (the service expects traffic every 30 s) and
// show whether it still answers; a connection with neither data nor pongs for the idle timeout is
// dropped and reconnected with backoff. An `{"error": "..."}` from the service (a bad key, a bad
// subscription) puts the feed in `failed` with that message and retries slowly.
import WebSocket from 'ws';
import type { RawData } from 'ws';
import { parseAisstreamFrame } from './aisstream-json.ts';
import { Backoff, errorText, FeedBase, seconds, timing } from './base.ts';
import type { BackoffOptions, FeedBaseOptions } from './base.ts';
import type { AisstreamFeedSpec, BoundingBox } from './types.ts';

export interface AisstreamFeedOptions extends FeedBaseOptions {
  /** The aisstream API key; without one, start() fails. Never logged. */
  apiKey?: string;
  backoff?: BackoffOptions;
  /** After the service reports an error (bad key, bad subscription), wait at least this long (ms); default 300 000. */
  errorRetryMs?: number;
  /** Ping interval (ms), default 20 000. */
  pingIntervalMs?: number;
  /** No message and no pong for this long (ms) drops the connection; default 120 000. */
  idleTimeoutMs?: number;
  /** Opening handshake limit (ms), default 15 000. */
  connectTimeoutMs?: number;
  /** Largest frame accepted (bytes), default 1 MiB. */
  maxFrameBytes?: number;
}

/** The subscription message aisstream expects as the first frame. */
export interface AisstreamSubscription {
  APIKey: string;
  BoundingBoxes: BoundingBox[];
  FiltersShipMMSI?: string[];
  FilterMessageTypes?: string[];
}

export function aisstreamSubscription(spec: AisstreamFeedSpec, apiKey: string): AisstreamSubscription {
  const subscription: AisstreamSubscription = { APIKey: apiKey, BoundingBoxes: spec.boundingBoxes };
  if (spec.mmsi.length > 0) subscription.FiltersShipMMSI = spec.mmsi;
  if (spec.messageTypes.length > 0) subscription.FilterMessageTypes = spec.messageTypes;
  return subscription;
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function frameBytes(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data.byteLength;
}

/** Rejections are logged the first time and then once per this many, so a bad stream cannot flood the log. */
const REJECT_LOG_EVERY = 1000;

export class AisstreamFeed extends FeedBase {
  readonly spec: AisstreamFeedSpec;
  readonly #apiKey: string | undefined;
  readonly #backoff: Backoff;
  readonly #errorRetryMs: number;
  readonly #pingIntervalMs: number;
  readonly #idleTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #maxFrameBytes: number;
  #socket: WebSocket | null = null;
  #socketClosed: Promise<void> | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #pingTimer: NodeJS.Timeout | null = null;
  /** The service's last `{"error": ...}`, until a message arrives after a new subscription. */
  #serviceError: string | null = null;
  #rejections = 0;

  constructor(spec: AisstreamFeedSpec, options: AisstreamFeedOptions = {}) {
    super(spec.id, 'aisstream', 'live', options);
    this.spec = spec;
    this.#apiKey = options.apiKey;
    this.#backoff = new Backoff(options.backoff);
    this.#errorRetryMs = timing(options.errorRetryMs, 300_000, 'errorRetryMs');
    this.#pingIntervalMs = timing(options.pingIntervalMs, 20_000, 'pingIntervalMs');
    this.#idleTimeoutMs = timing(options.idleTimeoutMs, 120_000, 'idleTimeoutMs');
    this.#connectTimeoutMs = timing(options.connectTimeoutMs, 15_000, 'connectTimeoutMs');
    this.#maxFrameBytes = timing(options.maxFrameBytes, 1 << 20, 'maxFrameBytes');
  }

  protected async open(): Promise<void> {
    if (this.#apiKey === undefined || this.#apiKey.trim() === '') throw new Error('no aisstream API key configured');
    this.#connect();
  }

  #connect(): void {
    if (this.stopping) return;
    const socket = new WebSocket(this.spec.url, { handshakeTimeout: this.#connectTimeoutMs, maxPayload: this.#maxFrameBytes });
    this.#socket = socket;
    this.#socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let openedAt: number | null = null;
    let lastActivity = Date.now();
    let reason: string | null = null;
    let serviceErrorHere = false;

    socket.on('open', () => {
      openedAt = Date.now();
      lastActivity = openedAt;
      this.counters.connections = 1;
      socket.send(JSON.stringify(aisstreamSubscription(this.spec, this.#apiKey!)));
      if (this.#serviceError === null) this.setState('connected', `subscribed at ${this.spec.url}`);
      else this.setDetail(`service error: ${this.#serviceError}; subscribed again, waiting for data`);
      this.#pingTimer = setInterval(() => {
        if (Date.now() - lastActivity >= this.#idleTimeoutMs) {
          reason = `no data or pong for ${seconds(this.#idleTimeoutMs)}`;
          socket.terminate();
          return;
        }
        socket.ping();
      }, Math.min(this.#pingIntervalMs, this.#idleTimeoutMs));
    });
    socket.on('pong', () => {
      lastActivity = Date.now();
    });
    socket.on('message', (data) => {
      const now = Date.now();
      lastActivity = now;
      this.countBytes(frameBytes(data), now);
      const frame = parseAisstreamFrame(frameText(data));
      if (frame.kind === 'error') {
        serviceErrorHere = true;
        this.#serviceError = frame.error;
        reason = `service error: ${frame.error}`;
        this.setState('failed', `service error: ${frame.error}`);
        socket.close(1000);
        return;
      }
      if (frame.kind === 'rejected') {
        this.counters.rejected[frame.reason]++;
        this.#rejections++;
        if (this.#rejections === 1 || this.#rejections % REJECT_LOG_EVERY === 0) {
          this.log('warn', `message not passed on (${frame.reason}): ${frame.detail}`, { reason: frame.reason, rejections: this.#rejections });
        }
        return;
      }
      if (this.#serviceError !== null || this.state !== 'connected') {
        this.#serviceError = null;
        this.setState('connected', `subscribed at ${this.spec.url}`);
      }
      this.deliverMessages([frame.message]);
    });
    socket.on('unexpected-response', (_request, response) => {
      reason = `server answered HTTP ${response.statusCode ?? '?'}${response.statusMessage ? ` ${response.statusMessage}` : ''}`;
      response.resume();
      socket.terminate();
    });
    socket.on('error', (error) => {
      reason ??= errorText(error);
    });
    socket.on('close', (code, closeReason) => {
      if (this.#pingTimer !== null) clearInterval(this.#pingTimer);
      this.#pingTimer = null;
      if (this.#socket === socket) this.#socket = null;
      this.counters.connections = 0;
      if (this.stopping) return;
      const text = closeReason.toString('utf8');
      reason ??= openedAt === null ? 'connection failed' : `closed by the server (${code}${text ? ` ${text}` : ''})`;
      this.#backoff.connectionClosed(openedAt, Date.now());
      let delay = this.#backoff.next();
      if (serviceErrorHere) delay = Math.max(delay, this.#errorRetryMs);
      if (this.#serviceError !== null) {
        this.setState('failed', `service error: ${this.#serviceError}; retrying in ${seconds(delay)}`);
      } else {
        this.setState('reconnecting', `${reason}; retrying in ${seconds(delay)}`, 'warn');
      }
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
    if (this.#pingTimer !== null) clearInterval(this.#pingTimer);
    this.#pingTimer = null;
    const socket = this.#socket;
    if (socket !== null) socket.terminate();
    await this.#socketClosed;
  }
}
