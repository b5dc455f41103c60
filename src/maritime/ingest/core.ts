// AIS ingest, on a thread of its own (worker.ts) or in the serving thread (link.ts, one core): the
// feeds, decoding, the authoritative vessel store and the track recorder. What it tells the serving
// thread goes in compact change batches (vessels/changes.ts), one batch in flight at a time: the
// serving thread acknowledges a batch once it has applied it, and until then changes wait here; the
// next batch takes all that waited (up to MAX_BATCH_ROWS). When more than a full batch waits, the
// serving thread is behind and positions coalesce per vessel (the latest wins): nothing queues up
// there, and what waits here is bounded by the fleet.
//
// Feed lines queue here and are decoded in slices of SLICE_LINES, a turn of the event loop each, so
// a large read never holds the thread. Past HIGH_WATER_LINES queued, TCP feeds pause their sockets
// (the sender waits) until the queue is back under LOW_WATER_LINES; feeds that cannot wait (UDP, a
// WebSocket, the simulator) have their lines shed, and counted, past SHED_LINES.
import type { AisMessage } from '../ais/index.ts';
import { AIS_REJECT_REASONS, type AisPipelineCounts } from '../ais/index.ts';
import type { Database } from '../../platform/db/database.ts';
import { createFeed, type Feed, type FeedLogLevel, type FeedSink, type FeedSpec, type FeedStatus } from '../feeds/index.ts';
import { createSimulatorFeed } from '../feeds/simulator/feed.ts';
import { PendingChanges, ROW_WIDTH, type ChangeBatch } from '../vessels/changes.ts';
import { AisIngest, type FeedCounts } from '../vessels/ingest.ts';
import { VesselRecorder, type RecorderStats } from '../vessels/recorder.ts';
import { VesselRepository } from '../vessels/repository.ts';
import { VesselStore, type FeedSource } from '../vessels/store.ts';

const SLICE_LINES = 1_000;
// Small: a line's latency counts from when it was read, and the TCP window holds the rest.
const HIGH_WATER_LINES = 4_000;
const LOW_WATER_LINES = 1_000;
const SHED_LINES = 200_000;
/**
 * Rows in one batch at most. A batch takes what waits, so when the serving thread is slower the
 * batches grow and each round trip carries more: the hop keeps up with the feed instead of
 * queueing behind a fixed batch size.
 */
const MAX_BATCH_ROWS = 5_000;
/** Rows waiting past which the serving thread counts as behind and positions coalesce. */
const COALESCE_AFTER_ROWS = MAX_BATCH_ROWS;
/** How often the status rides along with a batch, or goes on its own when nothing changes. */
const STATUS_MS = 250;
const HOUSEKEEPING_MS = 10_000;

/** What the ingest thread is set up from: plain data, so it crosses to a worker. */
export interface IngestSettings {
  feeds: FeedSpec[];
  aisstreamApiKey: string | undefined;
  /** Vessels the simulator sails, or null when it does not run. */
  simulatorVessels: number | null;
  staleAfterMs: number;
  trackRetentionMs: number;
}

/** The ingest side's own figures. */
export interface IngestCounters {
  /** Vessel changes the store made. */
  changes: number;
  /** Position changes merged into one still waiting for the serving thread (the earlier never sent on). */
  coalesced: number;
  /** Lines dropped because the queue was past its bound and the feed could not wait. */
  shed_lines: number;
  /** Lines queued for decoding now. */
  backlog_lines: number;
  /** Batches sent to the serving thread, and the vessel rows in them. */
  batches: number;
  rows: number;
}

export interface IngestStatus {
  feeds: FeedStatus[];
  pipelines: FeedCounts[];
  recorder: RecorderStats;
  ingest: IngestCounters;
}

export interface UploadCounts {
  lines: number;
  accepted: number;
  pending: number;
  messages: number;
  rejected: Record<string, number>;
}

export type IngestCommand =
  | { kind: 'ack' }
  | { kind: 'start'; id: number; which: 'configured' | 'simulator' }
  | { kind: 'upload'; id: number; body: string; sender: string }
  | { kind: 'flush'; id: number }
  | { kind: 'stop'; id: number };

export type IngestEvent =
  | ({ kind: 'batch'; replies: { id: number; value: unknown }[]; status: IngestStatus | null } & ChangeBatch)
  | { kind: 'status'; status: IngestStatus }
  | { kind: 'reply'; id: number; value?: unknown; error?: string }
  | { kind: 'log'; level: FeedLogLevel; message: string; detail: Record<string, unknown> };

interface Queued {
  feed: string;
  source: FeedSource;
  lines: string[] | null;
  messages: AisMessage[] | null;
  receivedAt: number;
  sender: string;
  /** Lines of `lines` already decoded. */
  offset: number;
  upload: { id: number; before: AisPipelineCounts | null } | null;
}

function snapshot(counts: AisPipelineCounts): AisPipelineCounts {
  return { ...counts, rejected: { ...counts.rejected }, messagesByType: {} };
}

export class IngestCore {
  readonly #store = new VesselStore();
  readonly #ingest = new AisIngest(this.#store);
  readonly #pending = new PendingChanges(COALESCE_AFTER_ROWS);
  readonly #recorder: VesselRecorder;
  readonly #repository: VesselRepository;
  readonly #settings: IngestSettings;
  readonly #emit: (event: IngestEvent) => void;
  readonly #feeds: Feed[] = [];
  #simulator: Feed | null = null;
  readonly #queue: Queued[] = [];
  #queuedLines = 0;
  #draining = false;
  #sending = false;
  #inFlight = false;
  #resume: { promise: Promise<void>; resolve: () => void } | null = null;
  /** Upload answers, each waiting until the vessel entries pending when it was decoded have been sent. */
  #replies: { id: number; value: unknown; before: number }[] = [];
  #lastStatus = 0;
  /** False while an upload is decoded: an uploaded track reaches port calls point by point. */
  #coalescing = true;
  readonly #counters = { changes: 0, shed_lines: 0, batches: 0, rows: 0 };
  readonly #timers: NodeJS.Timeout[] = [];

  private constructor(database: Database, settings: IngestSettings, emit: (event: IngestEvent) => void) {
    this.#settings = settings;
    this.#emit = emit;
    this.#repository = new VesselRepository(database);
    this.#recorder = new VesselRecorder({
      repository: this.#repository,
      retentionMs: settings.trackRetentionMs,
      onError: (error, during) => this.#log('error', 'vessel recording failed; the batch is kept for the next try', { err: error.message, during }),
    });
    this.#ingest.onChange((change) => {
      this.#counters.changes++;
      this.#recorder.record(change);
      this.#pending.add(change, this.#coalescing);
    });
  }

  /** Restores vessel state from storage and builds the feeds; nothing runs until `start`. */
  static async open(database: Database, settings: IngestSettings, emit: (event: IngestEvent) => void): Promise<IngestCore> {
    const core = new IngestCore(database, settings, emit);
    const restored = await core.#repository.loadVessels();
    const freshAfter = Date.now() - settings.staleAfterMs;
    for (const vessel of restored) core.#store.restore(vessel, freshAfter);
    const onLog = (level: FeedLogLevel, message: string, detail: Record<string, unknown>) => core.#log(level, message, detail);
    for (const spec of settings.feeds) core.#feeds.push(createFeed(spec, { aisstreamApiKey: settings.aisstreamApiKey, onLog }));
    if (settings.simulatorVessels !== null) core.#simulator = createSimulatorFeed({ vessels: settings.simulatorVessels, onLog });
    return core;
  }

  command(command: IngestCommand): void {
    switch (command.kind) {
      case 'ack':
        this.#inFlight = false;
        this.#sendSoon();
        return;
      case 'start':
        this.#answer(command.id, command.which === 'configured' ? this.#startConfigured() : this.#startSimulator());
        return;
      case 'upload':
        this.#upload(command.id, command.body, command.sender);
        return;
      case 'flush':
        this.#answer(command.id, this.#recorder.flush());
        return;
      case 'stop':
        this.#answer(command.id, this.stop());
    }
  }

  status(): IngestStatus {
    const feeds = [...this.#feeds, ...(this.#simulator ? [this.#simulator] : [])];
    return {
      feeds: feeds.map((feed) => feed.status()),
      pipelines: this.#ingest.counts(),
      recorder: this.#recorder.stats(),
      ingest: { ...this.#counters, coalesced: this.#pending.coalesced, backlog_lines: this.#queuedLines },
    };
  }

  async #startConfigured(): Promise<void> {
    this.#recorder.start();
    const housekeeping = setInterval(() => {
      const now = Date.now();
      this.#ingest.expire(now);
      this.#store.expire(now - this.#settings.staleAfterMs);
    }, HOUSEKEEPING_MS).unref();
    // The status goes out on its own when no batch carried it lately (a quiet feed, a feed gone stale).
    const status = setInterval(() => {
      if (Date.now() - this.#lastStatus >= STATUS_MS) this.#emitStatus();
    }, STATUS_MS).unref();
    this.#timers.push(housekeeping, status);
    for (const feed of this.#feeds) {
      await feed.start(this.#sink(feed));
      this.#log('info', 'AIS feed started', { feed: feed.id, source: feed.source });
    }
  }

  async #startSimulator(): Promise<void> {
    const simulator = this.#simulator;
    if (!simulator) return;
    await simulator.start(this.#sink(simulator));
    this.#log('info', 'AIS feed started', { feed: simulator.id, source: simulator.source });
  }

  /** Stops the feeds and timers and writes what the recorder holds. */
  async stop(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    await Promise.all([...this.#feeds, ...(this.#simulator ? [this.#simulator] : [])].map((feed) => feed.stop()));
    await this.#recorder.close();
  }

  #sink(feed: Feed): FeedSink {
    return {
      lines: (lines, receivedAt) => this.#enqueue({ feed: feed.id, source: feed.source, lines, messages: null, receivedAt, sender: '', offset: 0, upload: null }, lines.length),
      messages: (messages, receivedAt) => this.#enqueue({ feed: feed.id, source: feed.source, lines: null, messages, receivedAt, sender: '', offset: 0, upload: null }, messages.length),
      backlog: () => this.#resume?.promise ?? null,
    };
  }

  #upload(id: number, body: string, sender: string): void {
    const lines = body.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
    this.#enqueue({ feed: 'upload', source: 'upload', lines, messages: null, receivedAt: Date.now(), sender, offset: 0, upload: { id, before: null } }, lines.length, true);
  }

  #enqueue(item: Queued, count: number, mustKeep = false): void {
    if (!mustKeep && this.#queuedLines >= SHED_LINES) {
      this.#counters.shed_lines += count;
      return;
    }
    this.#queue.push(item);
    this.#queuedLines += count;
    if (this.#queuedLines >= HIGH_WATER_LINES && !this.#resume) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#resume = { promise, resolve };
    }
    if (!this.#draining) {
      this.#draining = true;
      setImmediate(this.#drain);
    }
  }

  /** Decodes up to SLICE_LINES queued lines, then gives the event loop a turn. */
  readonly #drain = (): void => {
    let budget = SLICE_LINES;
    while (budget > 0 && this.#queue.length > 0) {
      const item = this.#queue[0]!;
      if (item.upload && item.upload.before === null) item.upload.before = snapshot(this.#ingest.feedCounts('upload', 'upload'));
      this.#coalescing = item.upload === null;
      let taken: number;
      if (item.messages) {
        taken = item.messages.length;
        this.#ingest.messages(item.feed, item.source, item.messages, item.receivedAt);
        item.offset = taken;
      } else {
        const lines = item.lines!;
        const end = Math.min(lines.length, item.offset + budget);
        taken = end - item.offset;
        this.#ingest.lines(item.feed, item.source, item.offset === 0 && end === lines.length ? lines : lines.slice(item.offset, end), item.receivedAt, item.sender);
        item.offset = end;
      }
      budget -= taken;
      this.#queuedLines -= taken;
      if (item.offset < (item.lines ?? item.messages!).length) continue;
      this.#queue.shift();
      if (item.upload) this.#replies.push({ id: item.upload.id, value: this.#uploadCounts(item.upload.before!), before: this.#pending.size });
    }
    if (this.#resume && this.#queuedLines <= LOW_WATER_LINES) {
      this.#resume.resolve();
      this.#resume = null;
    }
    this.#sendSoon();
    if (this.#queue.length > 0) setImmediate(this.#drain);
    else this.#draining = false;
  };

  #uploadCounts(before: AisPipelineCounts): UploadCounts {
    const after = this.#ingest.feedCounts('upload', 'upload');
    return {
      lines: after.lines - before.lines,
      accepted: after.accepted - before.accepted,
      pending: after.pending - before.pending,
      messages: after.messages - before.messages,
      rejected: Object.fromEntries(AIS_REJECT_REASONS.map((reason) => [reason, after.rejected[reason] - before.rejected[reason]])),
    };
  }

  #sendSoon(): void {
    if (this.#sending || this.#inFlight) return;
    this.#sending = true;
    setImmediate(this.#send);
  }

  readonly #send = (): void => {
    this.#sending = false;
    if (this.#inFlight || (this.#pending.size === 0 && this.#replies.length === 0)) return;
    const batch = this.#pending.take(MAX_BATCH_ROWS);
    const sent = batch.rows.length / ROW_WIDTH;
    const replies: { id: number; value: unknown }[] = [];
    this.#replies = this.#replies.filter((reply) => {
      reply.before -= sent;
      if (reply.before > 0) return true;
      replies.push({ id: reply.id, value: reply.value });
      return false;
    });
    this.#counters.batches++;
    this.#counters.rows += sent;
    const now = Date.now();
    const status = replies.length > 0 || now - this.#lastStatus >= STATUS_MS ? this.status() : null;
    if (status) this.#lastStatus = now;
    this.#inFlight = true;
    this.#emit({ kind: 'batch', rows: batch.rows, statics: batch.statics, replies, status });
  };

  #emitStatus(): void {
    this.#lastStatus = Date.now();
    this.#emit({ kind: 'status', status: this.status() });
  }

  #answer(id: number, work: Promise<unknown>): void {
    work.then(
      (value) => this.#emit({ kind: 'reply', id, value }),
      (error: unknown) => this.#emit({ kind: 'reply', id, error: error instanceof Error ? error.message : String(error) }),
    );
  }

  #log(level: FeedLogLevel, message: string, detail: Record<string, unknown>): void {
    this.#emit({ kind: 'log', level, message, detail });
  }
}
