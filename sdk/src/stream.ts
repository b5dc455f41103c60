// The AIS stream client. It connects to `/v3/stream/ais`, subscribes, and hands each frame to the
// listeners of its event. When the connection drops it reconnects (stream-connection.ts: backoff
// with jitter, except after final close codes) and subscribes again to the last filters.
//
// In Node it uses the `ws` package and sends the key in the `Authorization` header of the upgrade
// request; with a browser-style WebSocket, which cannot set headers, it sends an auth message first.
import { LamisError } from './errors.ts';
import { AIS_STREAM_CLOSE_CODES, type AisStreamChannel } from './generated/stream.ts';
import {
  finalCloseCodes, LamisStreamClosedError, longBackoffCloseCodes, StreamConnection, streamAddress, waiter,
  type CloseInfo, type ReconnectingInfo, type StreamClientOptions, type Waiter,
} from './stream-connection.ts';
import type {
  HeartbeatInfo,
  PositionUpdate,
  ReadyInfo,
  StaticUpdate,
  StreamErrorInfo,
  SubscribedFilter,
  SubscribeFilters,
} from './stream-types.ts';

export {
  LamisStreamClosedError,
  type CloseInfo, type ReconnectingInfo, type ReconnectOptions, type StreamClientOptions, type StreamState, type WebSocketFactory, type WebSocketLike,
} from './stream-connection.ts';

export const STREAM_PATH: AisStreamChannel['address'] = '/v3/stream/ais';

/** Close codes after which reconnecting cannot help (the server's table says `no`). */
export const FINAL_CLOSE_CODES: ReadonlySet<number> = finalCloseCodes(AIS_STREAM_CLOSE_CODES);
/** Close codes that say: try again, but not soon (the organisation holds all its plan's streams). */
export const LONG_BACKOFF_CLOSE_CODES: ReadonlySet<number> = longBackoffCloseCodes(AIS_STREAM_CLOSE_CODES);

export interface StreamEvents {
  /** The WebSocket is open (not yet admitted: see `ready`). */
  open: undefined;
  /** Admitted: the organisation, plan, limits and heartbeat interval. */
  ready: ReadyInfo;
  /** A subscription took effect; the effective filter. */
  subscribed: SubscribedFilter;
  position: PositionUpdate;
  static: StaticUpdate;
  heartbeat: HeartbeatInfo;
  /** An error frame: e.g. an invalid subscription (the previous one stays in force). */
  error: StreamErrorInfo;
  close: CloseInfo;
  reconnecting: ReconnectingInfo;
}

/** An error frame that refused a subscription. */
export class LamisStreamError extends LamisError {
  readonly code: string;
  readonly field: string | undefined;

  constructor(info: StreamErrorInfo) {
    super(`${info.code}: ${info.message}${info.field ? ` (${info.field})` : ''}`);
    this.code = info.code;
    this.field = info.field;
  }
}

export class StreamClient extends StreamConnection<StreamEvents, ReadyInfo> {
  /** The filters the client wants; the last ones the server took, as sent and as it answered. */
  #desired: SubscribeFilters | undefined;
  #acceptedRequest: SubscribeFilters | undefined;
  #accepted: SubscribedFilter | undefined;
  /** Subscribes sent and not yet answered, oldest first; and callers waiting for the next send. */
  #inFlight: { filters: SubscribeFilters; waiters: Waiter<SubscribedFilter>[] }[] = [];
  #unsent: Waiter<SubscribedFilter>[] = [];

  constructor(options: StreamClientOptions) {
    super(options, { path: STREAM_PATH, closeCodes: AIS_STREAM_CLOSE_CODES });
  }

  /** The filter in force as the server last acknowledged it. */
  get filter(): SubscribedFilter | undefined {
    return this.#accepted;
  }

  /**
   * Replaces the subscription (connecting first if needed) and resolves with the effective filter,
   * or rejects with a LamisStreamError when the server refuses it (the previous one then stays).
   * After a reconnect the client subscribes again to the last filters.
   */
  subscribe(filters: SubscribeFilters = {}): Promise<SubscribedFilter> {
    if (this.state === 'closed') return Promise.reject(new LamisStreamClosedError(1000, 'the client was closed'));
    const wait = waiter<SubscribedFilter>();
    this.#desired = filters;
    if (this.state === 'ready') this.#sendSubscribe([wait]);
    else {
      this.#unsent.push(wait);
      this.start();
    }
    return wait.promise;
  }

  protected frame(event: unknown, data: any): void {
    switch (event) {
      case 'subscribed': {
        this.#accepted = data as SubscribedFilter;
        const sent = this.#inFlight.shift();
        if (sent) this.#acceptedRequest = sent.filters;
        for (const wait of sent?.waiters ?? []) wait.resolve(this.#accepted);
        this.emit('subscribed', this.#accepted);
        break;
      }
      case 'error': {
        const info = data as StreamErrorInfo;
        // The server answers messages in order, so `invalid_subscription` refuses the oldest
        // subscribe waiting; the subscription in force stays, and is what a reconnect asks for.
        const refused = info.code === 'invalid_subscription' ? this.#inFlight.shift() : undefined;
        if (refused) {
          this.#desired = this.#inFlight.at(-1)?.filters ?? this.#acceptedRequest;
          for (const wait of refused.waiters) wait.reject(new LamisStreamError(info));
        }
        this.emit('error', info);
        break;
      }
      case 'position':
        this.emit('position', data as PositionUpdate);
        break;
      case 'static':
        this.emit('static', data as StaticUpdate);
        break;
      default:
        // Events added to the protocol later are not this client's business.
    }
  }

  protected override admitted(): void {
    if (this.#desired !== undefined) this.#sendSubscribe(this.#unsent.splice(0));
  }

  protected override dropped(): void {
    // Subscribes that were not answered go out again on the next connection.
    for (const sent of this.#inFlight.splice(0)) this.#unsent.push(...sent.waiters);
  }

  protected override finished(closed: Error): void {
    for (const wait of this.#unsent.splice(0)) wait.reject(closed);
    for (const sent of this.#inFlight.splice(0)) for (const wait of sent.waiters) wait.reject(closed);
  }

  #sendSubscribe(waiters: Waiter<SubscribedFilter>[]): void {
    const filters = this.#desired ?? {};
    this.#inFlight.push({ filters, waiters });
    this.send({ type: 'subscribe', ...filters });
  }
}

/** `https://host` → `wss://host/v3/stream/ais`; a ws(s) URL with a path is kept as it is. */
export function streamUrl(address: string): string {
  return streamAddress(address, STREAM_PATH);
}
