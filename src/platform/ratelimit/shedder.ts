// Overload protection: when this instance is overloaded, development-key requests and streams are
// refused (503 with Retry-After; streams at the upgrade or their auth message) so that production
// traffic keeps the capacity left. Overloaded means too many requests in flight, an event loop
// running late for a sustained time, or a signal a feature registers (AIS ingest falling behind).
//
// The event loop is late for a sustained time when the median delay of every one of the last 5
// seconds is above 100 ms. One long synchronous task (a start-up step, a big query) delays a single
// turn of the loop and moves no median, so it sheds nothing; and the delay is only measured from
// `startMeasuring()` on (the server starts it when it listens).
//
// Signals too are judged from `startMeasuring()` on: a first look then takes in what start-up did
// (the feeds run while the service starts). A signal is checked every quarter of a second (`check`;
// requests read what the last check found) and holds the instance overloaded from the first check
// it is active until `calmMs` (5 s) pass without it being active once: a condition that comes and
// goes with every batch of work (ingest coalescing each time its serving thread is behind) keeps
// shedding steady instead of flapping. Once the instance has been overloaded for
// `closeStreamsAfterMs` on end, the development-key streams already open are closed too.
export interface LoadShedderOptions {
  /** Requests in flight on this instance above which it counts as overloaded. Default 500. */
  maxInFlight?: number;
  /** Event-loop delay (ms) above which it counts as overloaded. Default 100. */
  maxEventLoopDelayMs?: number;
  /** Length of one delay sample (ms). Default 1000. */
  delaySampleMs?: number;
  /** How many consecutive samples must all be late. Default 5. */
  delayWindowSamples?: number;
  /** What shed requests are told to wait, in seconds. Default 5. */
  retryAfterSeconds?: number;
  /** The sustained event-loop delay in ms; measured with a probe timer unless given. */
  eventLoopDelayMs?: () => number;
  /** How long a signal holds the instance overloaded after it was last active (ms). Default 5000. */
  calmMs?: number;
  /** How long an overload lasts before open development-key streams are closed (ms). Default 30000. */
  closeStreamsAfterMs?: number;
  clock?: () => number;
}

/** A condition, beside the shedder's own two, under which this instance counts as overloaded. */
export interface OverloadSignal {
  /** The reason shed requests and streams are given and counted under, e.g. `ingest`. */
  reason: string;
  /** Why, in words for the refused client: "AIS ingest is behind ...". */
  description: string;
  /** Whether the condition holds now. */
  active(): boolean;
  /** Figures shown in /readyz. */
  detail?(): Record<string, unknown>;
}

/** Why a request or stream was shed: the shedder's own reasons, or a signal's. */
export type OverloadReason = 'in_flight' | 'event_loop' | (string & {});

/** What is shed: a REST request, a stream at its upgrade or auth message, or a stream already open. */
export type Shed = 'request' | 'stream' | 'open_stream';

export interface OverloadState {
  overloaded: boolean;
  /** Since when the instance has been overloaded on end, or null. */
  since: string | null;
  close_streams_after_sec: number;
  /** Every reason that holds now, the one refusals give first. */
  reasons: OverloadReason[];
  in_flight: number;
  max_in_flight: number;
  event_loop_delay_ms: number;
  max_event_loop_delay_ms: number;
  /** Each signal: whether it holds the instance overloaded, since when, and its figures. */
  signals: Record<string, { overloaded: boolean; since: string | null } & Record<string, unknown>>;
}

/** How often the delay is probed: a timer this often, and how late it fires. */
const PROBE_MS = 10;

/**
 * The sustained delay: the lowest of the last `samples` per-sample medians (0 until there are
 * that many), so it is over a threshold only when every sample in the window was.
 */
class SustainedDelay {
  readonly #sampleMs: number;
  readonly #samples: number;
  readonly #medians: number[] = [];
  /** How late each probe fired in the current sample (ms). */
  #delays: number[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(sampleMs: number, samples: number) {
    this.#sampleMs = sampleMs;
    this.#samples = samples;
  }

  start(): void {
    if (this.#timer) return;
    let sampleStart = performance.now();
    let last = sampleStart;
    this.#timer = setInterval(() => {
      const now = performance.now();
      this.#delays.push(Math.max(0, now - last - PROBE_MS));
      last = now;
      if (now - sampleStart < this.#sampleMs) return;
      this.#medians.push(median(this.#delays));
      if (this.#medians.length > this.#samples) this.#medians.shift();
      this.#delays = [];
      sampleStart = now;
    }, PROBE_MS).unref();
  }

  read(): number {
    return this.#medians.length < this.#samples ? 0 : Math.min(...this.#medians);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** How often the signals are checked once the server listens. */
const CHECK_MS = 250;

interface Watched {
  signal: OverloadSignal;
  /** When the signal was last active, and since when it holds the instance overloaded (null: it does not). */
  lastActive: number;
  since: number | null;
}

export class LoadShedder {
  readonly retryAfterSeconds: number;
  readonly #maxInFlight: number;
  readonly #maxDelayMs: number;
  readonly #delayWindowMs: number;
  readonly #delayMs: () => number;
  readonly #measured: SustainedDelay | undefined;
  readonly #calmMs: number;
  readonly #closeStreamsAfterMs: number;
  readonly #clock: () => number;
  readonly #signals: Watched[] = [];
  /** Refusals by what and reason, keyed `what reason`. */
  readonly #shed = new Map<string, number>();
  /** Set once the signals are judged (from startMeasuring on). */
  #checking: NodeJS.Timeout | undefined;
  /** Since when every look found the instance overloaded, or null. */
  #overloadedSince: number | null = null;
  #inFlight = 0;

  constructor(options: LoadShedderOptions = {}) {
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
    this.#maxInFlight = options.maxInFlight ?? 500;
    this.#maxDelayMs = options.maxEventLoopDelayMs ?? 100;
    const sampleMs = options.delaySampleMs ?? 1000;
    const samples = options.delayWindowSamples ?? 5;
    this.#delayWindowMs = sampleMs * samples;
    if (options.eventLoopDelayMs) {
      this.#delayMs = options.eventLoopDelayMs;
    } else {
      const measured = new SustainedDelay(sampleMs, samples);
      this.#measured = measured;
      this.#delayMs = () => measured.read();
    }
    this.#calmMs = options.calmMs ?? 5_000;
    this.#closeStreamsAfterMs = options.closeStreamsAfterMs ?? 30_000;
    this.#clock = options.clock ?? Date.now;
  }

  /** Adds a condition under which the instance counts as overloaded (features add theirs before the server listens). */
  addSignal(signal: OverloadSignal): void {
    if (signal.reason === 'in_flight' || signal.reason === 'event_loop' || this.#signals.some((w) => w.signal.reason === signal.reason)) {
      throw new Error(`overload signal "${signal.reason}" registered twice`);
    }
    this.#signals.push({ signal, lastActive: 0, since: null });
  }

  /** Starts judging the event loop and the signals (once the server listens: start-up work is no overload). */
  startMeasuring(): void {
    this.#measured?.start();
    if (this.#checking) return;
    for (const watched of this.#signals) watched.signal.active();
    this.#checking = setInterval(() => this.check(), CHECK_MS).unref();
  }

  /** Looks at every signal (every CHECK_MS once measuring; requests read what it found). */
  check(): void {
    if (!this.#checking) return;
    const now = this.#clock();
    for (const watched of this.#signals) {
      if (watched.signal.active()) {
        watched.lastActive = now;
        watched.since ??= now;
      } else if (watched.since !== null && now - watched.lastActive >= this.#calmMs) {
        watched.since = null;
      }
    }
    // Moves the overload's start (or end) to this look, so it is dated even when no request asks.
    this.reasons();
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Counts a request in; the returned function counts it out (once, however often it is called). */
  track(): () => void {
    this.#inFlight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#inFlight--;
    };
  }

  /** Every reason this instance counts as overloaded for now (the signals as last checked), its own first; none when it is not. */
  reasons(): OverloadReason[] {
    const now = this.#clock();
    const reasons: OverloadReason[] = [];
    if (this.#inFlight > this.#maxInFlight) reasons.push('in_flight');
    if (this.#delayMs() > this.#maxDelayMs) reasons.push('event_loop');
    for (const watched of this.#signals) if (watched.since !== null) reasons.push(watched.signal.reason);
    this.#overloadedSince = reasons.length === 0 ? null : (this.#overloadedSince ?? now);
    return reasons;
  }

  /**
   * Whether to refuse a request (or a stream) of a key of this environment now: the reason to give,
   * or null to serve it. What it refuses is counted.
   */
  sheds(environment: 'development' | 'production', what: Shed = 'request'): OverloadReason | null {
    if (environment !== 'development') return null;
    const reason = this.reasons()[0];
    if (reason === undefined) return null;
    this.#count(what, reason);
    return reason;
  }

  /**
   * Whether to close an open stream of a key of this environment now: a development key's, once the
   * instance has been overloaded for `closeStreamsAfterMs` on end. The reason, or null; what it closes is counted.
   */
  closesStream(environment: 'development' | 'production'): OverloadReason | null {
    if (environment !== 'development') return null;
    const reason = this.reasons()[0];
    if (reason === undefined || this.#clock() - this.#overloadedSince! < this.#closeStreamsAfterMs) return null;
    this.#count('open_stream', reason);
    return reason;
  }

  /** What a client refused for this reason is told. */
  describe(reason: OverloadReason): string {
    if (reason === 'in_flight') return `more than ${this.#maxInFlight} requests are in flight on this instance`;
    if (reason === 'event_loop') return `its event loop has run over ${this.#maxDelayMs} ms late for ${this.#delayWindowMs / 1000} s on end`;
    return this.#signals.find((watched) => watched.signal.reason === reason)?.signal.description ?? reason;
  }

  /** Requests and streams refused so far, by what and why. */
  shedCounts(): { what: Shed; reason: OverloadReason; count: number }[] {
    return [...this.#shed].map(([key, count]) => {
      const [what, reason] = key.split(' ') as [Shed, OverloadReason];
      return { what, reason, count };
    });
  }

  /** The overload state, for /readyz. */
  state(): OverloadState {
    const reasons = this.reasons();
    const signals: OverloadState['signals'] = {};
    for (const { signal, since } of this.#signals) {
      signals[signal.reason] = { overloaded: since !== null, since: since === null ? null : new Date(since).toISOString(), ...signal.detail?.() };
    }
    return {
      overloaded: reasons.length > 0,
      since: this.#overloadedSince === null ? null : new Date(this.#overloadedSince).toISOString(),
      close_streams_after_sec: this.#closeStreamsAfterMs / 1000,
      reasons,
      in_flight: this.#inFlight,
      max_in_flight: this.#maxInFlight,
      event_loop_delay_ms: Math.round(this.#delayMs() * 10) / 10,
      max_event_loop_delay_ms: this.#maxDelayMs,
      signals,
    };
  }

  close(): void {
    this.#measured?.stop();
    clearInterval(this.#checking);
  }

  #count(what: Shed, reason: OverloadReason): void {
    const key = `${what} ${reason}`;
    this.#shed.set(key, (this.#shed.get(key) ?? 0) + 1);
  }
}
