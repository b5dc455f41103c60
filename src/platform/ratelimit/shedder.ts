// Overload protection: when this instance is overloaded, development-key requests are refused
// (503 with Retry-After) so that production traffic keeps the capacity left. Overloaded means too
// many requests in flight, or an event loop running late (the p99 delay over the last second).
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoadShedderOptions {
  /** Requests in flight on this instance above which it counts as overloaded. Default 500. */
  maxInFlight?: number;
  /** Event-loop delay (ms) above which it counts as overloaded. Default 100. */
  maxEventLoopDelayMs?: number;
  /** What shed requests are told to wait, in seconds. Default 5. */
  retryAfterSeconds?: number;
  /** The current event-loop delay in ms; measured with `monitorEventLoopDelay` unless given. */
  eventLoopDelayMs?: () => number;
}

/** The p99 delay of the last full second, refreshed when read. */
function measuredEventLoopDelay(): { read: () => number; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let since = performance.now();
  let last = 0;
  return {
    read() {
      const now = performance.now();
      if (now - since >= 1000) {
        last = histogram.count ? histogram.percentile(99) / 1e6 : 0;
        histogram.reset();
        since = now;
      }
      return last;
    },
    stop: () => histogram.disable(),
  };
}

export class LoadShedder {
  readonly retryAfterSeconds: number;
  readonly #maxInFlight: number;
  readonly #maxDelayMs: number;
  readonly #delayMs: () => number;
  readonly #stop: () => void;
  #inFlight = 0;

  constructor(options: LoadShedderOptions = {}) {
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
    this.#maxInFlight = options.maxInFlight ?? 500;
    this.#maxDelayMs = options.maxEventLoopDelayMs ?? 100;
    if (options.eventLoopDelayMs) {
      this.#delayMs = options.eventLoopDelayMs;
      this.#stop = () => {};
    } else {
      const measured = measuredEventLoopDelay();
      this.#delayMs = measured.read;
      this.#stop = measured.stop;
    }
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
    this.#stop();
  }
}
