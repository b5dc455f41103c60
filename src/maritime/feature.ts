// The maritime feature: AIS feeds into live vessel state, recorded to storage, announced on the
// bus, served over REST, and accounted for in /readyz and /metrics.
import { Counter, Gauge } from 'prom-client';
import { OrganisationGrants } from '../accounts/index.ts';
import type { Feature, FeatureContext } from '../platform/feature.ts';
import type { HealthResult } from '../platform/health.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { topic } from '../platform/bus/index.ts';
import { AIS_REJECT_REASONS } from './ais/index.ts';
import { createFeed, type Feed, type FeedLogger, type FeedSpec } from './feeds/index.ts';
import { createSimulatorFeed } from './feeds/simulator/feed.ts';
import { registerUploadRoute } from './feeds/upload.routes.ts';
import { predictArrival, registerEtaRoutes, type ArrivalRequest } from './eta/index.ts';
import { registerPortRoutes } from './ports/ports.routes.ts';
import { registerSeaRouteRoutes } from './sea-routes/routes.routes.ts';
import { loadPorts } from './ports/ports.ts';
import { startPortIntelligence } from './ports/service.ts';
import { registerTideRoutes } from './tides/tides.routes.ts';
import { loadTideStations } from './tides/index.ts';
import { registerVesselRoutes } from './vessels/vessels.routes.ts';
import { AisIngest } from './vessels/ingest.ts';
import { VesselRecorder } from './vessels/recorder.ts';
import { VesselRepository } from './vessels/repository.ts';
import { VesselStore, type Change } from './vessels/store.ts';
import { createWeatherSource, PortWeatherThresholdStore, registerWeatherRoutes } from './weather/index.ts';
import { startAisStream } from './stream/server.ts';
import type { MaritimeSettings } from './settings.ts';
import type { MaritimeWatch } from './watch.ts';
import { createDestinationMatcher } from './ports/destination.ts';
import { regionOf } from './regions.ts';

type Settings = PlatformSettings & MaritimeSettings;

/** Every change to a vessel, for the stream and other features; by region (regions.ts). */
export const vesselChanges = topic<Change>('maritime.vessels', regionOf);

/** How often stale positions leave the live index and stuck multi-sentence groups are dropped. */
const HOUSEKEEPING_MS = 10_000;

/** The feeds the configuration asks for, the simulator among them when it should run. */
function plannedFeeds(context: FeatureContext<Settings>, log: FeedLogger): Feed[] {
  const { config } = context;
  const feeds = config.aisFeeds.map((spec: FeedSpec) => createFeed(spec, { aisstreamApiKey: config.aisstreamApiKey, onLog: log }));
  const simulate = config.aisSimulator === 'on' || (config.aisSimulator === 'auto' && feeds.length === 0);
  if (simulate) feeds.push(createSimulatorFeed({ vessels: config.aisSimulatorVessels, onLog: log }));
  return feeds;
}

/** `watch`: maritime answers for the intelligence engine, attached here once the services run. */
export const maritime = (watch: MaritimeWatch): Feature<Settings> => async (context) => {
  const { app, config, database, bus, readiness, logger } = context;
  const log = logger.child({ feature: 'maritime' });
  const staleAfterMs = config.aisStaleMinutes * 60_000;

  const store = new VesselStore();
  const repository = new VesselRepository(database);
  const restored = await repository.loadVessels();
  const freshAfter = Date.now() - staleAfterMs;
  for (const vessel of restored) store.restore(vessel, freshAfter);
  if (restored.length) log.info({ vessels: restored.length, live: store.liveCount }, 'vessel state restored from storage');

  const recorder = new VesselRecorder({
    repository,
    retentionMs: config.aisTrackRetentionHours * 3_600_000,
    onError: (error, during) => log.error({ err: error, during }, 'vessel recording failed; the batch is kept for the next try'),
  });
  const ingest = new AisIngest(store);
  ingest.onChange((change: Change) => {
    recorder.record(change);
    void bus.publish(vesselChanges, structuredClone(change));
  });

  const feedLog: FeedLogger = (level, message, detail) => log[level](detail, message);
  const feeds = plannedFeeds(context, feedLog);

  /** Track points of one vessel in [from, to], the ones still waiting to be written included. */
  const readTrack = async (mmsi: number, from: number, to: number, limit: number) => {
    await recorder.flush();
    return repository.track(mmsi, from, to, limit);
  };
  registerVesselRoutes(app, { store, track: readTrack });
  const grants = new OrganisationGrants(database);
  registerUploadRoute(app, ingest, async (orgId) => (await grants.of(orgId)).ais_upload === 'shared');
  // Fed from the bus, so with NATS or Redis a change ingested on any instance reaches streams on all
  // of them; each instance takes the regions its streams watch.
  const stream = await startAisStream({
    app,
    metrics: context.metrics,
    publicUrl: config.publicUrl,
    changes: (handler) => bus.subscribeParts(vesselChanges, handler),
    heartbeatSec: config.streamHeartbeatSec,
    softLimitBytes: config.streamBufferKb * 1024,
    hardLimitBytes: config.streamBufferMaxKb * 1024,
    slowCloseMs: config.streamSlowCloseSec * 1000,
  });
  // Before the server stops listening: open streams hold connections it would wait for.
  app.addHook('preClose', () => stream.close());

  const ports = await loadPorts({ dataDir: config.dataDir });
  for (const problem of ports.problems) log.warn({ problem }, 'imported port data is unreadable and left out');
  log.info({ ports: ports.meta.ports, wpi: ports.meta.wpi?.built_in === false ? ports.meta.wpi.origin : 'built in', unlocode: ports.meta.unlocode !== null }, 'port index loaded');
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
  // Port calls, berths, expected arrivals and availability, fed by every vessel change.
  const destinations = createDestinationMatcher(ports);
  const portIntelligence = await startPortIntelligence({
    app, database, bus, index: ports, destinations, store, log,
    async predictor(vessel, port) {
      const predicted = await predictVesselArrival({ vessel, port });
      return predicted.ok ? { eta: predicted.prediction.eta, distance_nm: predicted.prediction.distance_nm } : null;
    },
  });
  ingest.onChange((change: Change) => portIntelligence.observe(change));
  watch.attach({
    ports, areas: portIntelligence.areas, destinations, vessels: store, weather, thresholds: weatherThresholds,
    predict: predictVesselArrival, stations: loadTideStations, feeds: () => feeds.map((feed) => feed.status()),
  });
  ingest.onChange((change: Change) => {
    if (change.static) watch.voyageChanged(change.vessel);
  });
  app.addHook('onClose', () => portIntelligence.close());

  readiness.register('ais', async (): Promise<HealthResult> => {
    const statuses = feeds.map((feed) => feed.status());
    const recording = recorder.stats();
    const failing = statuses.filter((s) => s.state === 'failed' || s.state === 'reconnecting');
    const state = recording.consecutive_failures > 0 || failing.length > 0 ? 'degraded' : 'up';
    return {
      state,
      detail: {
        vessels: store.size,
        live_positions: store.liveCount,
        feeds: statuses,
        pipelines: ingest.counts(),
        recorder: recording,
      },
    };
  });
  registerMetrics(context, store, ingest);

  recorder.start();
  const start = async (feed: Feed) => {
    await feed.start({
      lines: (lines, receivedAt) => ingest.lines(feed.id, feed.source, lines, receivedAt),
      messages: (messages, receivedAt) => ingest.messages(feed.id, feed.source, messages, receivedAt),
    });
    log.info({ feed: feed.id, source: feed.source }, 'AIS feed started');
  };
  // A configured feed that cannot run stops the start-up. The simulator, which needs no
  // configuration, sets sail once the server listens: its set-up (sea-route network, land, first
  // trips) then does not hold up the start.
  for (const feed of feeds) if (feed.kind !== 'simulator') await start(feed);
  const simulator = feeds.find((feed) => feed.kind === 'simulator');
  if (simulator) app.addHook('onListen', () => start(simulator));
  const housekeeping = setInterval(() => {
    const now = Date.now();
    ingest.expire(now);
    store.expire(now - staleAfterMs);
  }, HOUSEKEEPING_MS).unref();

  app.addHook('onClose', async () => {
    clearInterval(housekeeping);
    await Promise.all(feeds.map((feed) => feed.stop()));
    await recorder.close();
  });
};

function registerMetrics(context: FeatureContext, store: VesselStore, ingest: AisIngest): void {
  const registers = [context.metrics];
  // Counters are read from the pipelines' own counts when scraped.
  new Counter({
    name: 'lamis_ais_lines_total', help: 'NMEA lines received, by feed', labelNames: ['feed', 'source'], registers,
    collect() {
      this.reset();
      for (const c of ingest.counts()) this.inc({ feed: c.feed, source: c.source }, c.lines);
    },
  });
  new Counter({
    name: 'lamis_ais_messages_total', help: 'AIS messages decoded (or received decoded), by feed and message type', labelNames: ['feed', 'type'], registers,
    collect() {
      this.reset();
      for (const c of ingest.counts()) {
        for (const [type, count] of Object.entries(c.messagesByType)) this.inc({ feed: c.feed, type }, count);
        if (c.decoded) this.inc({ feed: c.feed, type: 'decoded' }, c.decoded);
      }
    },
  });
  new Counter({
    name: 'lamis_ais_rejected_lines_total', help: 'NMEA lines rejected, by feed and reason', labelNames: ['feed', 'reason'], registers,
    collect() {
      this.reset();
      for (const c of ingest.counts()) for (const reason of AIS_REJECT_REASONS) this.inc({ feed: c.feed, reason }, c.rejected[reason]);
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
