/**
 * Writes the live store's changes to storage in batches.
 *
 * Vessel state: every change marks its vessel; a flush writes each marked vessel once, as it is
 * at that moment, so a vessel that reported twenty times since the last flush costs one row write.
 * The timer's flushes write a vessel's row at most every `vesselIntervalMs` (30 s), and at most
 * `maxVesselRows` (1,000) rows at a time, those waiting longest first; a vessel not written yet and
 * one whose static data changed are due at once. The row is what a restart restores, so it is at
 * most that much behind, while the live state stays current: a busy feed costs a row write per
 * vessel per 30 s instead of one per report. `flush()` and `close()` write every marked vessel.
 *
 * Track thinning. A position report becomes a track point when, compared with the last point kept
 * for that vessel:
 *   - there is none (the vessel's first report since the recorder started), or
 *   - it is at least `minTrackGapMs` (10 s) newer, and one of:
 *     - the vessel is moving (SOG at least `stationarySpeedKn`, 0.5 kn, or unknown) and
 *       `trackIntervalMs` (30 s) have passed;
 *     - the vessel is stationary (SOG below 0.5 kn) and `stationaryIntervalMs` (10 min) have
 *       passed;
 *     - the navigation status changed, or the vessel started or stopped moving;
 *     - moving before and now, its course over ground turned by more than `courseChangeDeg` (15°).
 * Times are the reports' own, so replayed data thins the same way. A report not newer than the
 * last kept point (a duplicate from a second receiver, or out of order) is never kept. So a vessel
 * adds at most 6 points a minute while turning, 2 a minute under way and 6 an hour at rest.
 *
 * Flushing: every `flushIntervalMs` (1 s), or at once when `maxBatch` (1,000) points are waiting;
 * one flush at a time, its rows WRITE_CHUNK to a transaction. A failed flush keeps its batch and
 * retries it on the next flush. Waiting state is bounded: one vessel entry per MMSI, and at most
 * `maxPendingPoints` (100,000) track points, counting a batch being written; points beyond that
 * are dropped and counted.
 *
 * Retention: at start and every `pruneIntervalMs` (1 h), track points older than `retentionMs`
 * (72 h) are deleted. Timers run from `start()` (unref'd); `close()` stops them and flushes the rest.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { timeOf } from '../../platform/iso-time.ts';
import type { Change, Vessel } from './store.ts';
import { trackPointOf, type TrackPoint, type VesselRepository } from './repository.ts';

/** What the recorder needs of storage (VesselRepository provides it). */
export type RecorderStorage = Pick<VesselRepository, 'saveVessels' | 'appendPositions' | 'pruneTrack'>;

/** Numeric settings left out take RECORDER_DEFAULTS (described at the top of this file). */
export interface VesselRecorderOptions {
  repository: RecorderStorage;
  flushIntervalMs?: number;
  /** The timer's flushes rewrite a vessel's row at most this often (new vessels and static changes at once). */
  vesselIntervalMs?: number;
  /** Vessel rows one flush of the timer writes at most. */
  maxVesselRows?: number;
  /** Flush at once when this many track points are waiting. */
  maxBatch?: number;
  /** Most track points held waiting (including a batch being written); beyond it they are dropped. */
  maxPendingPoints?: number;
  trackIntervalMs?: number;
  stationaryIntervalMs?: number;
  minTrackGapMs?: number;
  courseChangeDeg?: number;
  stationarySpeedKn?: number;
  retentionMs?: number;
  pruneIntervalMs?: number;
  /** The clock, in milliseconds (tests set it). */
  now?: () => number;
  /** Told of every failed flush or prune (the recorder itself never throws them). */
  onError?: (error: Error, during: 'flush' | 'prune') => void;
}

export interface RecorderStats {
  /** Vessels whose rows wait to be written, including a batch being written. */
  pending_vessels: number;
  /** Track points waiting to be written, including a batch being written. */
  pending_points: number;
  written_vessels: number;
  written_points: number;
  /** Position reports the thinning rule did not keep as track points. */
  thinned_points: number;
  /** Track points dropped because the buffer was full or the recorder closed. */
  dropped_points: number;
  pruned_points: number;
  failed_flushes: number;
  /** Failed flushes since the last one that succeeded: above 0 while storage is failing. */
  consecutive_failures: number;
  last_error: string | null;
  last_error_at: string | null;
  /** When a flush last wrote something successfully. */
  last_flush_at: string | null;
  last_prune_at: string | null;
}

interface Kept {
  /** The kept point's time, Unix ms. */
  time: number;
  cog: number | null;
  nav_status: number | null;
  moving: boolean;
  /** Clock time of the vessel's latest report, for forgetting vessels gone quiet. */
  seen: number;
}

/**
 * Rows written in one transaction. On SQLite a write holds the thread, so a flush writes its rows
 * a chunk at a time, a turn of the event loop between them: the thread's other work (decoding,
 * change batches) waits for one chunk at most. 50 vessel rows take 2 to 3 ms of it (about half
 * in the kernel, writing the WAL); 250 took 8 to 14 ms, the largest part of the ingest hop's tail.
 */
const WRITE_CHUNK = 50;

export const RECORDER_DEFAULTS = {
  flushIntervalMs: 1_000,
  vesselIntervalMs: 30_000,
  maxVesselRows: 1_000,
  maxBatch: 1_000,
  maxPendingPoints: 100_000,
  trackIntervalMs: 30_000,
  stationaryIntervalMs: 600_000,
  minTrackGapMs: 10_000,
  courseChangeDeg: 15,
  stationarySpeedKn: 0.5,
  retentionMs: 72 * 3_600_000,
  pruneIntervalMs: 3_600_000,
} as const;

function courseDelta(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

export class VesselRecorder {
  readonly #repository: RecorderStorage;
  readonly #options: typeof RECORDER_DEFAULTS;
  readonly #now: () => number;
  readonly #onError: VesselRecorderOptions['onError'];

  /** Vessels whose rows wait, in the order they were first marked since their last write. */
  #vessels = new Map<number, Vessel>();
  /** Vessels whose static data changed since their row was written: due at once. */
  readonly #staticChanged = new Set<number>();
  /** When each vessel's row was last written (the recorder's clock). */
  readonly #rowWritten = new Map<number, number>();
  #points: TrackPoint[] = [];
  readonly #kept = new Map<number, Kept>();
  #inFlightVessels = 0;
  #inFlightPoints = 0;

  #flushing: Promise<void> | null = null;
  #pruning: Promise<void> | null = null;
  #flushTimer: NodeJS.Timeout | null = null;
  #pruneTimer: NodeJS.Timeout | null = null;
  #closed = false;

  #writtenVessels = 0;
  #writtenPoints = 0;
  #thinned = 0;
  #dropped = 0;
  #pruned = 0;
  #failed = 0;
  #consecutiveFailures = 0;
  #lastError: string | null = null;
  #lastErrorAt: number | null = null;
  #lastFlushAt: number | null = null;
  #lastPruneAt: number | null = null;

  constructor(options: VesselRecorderOptions) {
    this.#repository = options.repository;
    const settings: Record<string, number> = { ...RECORDER_DEFAULTS };
    for (const key of Object.keys(RECORDER_DEFAULTS) as (keyof typeof RECORDER_DEFAULTS)[]) {
      const value = options[key];
      if (value === undefined) continue;
      if (!(value > 0)) throw new RangeError(`${key} must be a positive number, got ${value}`);
      settings[key] = value;
    }
    this.#options = settings as typeof RECORDER_DEFAULTS;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError;
  }

  /** Starts the flush and retention timers (unref'd) and prunes once now. */
  start(): void {
    if (this.#closed || this.#flushTimer) return;
    this.#flushTimer = setInterval(() => {
      if (!this.#flushing) void this.#flush('due');
    }, this.#options.flushIntervalMs).unref();
    this.#pruneTimer = setInterval(() => void this.prune(), this.#options.pruneIntervalMs).unref();
    void this.prune();
  }

  /** Takes one change from the live store; never throws for storage problems. */
  record(change: Change): void {
    const { vessel } = change;
    if (this.#closed) {
      if (change.position) this.#dropped++;
      return;
    }
    this.#vessels.set(vessel.mmsi, vessel);
    if (change.static) this.#staticChanged.add(vessel.mmsi);
    if (!change.position || !vessel.position) return;
    const kept = this.#keep(vessel);
    if (!kept) {
      this.#thinned++;
      return;
    }
    if (this.#points.length + this.#inFlightPoints >= this.#options.maxPendingPoints) {
      // Not kept after all: the vessel's next report is compared with the last point stored.
      this.#dropped++;
      return;
    }
    this.#kept.set(vessel.mmsi, kept);
    this.#points.push(trackPointOf(vessel.mmsi, vessel.position, vessel.source));
    // While storage fails, retries wait for the timer instead of following every report.
    if (this.#points.length >= this.#options.maxBatch && !this.#flushing && this.#consecutiveFailures === 0) void this.#flush('due');
  }

  /** Writes everything waiting, every marked vessel included; waits for a flush under way first. Never rejects. */
  flush(): Promise<void> {
    return this.#flush('all');
  }

  async #flush(vessels: 'all' | 'due'): Promise<void> {
    while (this.#flushing) await this.#flushing;
    this.#flushing = this.#write(vessels).finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  /** Deletes track points older than the retention period (one prune at a time). Never rejects. */
  prune(): Promise<void> {
    this.#pruning ??= this.#prune().finally(() => {
      this.#pruning = null;
    });
    return this.#pruning;
  }

  /** Stops the timers, lets a prune under way finish, and flushes what remains. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#flushTimer) clearInterval(this.#flushTimer);
    if (this.#pruneTimer) clearInterval(this.#pruneTimer);
    this.#flushTimer = this.#pruneTimer = null;
    await this.#pruning;
    await this.flush();
  }

  stats(): RecorderStats {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      pending_vessels: this.#vessels.size + this.#inFlightVessels,
      pending_points: this.#points.length + this.#inFlightPoints,
      written_vessels: this.#writtenVessels,
      written_points: this.#writtenPoints,
      thinned_points: this.#thinned,
      dropped_points: this.#dropped,
      pruned_points: this.#pruned,
      failed_flushes: this.#failed,
      consecutive_failures: this.#consecutiveFailures,
      last_error: this.#lastError,
      last_error_at: iso(this.#lastErrorAt),
      last_flush_at: iso(this.#lastFlushAt),
      last_prune_at: iso(this.#lastPruneAt),
    };
  }

  /** The thinning rule (see the top of this file): the vessel's new last kept point, or null. */
  #keep(vessel: Vessel): Kept | null {
    const position = vessel.position!;
    const o = this.#options;
    const time = timeOf(position.timestamp);
    const moving = position.sog === null || position.sog >= o.stationarySpeedKn;
    const last = this.#kept.get(vessel.mmsi);
    const now = this.#now();
    if (last) last.seen = now;
    let keep: boolean;
    if (!last) keep = true;
    else {
      const gap = time - last.time;
      keep = gap >= o.minTrackGapMs && (
        gap >= (moving ? o.trackIntervalMs : o.stationaryIntervalMs) ||
        position.nav_status !== last.nav_status ||
        moving !== last.moving ||
        (moving && last.moving && position.cog !== null && last.cog !== null && courseDelta(position.cog, last.cog) > o.courseChangeDeg)
      );
    }
    return keep ? { time, cog: position.cog, nav_status: position.nav_status, moving, seen: now } : null;
  }

  /** The marked vessels to write now, taken off the waiting list. */
  #take(which: 'all' | 'due'): Vessel[] {
    if (which === 'all') {
      const vessels = [...this.#vessels.values()];
      this.#vessels = new Map();
      return vessels;
    }
    const vessels: Vessel[] = [];
    const dueBefore = this.#now() - this.#options.vesselIntervalMs;
    for (const [mmsi, vessel] of this.#vessels) {
      if (vessels.length >= this.#options.maxVesselRows) break;
      const written = this.#rowWritten.get(mmsi);
      if (written !== undefined && written > dueBefore && !this.#staticChanged.has(mmsi)) continue;
      vessels.push(vessel);
      this.#vessels.delete(mmsi);
    }
    return vessels;
  }

  async #write(which: 'all' | 'due'): Promise<void> {
    const vessels = this.#take(which);
    const points = this.#points;
    if (vessels.length === 0 && points.length === 0) return;
    this.#points = [];
    this.#inFlightVessels = vessels.length;
    this.#inFlightPoints = points.length;
    let vesselsSaved = 0;
    try {
      for (let from = 0; from < vessels.length; from += WRITE_CHUNK) {
        if (from > 0) await nextTurn();
        const chunk = vessels.slice(from, from + WRITE_CHUNK);
        await this.#repository.saveVessels(chunk);
        vesselsSaved += chunk.length;
        const now = this.#now();
        for (const { mmsi } of chunk) {
          this.#rowWritten.set(mmsi, now);
          this.#staticChanged.delete(mmsi);
        }
      }
      // A point stored already is skipped, so after a failure the whole batch can be tried again.
      for (let from = 0; from < points.length; from += WRITE_CHUNK) {
        if (from > 0 || vessels.length > 0) await nextTurn();
        await this.#repository.appendPositions(points.slice(from, from + WRITE_CHUNK));
      }
      this.#writtenVessels += vessels.length;
      this.#writtenPoints += points.length;
      this.#consecutiveFailures = 0;
      this.#lastFlushAt = this.#now();
    } catch (error) {
      // Put back what was not written. A vessel marked again since is already waiting, as the
      // same object; one saved already need not be written again.
      this.#writtenVessels += vesselsSaved;
      for (const v of vessels.slice(vesselsSaved)) if (!this.#vessels.has(v.mmsi)) this.#vessels.set(v.mmsi, v);
      this.#points = points.concat(this.#points);
      this.#failed++;
      this.#consecutiveFailures++;
      this.#fail(error, 'flush');
    } finally {
      this.#inFlightVessels = 0;
      this.#inFlightPoints = 0;
    }
    if (this.#consecutiveFailures === 0 && !this.#closed && this.#points.length >= this.#options.maxBatch) {
      queueMicrotask(() => void this.#flush('due'));
    }
  }

  async #prune(): Promise<void> {
    const now = this.#now();
    // Forget the thinning state of vessels silent for a whole prune interval: the next report of
    // such a vessel starts its track again.
    for (const [mmsi, kept] of this.#kept) if (now - kept.seen > this.#options.pruneIntervalMs) this.#kept.delete(mmsi);
    // A row not written for a whole prune interval is due anyway: its time need not be kept.
    for (const [mmsi, written] of this.#rowWritten) if (now - written > this.#options.pruneIntervalMs) this.#rowWritten.delete(mmsi);
    try {
      this.#pruned += await this.#repository.pruneTrack(now - this.#options.retentionMs);
      this.#lastPruneAt = now;
    } catch (error) {
      this.#fail(error, 'prune');
    }
  }

  #fail(error: unknown, during: 'flush' | 'prune'): void {
    const e = error instanceof Error ? error : new Error(String(error));
    this.#lastError = `${during}: ${e.message}`;
    this.#lastErrorAt = this.#now();
    try {
      this.#onError?.(e, during);
    } catch {
      // A logger that throws must not stop the recorder.
    }
  }
}
