// The event stream client. It connects to `/v3/stream/events` and hands each `alert` (an event of
// the organisation in its new state) and each `feed` (a changed fleet feed entry) to its listeners. When the connection drops it reconnects as
// the AIS stream client does (stream-connection.ts) and resumes from the cursor of the last alert it
// handled, so the server replays exactly what changed meanwhile before live alerts.
import { EVENT_STREAM_CLOSE_CODES, type EventStreamChannel } from './generated/stream.ts';
import type {
  EventStreamAlert, EventStreamError, EventStreamFeed, EventStreamHeartbeat, EventStreamReady, EventStreamResumed,
} from './generated/stream.ts';
import { StreamConnection, type CloseInfo, type ReconnectingInfo, type StreamClientOptions } from './stream-connection.ts';

export const EVENT_STREAM_PATH: EventStreamChannel['address'] = '/v3/stream/events';

/** An event of the organisation, as an `alert` carries it. */
export type EventAlert = EventStreamAlert['data'];
/** A vehicle's fleet feed entry, as a `feed` frame carries it (and `GET /v3/fleet/feed` serves it). */
export type FleetFeedUpdate = EventStreamFeed['data'];
export type EventStreamReadyInfo = EventStreamReady['data'];
export type EventStreamResumedInfo = EventStreamResumed['data'];
export type EventStreamErrorInfo = EventStreamError['data'];

export interface EventStreamEvents {
  /** The WebSocket is open (not yet admitted: see `ready`). */
  open: undefined;
  ready: EventStreamReadyInfo;
  /** An event opened, changed, was acknowledged or cleared. */
  alert: EventAlert;
  /** A vehicle's fleet feed entry changed. */
  feed: FleetFeedUpdate;
  /** The changes missed while away have all come (as `alert`s); what follows is live. */
  resumed: EventStreamResumedInfo;
  heartbeat: EventStreamHeartbeat['data'];
  /** An error frame, e.g. `unknown_event` when the event to resume after is gone. */
  error: EventStreamErrorInfo;
  close: CloseInfo;
  reconnecting: ReconnectingInfo;
}

export interface EventStreamClientOptions extends StreamClientOptions {
  /**
   * Resume on the first connection too: the `lastCursor` an earlier run kept (exact), or the id of
   * the last event it saw (the older, inexact form).
   */
  after?: string;
}

export class EventStreamClient extends StreamConnection<EventStreamEvents, EventStreamReadyInfo> {
  #lastEventId: string | undefined;
  /** Where the next connection resumes: the last alert's cursor (its event id from a server without cursors). */
  #resumeAfter: string | undefined;

  constructor(options: EventStreamClientOptions) {
    super(options, { path: EVENT_STREAM_PATH, closeCodes: EVENT_STREAM_CLOSE_CODES });
    this.#resumeAfter = options.after;
  }

  /** The id of the last event an `alert` carried. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /**
   * The cursor of the last `alert` (already that of the alert being handled inside an `alert`
   * listener): where the next connection resumes. Keep it to resume a later run with `after`.
   */
  get lastCursor(): string | undefined {
    return this.#resumeAfter;
  }

  protected override connectUrl(): string {
    if (this.#resumeAfter === undefined) return this.url;
    const url = new URL(this.url);
    url.searchParams.set('after', this.#resumeAfter);
    return url.toString();
  }

  protected frame(event: unknown, data: any, frame: Record<string, unknown>): void {
    switch (event) {
      case 'alert': {
        const alert = frame as unknown as EventStreamAlert;
        this.#lastEventId = alert.data.id;
        this.#resumeAfter = typeof alert.cursor === 'string' ? alert.cursor : alert.data.id;
        this.emit('alert', data as EventAlert);
        break;
      }
      case 'feed':
        this.emit('feed', data as FleetFeedUpdate);
        break;
      case 'resumed':
        this.emit('resumed', data as EventStreamResumedInfo);
        break;
      case 'error':
        this.emit('error', data as EventStreamErrorInfo);
        break;
      default:
        // Events added to the protocol later are not this client's business.
    }
  }
}
