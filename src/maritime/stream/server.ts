// The AIS stream at /v3/stream/ais, on the streams' shared machinery (upgrades, authentication,
// plan leases, heartbeats: src/platform/stream). An admitted stream is sent `ready`, then what its
// subscription asks for, paced and coalesced per vessel by its outbox (session.ts). The sessions
// run on the serving thread, or in stream processes of their own (processes.ts) that the serving
// thread hands each upgrade to once it passed the checks.
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { PartSubscription } from '../../platform/bus/index.ts';
import type { App } from '../../platform/http/app.ts';
import { registerAsyncApi } from '../../platform/http/asyncapi.ts';
import { onceAScrape } from '../../platform/http/metrics.ts';
import { StreamEndpoint } from '../../platform/stream/index.ts';
import type { Change, Vessel } from '../vessels/store.ts';
import { aisStreamChannel } from './channel.ts';
import { StreamProcesses } from './processes.ts';
import { STREAM_PATH } from './protocol.ts';
import { AIS_STREAM_MESSAGES } from './stream.schemas.ts';
import { AisSession, AisSessions, PACING_TICK_MS, type StreamBounds, type StreamFigures } from './session.ts';

export interface AisStreamOptions extends StreamBounds {
  app: App;
  metrics: Registry;
  publicUrl: string | undefined;
  /**
   * Subscribes to vessel changes (from every instance when the bus runs on NATS or Redis), of the
   * regions (regions.ts) the subscription is told to watch: those of the streams' boxes.
   */
  changes(handler: (change: Change) => void): Promise<PartSubscription>;
  heartbeatSec: number;
  /** Stream processes to serve the streams in; 0 serves them on the serving thread. */
  processes: number;
  /** The read copy of vessel state, for a stream process that starts. */
  vessels(): Iterable<Vessel>;
  log: FastifyBaseLogger;
}

export interface AisStream {
  /** Closes every stream with 1001 and stops taking new ones. */
  close(): Promise<void>;
}

/** `figures`: the sessions' own counts, read when scraped (delivery paths only add to plain numbers). */
function registerMetrics(registry: Registry, endpoint: StreamEndpoint<AisSession>, figures: () => Promise<StreamFigures>): void {
  const registers = [registry];
  new Gauge({
    name: 'lamis_stream_connections', help: 'AIS stream connections, by state (authenticating: waiting for the auth message or its check)',
    labelNames: ['state'], registers,
    async collect() {
      const { open, authenticating } = await figures();
      this.set({ state: 'open' }, open);
      this.set({ state: 'authenticating' }, authenticating);
    },
  });
  new Counter({
    name: 'lamis_stream_frames_total', help: 'Frames written to AIS streams, by event', labelNames: ['event'], registers,
    async collect() {
      const { stats } = await figures();
      this.reset();
      for (const [event, count] of Object.entries(stats.frames)) this.inc({ event }, count);
    },
  });
  new Counter({
    name: 'lamis_stream_closes_total', help: 'AIS streams closed, by close code (1006: the connection dropped)', labelNames: ['code'], registers,
    async collect() {
      const { closes } = await figures();
      this.reset();
      for (const [code, count] of closes) this.inc({ code: String(code) }, count);
    },
  });
  new Counter({
    name: 'lamis_stream_refusals_total', help: 'AIS stream connections refused at the upgrade or the auth message, by reason', labelNames: ['reason'], registers,
    collect() {
      this.reset();
      for (const [reason, count] of endpoint.refusals) this.inc({ reason }, count);
    },
  });
  new Counter({
    name: 'lamis_stream_updates_coalesced_total', help: 'Positions replaced by a newer one of the same vessel within its update interval', registers,
    async collect() {
      const { stats } = await figures();
      this.reset();
      this.inc(stats.coalesced);
    },
  });
  new Counter({
    name: 'lamis_stream_updates_dropped_total', help: 'Updates replaced by a newer one of the same vessel while held for a slow consumer', registers,
    async collect() {
      const { stats } = await figures();
      this.reset();
      this.inc(stats.dropped);
    },
  });
  new Gauge({
    name: 'lamis_stream_waiting_bytes', help: 'Bytes waiting to be sent on AIS streams: unsent in their sockets plus held for slow consumers', registers,
    async collect() {
      this.set((await figures()).waitingBytes);
    },
  });
  new Gauge({
    name: 'lamis_stream_waiting_bytes_max', help: 'The most bytes waiting on one AIS stream (a slow consumer shows here)', registers,
    async collect() {
      this.set((await figures()).waitingBytesMax);
    },
  });
}

/** Serves the stream (and describes it in the AsyncAPI document) on the app; call before it listens. */
export async function startAisStream(options: AisStreamOptions): Promise<AisStream> {
  const { app, heartbeatSec } = options;
  registerAsyncApi(app, { publicUrl: options.publicUrl, channels: [aisStreamChannel(heartbeatSec)] });
  let publish: (change: Change) => void = () => {};
  const changes = await options.changes((change) => publish(change));
  const bounds: StreamBounds = { softLimitBytes: options.softLimitBytes, hardLimitBytes: options.hardLimitBytes, slowCloseMs: options.slowCloseMs };
  if (options.processes > 0) {
    const endpoint: StreamEndpoint<AisSession> = new StreamEndpoint<AisSession>({
      app, path: STREAM_PATH, heartbeatSec, messages: AIS_STREAM_MESSAGES, handOver: (upgrade) => processes.handOver(upgrade),
    });
    const processes = new StreamProcesses({
      count: options.processes, heartbeatSec, bounds, endpoint, watch: (parts) => changes.watch(parts), vessels: options.vessels, log: options.log,
    });
    publish = (change) => processes.publish(change);
    // Asked of the processes once a scrape.
    const figures = onceAScrape(() => processes.figures());
    registerMetrics(options.metrics, endpoint, figures);
    new Gauge({
      name: 'lamis_stream_processes', help: 'Stream processes ready to serve AIS streams', registers: [options.metrics],
      collect() {
        this.set(processes.running);
      },
    });
    new Gauge({
      name: 'lamis_stream_processes_resident_bytes', registers: [options.metrics],
      help: "Resident memory of the stream processes together (process_resident_memory_bytes is this process's alone)",
      async collect() {
        await figures();
        this.set(processes.residentBytes);
      },
    });
    new Counter({
      name: 'lamis_stream_process_positions_coalesced_total', registers: [options.metrics],
      help: 'Position changes merged into a later one of the same vessel while the stream processes were behind (the earlier position was not passed on)',
      collect() {
        this.reset();
        this.inc(processes.coalesced);
      },
    });
    return {
      async close() {
        await endpoint.close();
        await processes.close();
        await endpoint.released();
        await changes.close();
      },
    };
  }
  const sessions = new AisSessions(bounds, (parts) => changes.watch(parts));
  const endpoint = new StreamEndpoint<AisSession>({
    app, path: STREAM_PATH, heartbeatSec, messages: AIS_STREAM_MESSAGES,
    session: (host, ws, socket, request) => new AisSession(sessions, host, ws, socket, request.log),
  });
  publish = (change) => sessions.publish(change);
  registerMetrics(options.metrics, endpoint, async () => sessions.figures(endpoint.sessions, endpoint.open.closes));
  const ticker = setInterval(() => sessions.tick(), PACING_TICK_MS).unref();
  return {
    async close() {
      clearInterval(ticker);
      await endpoint.close();
      await sessions.settled();
      await changes.close();
    },
  };
}
