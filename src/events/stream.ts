// The event stream at /v3/stream/events, on the streams' shared machinery (upgrades, authentication,
// plan leases, heartbeats: src/platform/stream). An admitted stream gets an `alert` frame for each
// change of its organisation's events, fed from `events.changes` (so from every instance when the
// bus runs on Redis), with the cursor of that change. A client back after a drop names the cursor
// of the last alert it handled (`after=` in the URL, or a first `resume` message): the events
// changed since are replayed from the change log, oldest latest change first, then `resumed`, then
// live frames (replay.ts joins the two without a gap or a repeat). An event id instead of a cursor,
// the older form, resumes after that event's latest change.
// The fleet feed's `feed` frames come through `FeedFrames` (feed-frames.ts) to the owner's streams.
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { Bus } from '../platform/bus/index.ts';
import type { App } from '../platform/http/app.ts';
import { registerAsyncApi } from '../platform/http/asyncapi.ts';
import { STREAM_CLOSE, StreamEndpoint, StreamSession, type Admitted } from '../platform/stream/index.ts';
import { eventChanges, ownerOf, type EventChange, type EventStore, type LoggedChange } from './events.ts';
import type { FeedFrames } from './feed-frames.ts';
import type { FleetFeedEntry } from './fleet-feed.schemas.ts';
import { ReplaySeam } from './replay.ts';
import {
  changeCursor, cursorSeq, EVENT_STREAM_MESSAGES, EVENT_STREAM_PATH, eventStreamChannel, readEventStreamMessage, type EventReadyInfo,
} from './stream.schemas.ts';

export interface EventStreamOptions {
  app: App;
  bus: Bus;
  store: EventStore;
  publicUrl: string | undefined;
  heartbeatSec: number;
  feed: FeedFrames;
}

class EventSession extends StreamSession {
  readonly #server: EventStreamServer;
  /** Whose events the stream carries, once admitted. */
  owner: string | null = null;
  /** `after` from the URL: resume as soon as admitted. */
  readonly #after: string | null;
  #resumed = false;
  #alerted = false;
  readonly #seam = new ReplaySeam((change) => this.#alert(change));

  constructor(server: EventStreamServer, endpoint: StreamEndpoint<EventSession>, ws: WebSocket, request: FastifyRequest) {
    super(endpoint, ws, request.log);
    this.#server = server;
    this.#after = new URL(request.url, 'http://stream').searchParams.get('after');
  }

  send(event: 'ready' | 'feed' | 'resumed' | 'error' | 'heartbeat', data: unknown): void {
    this.ws.send(JSON.stringify({ event, data }), { binary: false });
  }

  protected opened({ principal, admission }: Admitted): void {
    this.owner = ownerOf(principal);
    this.#server.join(this);
    const ready: EventReadyInfo = {
      organisation: principal.organisation_id,
      plan: admission.plan?.name ?? null,
      max_streams: admission.plan?.maxConcurrentStreams ?? null,
      heartbeat_interval_sec: this.host.heartbeatSec,
    };
    this.send('ready', ready);
    this.log.info({ organisation: principal.organisation_id, key_id: principal.key_id, plan: ready.plan }, 'event stream opened');
    if (this.#after !== null) void this.#resume(this.#after);
  }

  protected override stopped(): void {
    this.#server.leave(this);
  }

  protected handle(data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.protocolError({ code: 'binary_frame', message: 'Messages are JSON text frames, not binary.' });
      return;
    }
    const message = readEventStreamMessage(data.toString(), this.host.messages);
    if ('error' in message) {
      this.protocolError(message.error);
      return;
    }
    switch (message.type) {
      case 'resume':
        if (this.#resumed || this.#alerted) {
          this.send('error', { code: 'invalid_resume', message: 'Resume once, before any alert: as the first message, or with `after` in the URL.', field: '/after' });
          return;
        }
        void this.#resume(message.after);
        return;
      case 'auth':
        this.send('error', { code: 'already_authenticated', message: 'This stream is already authenticated; its key cannot change.' });
        return;
      case 'heartbeat':
    }
  }

  /** A live change of the organisation's events. */
  deliver(change: LoggedChange): void {
    this.#seam.live(change);
  }

  /** A changed entry of the organisation's fleet feed. */
  feed(entry: FleetFeedEntry): void {
    if (this.state === 'open') this.send('feed', entry);
  }

  #alert({ seq, event }: LoggedChange): void {
    if (this.state !== 'open') return;
    this.#alerted = true;
    this.ws.send(JSON.stringify({ event: 'alert', data: event, cursor: changeCursor(seq) }), { binary: false });
  }

  async #resume(after: string): Promise<void> {
    this.#resumed = true;
    this.#seam.begin();
    try {
      const from = await this.#startOf(after);
      if (typeof from === 'number') {
        let replayed = 0;
        for await (const change of this.#server.store.changesAfter(this.owner!, from)) {
          if (this.state !== 'open') return;
          this.#seam.replayed(change);
          replayed++;
        }
        // Retention may have taken changes out while the replay read.
        const pruned = await this.#prunedAfter(from);
        if (this.state !== 'open') return;
        if (pruned) this.send('error', { ...pruned, field: '/after' });
        else this.send('resumed', { after, replayed });
      } else {
        this.send('error', { ...from, field: '/after' });
      }
    } catch (error) {
      this.log.error({ err: error }, 'event stream replay failed');
      this.close(STREAM_CLOSE.internal, 'internal error: the missed changes could not be read; reconnect to resume');
      return;
    }
    this.#seam.end();
  }

  /** The number of the change a resume continues after, or the error that refuses it. */
  async #startOf(after: string): Promise<number | ResumeRefusal> {
    let seq = cursorSeq(after);
    if (seq === null) {
      const latest = await this.#server.store.latestChange(this.owner!, after);
      if (latest === null) return { code: 'unknown_event', message: `No event ${after} for your organisation: nothing is replayed; list /v3/events to catch up.` };
      if (latest === 'unlogged') return { code: 'resume_too_old', message: `No change of event ${after} is in the change log (it last changed before the log began): nothing is replayed; list /v3/events to catch up.` };
      seq = latest.seq;
    }
    return (await this.#prunedAfter(seq)) ?? seq;
  }

  /** The refusal of a resume after change `seq` when retention has taken a later change of the organisation's out of the log. */
  async #prunedAfter(seq: number): Promise<ResumeRefusal | null> {
    if (seq >= await this.#server.store.logHorizon(this.owner!)) return null;
    return { code: 'resume_too_old', message: 'Events cleared since this point are past the retention and no longer kept: nothing more is replayed; list /v3/events to catch up.' };
  }
}

type ResumeRefusal = { code: 'unknown_event' | 'resume_too_old'; message: string };

class EventStreamServer {
  readonly store: EventStore;
  readonly endpoint: StreamEndpoint<EventSession>;
  readonly #byOwner = new Map<string, Set<EventSession>>();
  readonly #feed: FeedFrames;

  constructor(options: EventStreamOptions) {
    this.store = options.store;
    this.#feed = options.feed;
    this.endpoint = new StreamEndpoint<EventSession>({
      app: options.app,
      path: EVENT_STREAM_PATH,
      heartbeatSec: options.heartbeatSec,
      messages: EVENT_STREAM_MESSAGES,
      session: (endpoint, ws, _socket, request) => new EventSession(this, endpoint, ws, request),
    });
  }

  join(session: EventSession): void {
    const sessions = this.#byOwner.get(session.owner!) ?? new Set();
    sessions.add(session);
    this.#byOwner.set(session.owner!, sessions);
    this.#feed.streamOpened(session.owner!);
  }

  leave(session: EventSession): void {
    if (session.owner === null) return;
    const sessions = this.#byOwner.get(session.owner);
    sessions?.delete(session);
    if (sessions?.size === 0) this.#byOwner.delete(session.owner);
  }

  /** Only the streams of the change's organisation hear of it. */
  publish(change: EventChange): void {
    for (const session of this.#byOwner.get(change.org_id) ?? []) session.deliver(change);
  }

  sendFeed(owner: string, entry: FleetFeedEntry): void {
    for (const session of this.#byOwner.get(owner) ?? []) session.feed(entry);
  }

  listening(owner: string): boolean {
    return this.#byOwner.has(owner);
  }
}

/** Serves the stream (and describes it in the AsyncAPI document) on the app; call before it listens. */
export async function startEventStream(options: EventStreamOptions): Promise<{ close(): Promise<void> }> {
  const server = new EventStreamServer(options);
  options.feed.attachStreams({ send: (owner, entry) => server.sendFeed(owner, entry), listening: (owner) => server.listening(owner) });
  registerAsyncApi(options.app, { publicUrl: options.publicUrl, channels: [eventStreamChannel(options.heartbeatSec)] });
  const unsubscribe = await options.bus.subscribe(eventChanges, (change) => server.publish(change));
  return {
    async close() {
      await unsubscribe();
      await server.endpoint.close();
    },
  };
}
