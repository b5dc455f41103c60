// Stream entitlement: whether an organisation may open one more WebSocket stream. Open streams are
// counted per organisation in the counter store, so the cap holds across instances. Each slot is a
// lease the holder renews while the stream lives: slots of an instance that died without releasing
// them free themselves once their lease runs out.
import { randomUUID } from 'node:crypto';
import type { Plan } from '../../../common/plans.ts';
import type { CounterStore } from './store.ts';

export type StreamGrant =
  | { ok: true; release(): Promise<void> }
  /** `plan`: the plan has no streams; `cap`: the organisation has its plan's streams open. */
  | { ok: false; reason: 'plan' | 'cap' };

/** Runs `beat` every `everyMs` until the returned function is called. */
export type Scheduler = (everyMs: number, beat: () => Promise<void>) => () => void;

const everyInterval: Scheduler = (everyMs, beat) => {
  const timer = setInterval(() => void beat(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
};

export interface StreamGateOptions {
  store: CounterStore;
  clock?: () => number;
  /** How long a slot outlives its last renewal; renewed three times per lease. Default 30 s. */
  leaseMs?: number;
  /** Drives the renewals; tests run them by hand. */
  schedule?: Scheduler;
  /** A renewal failed (the next one retries; the lease covers the gap). */
  onError?: (error: unknown) => void;
}

export class StreamGate {
  readonly #store: CounterStore;
  readonly #clock: () => number;
  readonly #leaseMs: number;
  readonly #schedule: Scheduler;
  readonly #onError: (error: unknown) => void;

  constructor(options: StreamGateOptions) {
    this.#store = options.store;
    this.#clock = options.clock ?? Date.now;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#schedule = options.schedule ?? everyInterval;
    this.#onError = options.onError ?? (() => {});
  }

  /** A slot for one more stream of the organisation, or why not. Release it when the stream ends. */
  async acquireStream(organisationId: string, plan: Plan): Promise<StreamGrant> {
    if (!plan.streams) return { ok: false, reason: 'plan' };
    if (plan.maxConcurrentStreams === null) return { ok: true, release: async () => {} };
    const key = `streams:${organisationId}`;
    const holder = randomUUID();
    if (!(await this.#store.claim(key, holder, plan.maxConcurrentStreams, this.#clock(), this.#leaseMs))) {
      return { ok: false, reason: 'cap' };
    }
    const stop = this.#schedule(this.#leaseMs / 3, () => this.#store.renew(key, holder, this.#clock(), this.#leaseMs).catch(this.#onError));
    let released = false;
    return {
      ok: true,
      release: async () => {
        if (released) return;
        released = true;
        stop();
        await this.#store.release(key, holder);
      },
    };
  }
}
