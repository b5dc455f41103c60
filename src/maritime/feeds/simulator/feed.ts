// The simulator as a feed: once a second it advances the simulated fleet to the wall clock and hands
// the NMEA sentences due by then to the sink, so simulated data takes the same path as a receiver's.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { loadSeaGraphAside } from '../../sea-routes/loading.ts';
import { FeedBase, type FeedBaseOptions } from '../base.ts';
import { findSimulatorPortsAside } from './ports.ts';
import { createAisSimulator, type AisSimulator } from './simulator.ts';

export const SIMULATOR_FEED_ID = 'simulator';
const TICK_MS = 1000;

export interface SimulatorFeedOptions extends FeedBaseOptions {
  vessels: number;
  /** Equal seeds sail equal fleets (the same MMSIs and names after a restart). */
  seed?: number;
  tickMs?: number;
}

class SimulatorFeed extends FeedBase {
  readonly #options: SimulatorFeedOptions;
  readonly #closing = new AbortController();
  #timer: NodeJS.Timeout | null = null;

  constructor(options: SimulatorFeedOptions) {
    super(SIMULATOR_FEED_ID, 'simulator', 'simulated', options);
    this.#options = options;
  }

  protected async open(): Promise<void> {
    // The sea lanes the fleet sails and the ports it calls at, each made on a thread of its own
    // (sea-routes/loading.ts, ports.ts); should that fail, the fleet makes them where it runs.
    await Promise.all([
      loadSeaGraphAside(this.#closing.signal).catch(() => undefined),
      findSimulatorPortsAside(this.#closing.signal).catch(() => undefined),
    ]);
    // Two long steps (the fleet on its sea-route network; the first trips planned), each on a turn
    // of the event loop of its own, so that requests are served in between.
    await nextTurn();
    if (this.stopping) return;
    const created = createAisSimulator({ vessels: this.#options.vessels, seed: this.#options.seed ?? 1, startTime: Date.now() });
    if (!created.ok) throw new Error(created.message);
    const simulator: AisSimulator = created.simulator;
    const tick = () => {
      const lines = simulator.advance(Date.now());
      for (const line of lines) this.countBytes(line.length + 2);
      this.deliverLines(lines);
    };
    this.setState('connected', `${this.#options.vessels} simulated vessels`);
    await nextTurn();
    if (this.stopping) return;
    tick(); // every vessel reports as it comes on air
    this.#timer = setInterval(tick, this.#options.tickMs ?? TICK_MS).unref();
  }

  protected async close(): Promise<void> {
    this.#closing.abort();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}

export function createSimulatorFeed(options: SimulatorFeedOptions): FeedBase {
  return new SimulatorFeed(options);
}
