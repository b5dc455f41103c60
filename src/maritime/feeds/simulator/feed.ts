// The simulator as a feed: once a second it advances the simulated fleet to the wall clock and hands
// the NMEA sentences due by then to the sink, so simulated data takes the same path as a receiver's.
import type { Feed, FeedSink, FeedStatus } from '../types.ts';
import { FEED_REJECT_REASONS } from '../types.ts';
import { createAisSimulator, type AisSimulator } from './simulator.ts';

export const SIMULATOR_FEED_ID = 'simulator';
const TICK_MS = 1000;

export interface SimulatorFeedOptions {
  vessels: number;
  /** Equal seeds sail equal fleets (the same MMSIs and names after a restart). */
  seed?: number;
  tickMs?: number;
}

export function createSimulatorFeed(options: SimulatorFeedOptions): Feed {
  const tickMs = options.tickMs ?? TICK_MS;
  let simulator: AisSimulator | null = null;
  let timer: NodeJS.Timeout | null = null;
  const status: FeedStatus = {
    id: SIMULATOR_FEED_ID,
    kind: 'simulator',
    source: 'simulated',
    state: 'stopped',
    since: new Date().toISOString(),
    detail: `${options.vessels} simulated vessels`,
    bytes: 0,
    lines: 0,
    messages: 0,
    oversized_lines: 0,
    rejected: Object.fromEntries(FEED_REJECT_REASONS.map((reason) => [reason, 0])) as FeedStatus['rejected'],
    reconnects: 0,
    connections: 0,
    last_data_at: null,
  };
  const enter = (state: FeedStatus['state'], detail = status.detail) => {
    status.state = state;
    status.since = new Date().toISOString();
    status.detail = detail;
  };

  const tick = (sink: FeedSink) => {
    const now = Date.now();
    const lines = simulator!.advance(now);
    if (lines.length === 0) return;
    status.lines += lines.length;
    for (const line of lines) status.bytes += line.length + 2;
    status.last_data_at = new Date(now).toISOString();
    sink.lines(lines, now);
  };

  return {
    id: SIMULATOR_FEED_ID,
    kind: 'simulator',
    source: 'simulated',
    async start(sink) {
      const created = createAisSimulator({ vessels: options.vessels, seed: options.seed ?? 1, startTime: Date.now() });
      if (!created.ok) {
        enter('failed', created.message);
        throw new Error(`AIS simulator: ${created.message}`);
      }
      simulator = created.simulator;
      enter('connected');
      // The first tick at once: every vessel reports as it comes on air.
      tick(sink);
      timer = setInterval(() => tick(sink), tickMs).unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      enter('stopped');
    },
    status: () => ({ ...status, rejected: { ...status.rejected } }),
  };
}
