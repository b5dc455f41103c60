// The maritime feature: AIS feeds into live vessel state, recorded to storage, announced on the
// bus, served over REST, accounted for in /readyz and /metrics, and an overload signal when behind.
import { availableParallelism } from 'node:os';
import { Counter, Gauge } from 'prom-client';
import { OrganisationGrants } from '../accounts/index.ts';
import type { Feature, FeatureContext } from '../platform/feature.ts';
import type { HealthResult } from '../platform/health.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { topic } from '../platform/bus/index.ts';
import { ConfigError } from '../platform/config/index.ts';
import { onceAScrape } from '../platform/http/metrics.ts';
import { randomBase62 } from '../platform/ids.ts';
import { AIS_REJECT_REASONS } from './ais/index.ts';
import { registerUploadRoute } from './feeds/upload.routes.ts';
import { predictArrival, registerEtaRoutes, type ArrivalRequest } from './eta/index.ts';
import { registerPortRoutes } from './ports/ports.routes.ts';
import { registerSeaRouteRoutes } from './sea-routes/routes.routes.ts';
import { loadPortData, portsOnceLoaded } from './ports/loading.ts';
import { loadSeaGraphAside } from './sea-routes/loading.ts';
import { startPortIntelligence } from './ports/service.ts';
import { registerTideRoutes } from './tides/tides.routes.ts';
import { loadTideStations } from './tides/index.ts';
import { registerVesselRoutes } from './vessels/vessels.routes.ts';
import { IngestLink } from './ingest/link.ts';
import { runsIngestThread } from './ingest/thread.ts';
import { ingestOverload } from './ingest/overload.ts';
import { VesselRepository } from './vessels/repository.ts';
import { VesselStore, type Change } from './vessels/store.ts';
import { withoutRepeats, type PublishedChange } from './vessels/repeats.ts';
import { HeldChanges } from './vessels/held-changes.ts';
import { createWeatherSource, PortWeatherThresholdStore, registerWeatherRoutes } from './weather/index.ts';
import { startAisStream } from './stream/server.ts';
import type { MaritimeSettings } from './settings.ts';
import type { MaritimeWatch } from './watch.ts';
import { regionOf } from './regions.ts';

type Settings = PlatformSettings & MaritimeSettings;

/**
 * Every change to a vessel, for the stream and other features; by region (regions.ts). Each names
 * the instance that read it, so that receivers take a report read by two instances once (repeats.ts).
 */
export const vesselChanges = topic<PublishedChange>('maritime.vessels', regionOf);

/** The routes that read the port data, the port areas and the sea lanes: each waits for what it reads while it loads (reference-data.ts). */
const PORT_PATHS = ['/v3/maritime/ports', '/v3/maritime/routes', /^\/v3\/maritime\/vessels\/[^/]+\/(eta|calls)\b/];
const PORT_AREA_PATHS = ['/v3/maritime/ports/', /^\/v3\/maritime\/vessels\/[^/]+\/calls\b/];
const SEA_LANE_PATHS = ['/v3/maritime/routes', /^\/v3\/maritime\/vessels\/[^/]+\/eta\b/];

/** How often stale positions leave the read copy's live index. */
const HOUSEKEEPING_MS = 10_000;

/**
 * How many stream processes: `auto` leaves two cores to the serving thread and ingest and gives the
 * streams the rest, at least one; none on a single core, where a process would only add its hop.
 */
function streamProcesses(setting: number | 'auto'): number {
  if (setting !== 'auto') return setting;
  const cores = availableParallelism();
  return cores === 1 ? 0 : Math.max(1, cores - 2);
}

/** Whether the simulator runs: asked for, or no feed configured. */
function simulates(config: Settings): boolean {
  return config.aisSimulator === 'on' || (config.aisSimulator === 'auto' && config.aisFeeds.length === 0);
}

/** `watch`: maritime answers for the intelligence engine, attached here once the services run. */
export const maritime = (watch: MaritimeWatch): Feature<Settings> => async (context) => {
  const { app, config, database, bus, readiness, reference, logger } = context;
  const log = logger.child({ feature: 'maritime' });
  const staleAfterMs = config.aisStaleMinutes * 60_000;

  // The read copy of vessel state that requests, streams and rules read; the ingest core keeps its own.
  const store = new VesselStore();
  const repository = new VesselRepository(database);
  const restored = await repository.loadVessels();
  const freshAfter = Date.now() - staleAfterMs;
  for (const vessel of restored) store.restore(vessel, freshAfter);
  if (restored.length) log.info({ vessels: restored.length, live: store.liveCount }, 'vessel state restored from storage');

  const threaded = runsIngestThread(config.aisIngestThread);
  // The ingest thread takes a good half second to load its modules (`lamis serve` starts it before
  // the service's own load: thread.ts) and open storage: it opens here and is awaited just before
  // the server listens (onReady below), the other features and the routes' schemas being made
  // meanwhile. Nothing reads it before then: requests, /readyz and /metrics come later, and no
  // change comes before its feeds start.
  const starting = IngestLink.start({
    threaded,
    database,
    databaseSettings: { databaseUrl: config.databaseUrl, databasePoolMax: config.databasePoolMax, databaseTimeoutMs: config.databaseTimeoutMs, dataDir: config.dataDir },
    settings: {
      feeds: config.aisFeeds,
      aisstreamApiKey: config.aisstreamApiKey,
      simulatorVessels: simulates(config) ? config.aisSimulatorVessels : null,
      staleAfterMs,
      trackRetentionMs: config.aisTrackRetentionHours * 3_600_000,
    },
    store,
    log,
  });
  // Its failure is the start-up's, thrown where it is awaited.
  starting.catch(() => {});
  let ingest!: IngestLink;
  /** Names this instance on the vessel changes it publishes, so receivers take a report two instances read once (repeats.ts). */
  const reader = randomBase62(12);

  /** Track points of one vessel in [from, to], the ones still waiting to be written included. */
  const readTrack = async (mmsi: number, from: number, to: number, limit: number) => {
    await ingest.flushTrack();
    return repository.track(mmsi, from, to, limit);
  };
  registerVesselRoutes(app, { store, track: readTrack });
  const grants = new OrganisationGrants(database);
  registerUploadRoute(app, (body, sender) => ingest.upload(body, sender), async (orgId) => (await grants.of(orgId)).ais_upload === 'shared');
  // Fed from the bus, so with NATS or Redis a change ingested on any instance reaches streams on all
  // of them; each instance takes the regions its streams watch. Instances reading the same feed
  // both publish each report: the streams get the first copy (repeats.ts).
  const stream = await startAisStream({
    app,
    metrics: context.metrics,
    publicUrl: config.publicUrl,
    changes: (handler) => bus.subscribeParts(vesselChanges, withoutRepeats(handler)),
    heartbeatSec: config.streamHeartbeatSec,
    processes: streamProcesses(config.streamProcesses),
    vessels: () => store.all(),
    log,
    softLimitBytes: config.streamBufferKb * 1024,
    hardLimitBytes: config.streamBufferMaxKb * 1024,
    slowCloseMs: config.streamSlowCloseSec * 1000,
  });
  // Before the server stops listening: open streams hold connections it would wait for.
  app.addHook('preClose', () => stream.close());
  // On NATS or Redis what the other instances read joins this one's read copy, so vessel requests,
  // ETAs and rules answer alike on every instance: each change newer than the vessel's state held.
  if (bus.kind !== 'memory') {
    const stopJoining = await bus.subscribe(vesselChanges, (change) => {
      if (change.reader === reader) return;
      const current = store.get(change.vessel.mmsi);
      // A copy: the read copy updates what it holds in place, and the message is another reader's
      // last change to the repeat filters, which compare what comes next with it.
      if (current === undefined || current.last_update < change.vessel.last_update) store.put({ ...change.vessel }, change.position);
    });
    app.addHook('onClose', stopJoining);
  }

  // The port data and the sea-lane graph load after the start (reference-data.ts, ports/loading.ts,
  // sea-routes/loading.ts): the port and sea route routes wait for them, anything else that reads
  // the ports meanwhile gets a 503; port intelligence then makes the port areas from the port data,
  // the port routes waiting for those too.
  const closing = new AbortController();
  app.addHook('onClose', async () => closing.abort());
  const portData = reference.load('ports', PORT_PATHS, async () => {
    const loaded = await loadPortData({ dataDir: config.dataDir }, closing.signal);
    const { index } = loaded;
    for (const problem of index.problems) log.warn({ problem }, 'imported port data is unreadable and left out');
    log.info({ ports: index.meta.ports, wpi: index.meta.wpi?.built_in === false ? index.meta.wpi.origin : 'built in', unlocode: index.meta.unlocode !== null }, 'port index loaded');
    return loaded;
  });
  portData.loaded.catch((error: Error) => {
    if (!closing.signal.aborted) log.error({ err: error }, 'port data could not be loaded: port and sea route requests answer 503');
  });
  const seaLanes = reference.load('sea lanes', SEA_LANE_PATHS, () => loadSeaGraphAside(closing.signal));
  seaLanes.loaded.catch((error: Error) => {
    if (!closing.signal.aborted) log.error({ err: error }, 'sea-lane network could not be loaded aside: routes build it when asked');
  });
  const { index: ports, destinations } = portsOnceLoaded(portData);
  // Areas are learned by port intelligence, started below; requests come once the service listens.
  registerPortRoutes(app, { index: ports, area: (port) => portIntelligence.areas.of(port) });
  registerSeaRouteRoutes(app, { ports });
  // Tides, weather and arrival predictions at the ports; predictVesselArrival gives any caller a weather-aware ETA.
  const weather = createWeatherSource(config, log);
  const predictVesselArrival = (request: ArrivalRequest) => predictArrival(request, { weather, track: readTrack });
  registerTideRoutes(app, { ports, stations: loadTideStations });
  const weatherThresholds = new PortWeatherThresholdStore(database);
  registerWeatherRoutes(app, { ports, weather, thresholds: weatherThresholds });
  registerEtaRoutes(app, { ports, store, predict: predictVesselArrival });
  // Port calls, berths, expected arrivals and availability, fed by every vessel change. They read
  // the port data, as voyage watchers do: the changes heard before it has loaded wait for it, in
  // order. The streams and the other instances have them at once, on the bus.
  const forPorts = new HeldChanges<Change>(log, (change) => {
    portIntelligence.observe(change);
    if (change.static) watch.voyageChanged(change.vessel);
  });
  const heard = (change: Change) => {
    // The vessel object stays as the change left it until the slice of changes is applied, when
    // the in-process bus delivers it (changes.ts); NATS and Redis take it as it is now.
    void bus.publish(vesselChanges, { ...change, reader });
    forPorts.heard(change);
  };
  const portIntelligence = startPortIntelligence({
    app, database, bus, index: ports, data: portData.loaded, reference, paths: PORT_AREA_PATHS, caughtUp: () => forPorts.release(), store, log,
    async predictor(vessel, port) {
      const predicted = await predictVesselArrival({ vessel, port });
      return predicted.ok ? { eta: predicted.prediction.eta, distance_nm: predicted.prediction.distance_nm } : null;
    },
  });
  watch.attach({
    ports, areas: portIntelligence.areas, destinations, vessels: store, weather, thresholds: weatherThresholds,
    predict: predictVesselArrival, stations: loadTideStations, feeds: () => ingest.status.feeds,
  }, Promise.all([portIntelligence.loaded, seaLanes.loaded]));
  // After a failed load the changes go on all the same (what reads the ports then answers 503).
  portIntelligence.loaded.catch(() => forPorts.release());
  app.addHook('onClose', () => portIntelligence.close());

  readiness.register('ais', async (): Promise<HealthResult> => {
    const { feeds, pipelines, recorder, ingest: counters } = ingest.status;
    const failing = feeds.filter((s) => s.state === 'failed' || s.state === 'reconnecting');
    const failure = ingest.failure;
    const state = failure !== null ? 'down' : recorder.consecutive_failures > 0 || failing.length > 0 ? 'degraded' : 'up';
    return {
      state,
      detail: { vessels: store.size, live_positions: store.liveCount, feeds, pipelines, recorder, ingest: { threaded, failure, ...counters } },
    };
  });
  registerMetrics(context, store, () => ingest);
  // Ingest falling behind sheds development keys, so the API keeps its latency (README "Threads").
  context.addOverloadSignal(ingestOverload(() => ingest.status));

  // A configured feed that cannot run stops the start-up. The simulator, which needs no
  // configuration, sets sail once the server listens: its set-up (sea-route network, land, first
  // trips) then does not hold up the start.
  app.addHook('onReady', async () => {
    ingest = await starting;
    log.info({ threaded }, threaded ? 'AIS ingest runs on a thread of its own' : 'AIS ingest runs on the serving thread');
    ingest.onChange(heard);
    try {
      await ingest.startFeeds();
    } catch (error) {
      await ingest.close().catch(() => undefined);
      // A feed that cannot run at all (a missing file, a port in use) is a fault of the configuration.
      throw new ConfigError([`AIS_FEEDS: ${(error as Error).message}`]);
    }
  });
  app.addHook('onClose', async () => (await starting.catch(() => null))?.close());
  app.addHook('onListen', () => ingest.startSimulator());
  const housekeeping = setInterval(() => store.expire(Date.now() - staleAfterMs), HOUSEKEEPING_MS).unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));
};

function registerMetrics(context: FeatureContext, store: VesselStore, link: () => IngestLink): void {
  const registers = [context.metrics];
  // Counters are read from the ingest core's latest status when scraped.
  new Counter({
    name: 'lamis_ais_lines_total', help: 'NMEA lines received, by feed', labelNames: ['feed', 'source'], registers,
    collect() {
      this.reset();
      for (const c of link().status.pipelines) this.inc({ feed: c.feed, source: c.source }, c.lines);
    },
  });
  new Counter({
    name: 'lamis_ais_messages_total', help: 'AIS messages decoded (or received decoded), by feed and message type', labelNames: ['feed', 'type'], registers,
    collect() {
      this.reset();
      for (const c of link().status.pipelines) {
        for (const [type, count] of Object.entries(c.messagesByType)) this.inc({ feed: c.feed, type }, count);
        if (c.decoded) this.inc({ feed: c.feed, type: 'decoded' }, c.decoded);
      }
    },
  });
  new Counter({
    name: 'lamis_ais_rejected_lines_total', help: 'NMEA lines rejected, by feed and reason', labelNames: ['feed', 'reason'], registers,
    collect() {
      this.reset();
      for (const c of link().status.pipelines) for (const reason of AIS_REJECT_REASONS) this.inc({ feed: c.feed, reason }, c.rejected[reason]);
    },
  });
  new Counter({
    name: 'lamis_ais_positions_coalesced_total', registers,
    help: 'Position changes merged into a later one of the same vessel while the serving thread was behind (the earlier position was not passed on)',
    collect() {
      this.reset();
      this.inc(link().status.ingest.coalesced);
    },
  });
  new Counter({
    name: 'lamis_ais_lines_shed_total', help: 'Lines of feeds that cannot wait, dropped while the ingest queue was past its bound', registers,
    collect() {
      this.reset();
      this.inc(link().status.ingest.shed_lines);
    },
  });
  new Gauge({
    name: 'lamis_ais_backlog_lines', help: 'Lines received and waiting to be decoded', registers,
    collect() {
      this.set(link().status.ingest.backlog_lines);
    },
  });
  // The ingest thread's heap is not in the process's nodejs_heap_* figures, which are the serving thread's.
  const ingestHeap = onceAScrape(() => link().heap().catch(() => null));
  new Gauge({
    name: 'lamis_ais_ingest_heap_size_used_bytes', help: 'Heap the AIS ingest thread uses (0 while ingest runs on the serving thread)', registers,
    async collect() {
      this.set((await ingestHeap())?.used ?? 0);
    },
  });
  new Gauge({
    name: 'lamis_ais_ingest_heap_size_total_bytes', help: 'Heap the AIS ingest thread holds, in use or not (0 while ingest runs on the serving thread)', registers,
    async collect() {
      this.set((await ingestHeap())?.total ?? 0);
    },
  });
  new Gauge({
    name: 'lamis_vessels', help: 'Vessels known, and those with a live (not stale) position', labelNames: ['state'], registers,
    collect() {
      this.set({ state: 'known' }, store.size);
      this.set({ state: 'live' }, store.liveCount);
    },
  });
}
