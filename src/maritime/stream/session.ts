// An AIS stream's session and what the sessions of one process share: the fan-out, the regions
// their boxes touch, their counts. The same code serves streams on the serving thread and in the
// stream processes (processes.ts); only the session host and how regions are watched differ.
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { Parts } from '../../platform/bus/index.ts';
import { StreamSession, type Admitted, type SessionHost } from '../../platform/stream/session.ts';
import { FrameWriter } from '../../platform/stream/wire.ts';
import { RegionInterest } from '../regions.ts';
import type { Change } from '../vessels/store.ts';
import { Fanout } from './fanout.ts';
import { emptyStats, Outbox, type StreamStats } from './outbox.ts';
import { CLOSE, LIMITS, normaliseSubscription, readClientMessage, wireFrame } from './protocol.ts';
import type { Filter, ReadyInfo, SubscribeMessage } from './stream.schemas.ts';

/** How often the outboxes' pacing lets through positions whose interval has run. */
export const PACING_TICK_MS = 100;
/** A stream's waiting frames are written together (platform/stream/wire.ts), up to this many bytes at once. */
const FLUSH_BYTES = 16 * 1024;

export interface StreamBounds {
  /** Per stream: bytes waiting past which only the latest update per vessel is kept. */
  softLimitBytes: number;
  /** Per stream: bytes waiting which, sustained for `slowCloseMs`, close it with 4503. */
  hardLimitBytes: number;
  slowCloseMs: number;
}

/** The figures /metrics shows of the AIS streams, summed over the processes that serve them. */
export interface StreamFigures {
  open: number;
  authenticating: number;
  stats: StreamStats;
  /** Closes by code. */
  closes: Map<number, number>;
  waitingBytes: number;
  waitingBytesMax: number;
}

export class AisSession extends StreamSession {
  readonly #sessions: AisSessions;
  outbox: Outbox | null = null;
  /** Every frame of the stream goes through it, so they leave in the order they were made. */
  readonly #writer: FrameWriter;

  constructor(sessions: AisSessions, host: SessionHost, ws: WebSocket, socket: Duplex, log: FastifyBaseLogger) {
    super(host, ws, log);
    this.#sessions = sessions;
    this.#writer = new FrameWriter(ws, socket, FLUSH_BYTES);
    // Held frames go out as soon as the socket has sent what it had.
    socket.on('drain', () => this.outbox?.drain());
  }

  send(event: 'ready' | 'subscribed' | 'error' | 'heartbeat', data: unknown): void {
    this.#writer.write(wireFrame(event, data));
    this.#writer.flush();
    this.#sessions.stats.frames[event]++;
  }

  /** Bytes waiting to be sent: unsent in the socket plus held for a slow consumer. */
  get waitingBytes(): number {
    return this.outbox?.waitingBytes ?? this.ws.bufferedAmount;
  }

  protected override stopped(): void {
    if (this.outbox) this.#sessions.unsubscribe(this);
    // Before the close frame, while the socket is still open; dropped once it is gone.
    this.#writer.flush();
  }

  protected opened(admitted: Admitted): void {
    const sessions = this.#sessions;
    const bounds = sessions.bounds;
    this.outbox = new Outbox({
      ...bounds,
      intervalMs: LIMITS.defaultUpdateIntervalSec * 1000,
      write: (frame) => this.#writer.write(frame),
      buffered: () => this.#writer.bufferedAmount,
      onSlow: () => this.close(CLOSE.slowConsumer, `slow consumer: over ${Math.round(bounds.hardLimitBytes / 1024)} KiB waited for ${bounds.slowCloseMs / 1000} s`),
      onDue: () => sessions.due(this.outbox!),
      stats: sessions.stats,
    });
    sessions.opened(this);
    const { principal, admission } = admitted;
    const ready: ReadyInfo = {
      organisation: principal.organisation_id,
      plan: admission.plan?.name ?? null,
      max_streams: admission.plan?.maxConcurrentStreams ?? null,
      limits: {
        min_update_interval_sec: LIMITS.minUpdateIntervalSec,
        default_update_interval_sec: LIMITS.defaultUpdateIntervalSec,
        max_update_interval_sec: LIMITS.maxUpdateIntervalSec,
        max_bboxes: LIMITS.maxBoxes,
        max_list_items: LIMITS.maxListItems,
      },
      heartbeat_interval_sec: this.host.heartbeatSec,
    };
    this.send('ready', ready);
    this.log.info({ organisation: principal.organisation_id, key_id: principal.key_id, plan: ready.plan }, 'stream opened');
  }

  protected handle(data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.protocolError({ code: 'binary_frame', message: 'Messages are JSON text frames, not binary.' });
      return;
    }
    const message = readClientMessage(data.toString(), this.host.messages);
    if ('error' in message) {
      if (message.protocol) this.protocolError(message.error);
      else this.send('error', message.error);
      return;
    }
    switch (message.type) {
      case 'subscribe':
        this.#subscribe(message.message);
        return;
      case 'auth':
        this.send('error', { code: 'already_authenticated', message: 'This stream is already authenticated; its key cannot change.' });
        return;
      case 'heartbeat':
    }
  }

  #subscribe(message: SubscribeMessage): void {
    const result = normaliseSubscription(message);
    if (!result.ok) {
      this.send('error', result.error);
      return;
    }
    // `subscribed` once the changes of the filter's regions are delivered: what is ingested after it arrives.
    void this.#sessions.regionsFor(this, result.filter).then(() => {
      if (this.state !== 'open') return;
      this.send('subscribed', result.filter);
      this.#sessions.fanout.subscribe(this.outbox!, result.filter);
    });
  }
}

/** The AIS sessions of one process: the changes they are given, their pacing, the regions they need. */
export class AisSessions {
  readonly fanout = new Fanout();
  readonly stats = emptyStats();
  readonly bounds: StreamBounds;
  /** Admitted sessions. */
  readonly #open = new Set<AisSession>();
  /** The outboxes the tick paces: those with something waiting. */
  readonly #due = new Set<Outbox>();
  readonly #regions = new RegionInterest<AisSession>();
  readonly #watchParts: (parts: Parts) => Promise<void>;
  #watching: Promise<void> = Promise.resolve();
  #watchDue = false;

  /** `watch`: from now on deliver the changes of these regions; resolves once they are delivered. */
  constructor(bounds: StreamBounds, watch: (parts: Parts) => Promise<void>) {
    this.bounds = { ...bounds, hardLimitBytes: Math.max(bounds.softLimitBytes, bounds.hardLimitBytes) };
    this.#watchParts = watch;
  }

  publish(change: Change): void {
    this.fanout.publish(change);
  }

  opened(session: AisSession): void {
    this.#open.add(session);
  }

  /** Resolves once the changes of the regions the filter needs are delivered (at once when they are taken already). */
  regionsFor(session: AisSession, filter: Filter): Promise<void> {
    if (this.#regions.set(session, filter.bboxes)) this.#watch(session.log);
    return this.#watching;
  }

  due(outbox: Outbox): void {
    this.#due.add(outbox);
  }

  unsubscribe(session: AisSession): void {
    this.#open.delete(session);
    this.#due.delete(session.outbox!);
    this.fanout.unsubscribe(session.outbox!);
    if (this.#regions.delete(session)) this.#watch(session.log);
  }

  /** The regions are watched once per burst of subscriptions, the latest ones. */
  #watch(log: FastifyBaseLogger): void {
    if (this.#watchDue) return;
    this.#watchDue = true;
    this.#watching = this.#watching.then(async () => {
      this.#watchDue = false;
      await this.#watchParts(this.#regions.parts());
    }).catch((error: unknown) => log.error({ err: error }, 'the regions of the AIS streams could not be changed'));
  }

  /** Once the last change of regions asked for is done. */
  settled(): Promise<void> {
    return this.#watching;
  }

  tick(): void {
    const now = this.fanout.now();
    for (const outbox of this.#due) {
      outbox.tick(now);
      if (!outbox.due) this.#due.delete(outbox);
    }
  }

  /** The figures of these sessions, `all` counting those still authenticating. */
  figures(all: ReadonlySet<AisSession>, closes: Map<number, number>): StreamFigures {
    let waitingBytes = 0;
    let waitingBytesMax = 0;
    for (const session of all) {
      const waiting = session.waitingBytes;
      waitingBytes += waiting;
      waitingBytesMax = Math.max(waitingBytesMax, waiting);
    }
    return { open: this.#open.size, authenticating: all.size - this.#open.size, stats: this.stats, closes, waitingBytes, waitingBytesMax };
  }
}
