// Overload protection: when this instance is overloaded, development-key requests are refused
// (503 with Retry-After) so that production traffic keeps the capacity left. Overloaded means too
// many requests in flight, or an event loop running late for a sustained time: the median delay of
// every one of the last 5 seconds above 100 ms. One long synchronous task (a start-up step, a big
// query) delays a single turn of the loop and moves no median, so it sheds nothing; and the delay
// is only measured from `startMeasuring()` on (the server starts it when it listens).
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

export class LoadShedder {
  readonly retryAfterSeconds: number;
  readonly #maxInFlight: number;
  readonly #maxDelayMs: number;
  readonly #delayMs: () => number;
  readonly #measured: SustainedDelay | undefined;
  #inFlight = 0;

  constructor(options: LoadShedderOptions = {}) {
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
    this.#maxInFlight = options.maxInFlight ?? 500;
    this.#maxDelayMs = options.maxEventLoopDelayMs ?? 100;
    if (options.eventLoopDelayMs) {
      this.#delayMs = options.eventLoopDelayMs;
    } else {
      const measured = new SustainedDelay(options.delaySampleMs ?? 1000, options.delayWindowSamples ?? 5);
      this.#measured = measured;
      this.#delayMs = () => measured.read();
    }
  }

  /** Starts judging the event loop (once the server listens: start-up work is no overload). */
  startMeasuring(): void {
    this.#measured?.start();
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

  overloaded(): boolean {
    return this.#inFlight > this.#maxInFlight || this.#delayMs() > this.#maxDelayMs;
  }

  /** Whether to refuse a request from a key of this environment now. */
  sheds(environment: 'development' | 'production'): boolean {
    return environment === 'development' && this.overloaded();
  }

  close(): void {
    this.#measured?.stop();
  }
}
