// What every feed adapter shares: its status counters and state, logging, safe delivery to the
// sink, and the reconnect backoff of the client feeds.
import type { AisMessage } from '../ais/index.ts';
import type { FeedSource } from '../vessels/store.ts';
import { FEED_REJECT_REASONS } from './types.ts';
import type { Feed, FeedKind, FeedLogger, FeedLogLevel, FeedRejectReason, FeedSink, FeedState, FeedStatus } from './types.ts';

export interface BackoffOptions {
  /** First retry delay (ms), default 1000. */
  initialMs?: number;
  /** Longest retry delay (ms), default 60 000. */
  maxMs?: number;
  /** Growth per failed attempt, default 2. */
  factor?: number;
  /** Random spread as a fraction of the delay, 0..1, default 0.2 (a delay d becomes d ± 20 %). */
  jitter?: number;
  /** A connection that lived at least this long (ms) resets the delay to `initialMs`; default 30 000. */
  resetAfterMs?: number;
}

/** Exponential backoff with jitter; reset by the caller after a connection that lasted. */
export class Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  readonly jitter: number;
  readonly resetAfterMs: number;
  readonly #random: () => number;
  #attempt = 0;

  constructor(options: BackoffOptions = {}, random: () => number = Math.random) {
    this.initialMs = positive(options.initialMs, 1000, 'initialMs');
    this.maxMs = Math.max(this.initialMs, positive(options.maxMs, 60_000, 'maxMs'));
    this.factor = Math.max(1, positive(options.factor, 2, 'factor'));
    const jitter = options.jitter ?? 0.2;
    if (!(jitter >= 0 && jitter <= 1)) throw new RangeError('jitter must be from 0 to 1');
    this.jitter = jitter;
    this.resetAfterMs = nonNegative(options.resetAfterMs, 30_000, 'resetAfterMs');
    this.#random = random;
  }

  /** Failed attempts since the last reset. */
  get attempt(): number {
    return this.#attempt;
  }

  /** The delay before the next attempt (ms); each call counts one more failed attempt. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * this.factor ** this.#attempt);
    this.#attempt++;
    const spread = base * this.jitter * (this.#random() * 2 - 1);
    return Math.max(1, Math.round(Math.min(this.maxMs, base + spread)));
  }

  reset(): void {
    this.#attempt = 0;
  }

  /** Resets when a connection opened at `openedAt` lived at least `resetAfterMs` until `closedAt`. */
  connectionClosed(openedAt: number | null, closedAt: number): void {
    if (openedAt !== null && closedAt - openedAt >= this.resetAfterMs) this.reset();
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number`);
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${name} must be zero or more`);
  return value;
}

/** Validates an optional timing option (ms): a positive finite number, else the default. */
export function timing(value: number | undefined, fallback: number, name: string): number {
  return positive(value, fallback, name);
}

/** Options every feed takes. */
export interface FeedBaseOptions {
  onLog?: FeedLogger;
}

/** A duration for log and status text: `250 ms`, `2.5 s`, `60 s`. */
export function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** Error text for logs and status: the message (or code) only, never a stack. */
export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

export abstract class FeedBase implements Feed {
  readonly id: string;
  readonly kind: FeedKind;
  readonly source: FeedSource;
  readonly #onLog: FeedLogger | undefined;
  #state: FeedState = 'stopped';
  #since = Date.now();
  #detail: string | null = 'not started';
  #sink: FeedSink | null = null;
  #started = false;
  #stopping = false;
  #stopped: Promise<void> | null = null;
  protected readonly counters = {
    bytes: 0,
    lines: 0,
    messages: 0,
    oversizedLines: 0,
    reconnects: 0,
    connections: 0,
    lastDataAt: null as number | null,
    rejected: Object.fromEntries(FEED_REJECT_REASONS.map((reason) => [reason, 0])) as Record<FeedRejectReason, number>,
  };

  constructor(id: string, kind: FeedKind, source: FeedSource, options: FeedBaseOptions) {
    this.id = id;
    this.kind = kind;
    this.source = source;
    this.#onLog = options.onLog;
  }

  /** True once stop() was called: handlers check it before scheduling more work. */
  protected get stopping(): boolean {
    return this.#stopping;
  }

  protected get state(): FeedState {
    return this.#state;
  }

  async start(sink: FeedSink): Promise<void> {
    if (this.#started) throw new Error(`feed ${this.id} was already started`);
    this.#started = true;
    this.#sink = sink;
    this.setState('starting', null);
    try {
      await this.open();
    } catch (error) {
      if (this.#stopping) return; // stop() during start: not a failure
      const text = errorText(error);
      this.setState('failed', text);
      await this.close().catch(() => undefined);
      throw new Error(`feed ${this.id} could not start: ${text}`, { cause: error });
    }
  }

  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#stopping = true;
      await this.close();
      if (this.#state !== 'finished') this.setState('stopped', null);
    })();
    return this.#stopped;
  }

  status(): FeedStatus {
    const c = this.counters;
    return {
      id: this.id,
      kind: this.kind,
      source: this.source,
      state: this.#state,
      since: new Date(this.#since).toISOString(),
      detail: this.#detail,
      bytes: c.bytes,
      lines: c.lines,
      messages: c.messages,
      oversized_lines: c.oversizedLines,
      rejected: { ...c.rejected },
      reconnects: c.reconnects,
      connections: c.connections,
      last_data_at: c.lastDataAt === null ? null : new Date(c.lastDataAt).toISOString(),
    };
  }

  /** Binds, connects or opens; resolves once running (see Feed.start), throws when it cannot run. */
  protected abstract open(): Promise<void>;

  /** Releases every handle; must be safe to call more than once, and after a failed open(). */
  protected abstract close(): Promise<void>;

  /** Moves to `state` (a new `since` only when the state changes) and logs the change. */
  protected setState(state: FeedState, detail: string | null, level: FeedLogLevel = state === 'failed' ? 'error' : 'info'): void {
    const changed = state !== this.#state;
    if (changed) this.#since = Date.now();
    const detailChanged = detail !== this.#detail;
    this.#state = state;
    this.#detail = detail;
    if (changed || detailChanged) this.log(level, detail === null ? `feed ${state}` : `feed ${state}: ${detail}`, { state });
  }

  /** Keeps the state, updates its detail text. */
  protected setDetail(detail: string | null): void {
    this.#detail = detail;
  }

  protected log(level: FeedLogLevel, message: string, detail: Record<string, unknown> = {}): void {
    if (!this.#onLog) return;
    try {
      this.#onLog(level, message, { feed: this.id, kind: this.kind, ...detail });
    } catch {
      // A failing logger must not take a feed down.
    }
  }

  protected countBytes(bytes: number, at: number = Date.now()): void {
    this.counters.bytes += bytes;
    this.counters.lastDataAt = at;
  }

  /**
   * Hands lines to the sink with the wall-clock time of the hand-over. Returns, while the sink is
   * behind, a promise of its catching up (a feed that can, stops reading until then).
   */
  protected deliverLines(lines: string[]): Promise<void> | null {
    if (lines.length === 0 || this.#sink === null || this.#stopping) return null;
    this.counters.lines += lines.length;
    try {
      this.#sink.lines(lines, Date.now());
      return this.#sink.backlog?.() ?? null;
    } catch (error) {
      this.log('error', `sink failed on ${lines.length} lines: ${errorText(error)}`);
      return null;
    }
  }

  /** Stops reading a socket while the sink is behind. */
  protected holdWhileBehind(socket: { pause(): unknown; resume(): unknown }, behind: Promise<void> | null): void {
    if (behind === null) return;
    socket.pause();
    void behind.then(() => {
      if (!this.#stopping) socket.resume();
    });
  }

  protected deliverMessages(messages: AisMessage[]): void {
    if (messages.length === 0 || this.#sink === null || this.#stopping) return;
    this.counters.messages += messages.length;
    try {
      this.#sink.messages(messages, Date.now());
    } catch (error) {
      this.log('error', `sink failed on ${messages.length} messages: ${errorText(error)}`);
    }
  }
}
