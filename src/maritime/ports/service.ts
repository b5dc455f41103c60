// Port intelligence as the maritime feature runs it: port calls detected from every vessel change
// and stored, announced on the bus once stored (once, however many instances read the feed); port
// areas learned from the vessels that stop (areas.ts) and stored; the destination index behind
// expected arrivals; berth records; congestion; and their routes.
import { backgroundTurn } from '../../platform/background-turns.ts';
import type { FastifyBaseLogger } from 'fastify';
import { topic, type Bus } from '../../platform/bus/index.ts';
import type { Database } from '../../platform/db/database.ts';
import type { App } from '../../platform/http/app.ts';
import { timeOf } from '../../platform/iso-time.ts';
import type { ReferenceData } from '../../platform/reference-data.ts';
import type { Change, VesselStore } from '../vessels/store.ts';
import { StopClusterStore } from './areas-store.ts';
import { FORGET_DAYS, PortAreas, stopKind } from './areas.ts';
import { registerArrivalRoutes } from './arrivals.routes.ts';
import { cachedPredictor, ExpectedArrivals, type ArrivalPredictor } from './arrivals.ts';
import { availability, HISTORY_DAYS, peakAtBerth } from './availability.ts';
import { registerBerthRoutes } from './berths.routes.ts';
import { BerthStore, capacityOf } from './berths.ts';
import { PortCallStore } from './call-store.ts';
import { registerCallRoutes } from './calls.routes.ts';
import { adoptCall, makesCalls, PortCallDetector, type PortCall, type PortCallEvent } from './calls.ts';
import { registerCongestionRoutes } from './congestion.routes.ts';
import { congestion } from './congestion.ts';
import type { DestinationMatcher } from './destination.ts';
import type { Port, PortIndex } from './model.ts';

/** Arrivals, berthings and departures as they are detected. */
export const portCallEvents = topic<PortCallEvent>('maritime.port_calls');

/** How often calls of vessels gone silent are closed and failed writes retried. */
const HOUSEKEEPING_MS = 60_000;
const DAY_MS = 86_400_000;

export interface PortIntelligenceDeps {
  app: App;
  database: Database;
  bus: Bus;
  /** The port index as the routes read it: while the port data loads, a 503 (reference-data.ts). */
  index: PortIndex;
  /** The port data, once loaded; the port areas are made from it in the background, as reference data. */
  data: Promise<PortData>;
  reference: ReferenceData;
  /** The routes that wait for the port areas while they are made. */
  paths: readonly (string | RegExp)[];
  /**
   * Called once the state is made, before the port areas count as loaded: the vessel changes heard
   * meanwhile are passed on then (to `observe`, among others), so a request let on by the load finds
   * what they brought.
   */
  caughtUp: () => Promise<void>;
  store: VesselStore;
  log: FastifyBaseLogger;
  /** The weather-aware ETA for expected arrivals, when that prediction is available. */
  predictor?: ArrivalPredictor;
}

/** The port data port intelligence works on, loaded. */
export interface PortData {
  index: PortIndex;
  /** Ports named by AIS destinations, over `index`: built once for the feature, as it takes a while. */
  destinations: DestinationMatcher;
}

export interface PortIntelligence {
  /** Every port's area, as calls, congestion and expected arrivals read them; a 503 until they are made. */
  readonly areas: Pick<PortAreas, 'of' | 'portAt'>;
  /** Settles once the port areas are made and the open calls restored; vessel changes are observed from then on. */
  readonly loaded: Promise<unknown>;
  /** Feeds one vessel change through call detection, the port areas and the destination index. */
  observe(change: Change): void;
  /** Waits until every call event and area cluster so far is stored. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Stores call events in order, each as a transition that happens once in storage (an arrival
 * inserted, a berthing or departure recorded on an open call), and announces those it made: when
 * instances read the same feed, whichever stores an event first announces it, and the others'
 * writes change nothing. An arrival another instance stored first is adopted (its id and time) for
 * this instance's later events of the call. A failed write stays queued and is retried by the next
 * event or the housekeeping timer, so storage trouble loses nothing.
 */
export class CallWriter {
  readonly #calls: PortCallStore;
  readonly #announce: (event: PortCallEvent) => void;
  readonly #adopt: (ours: PortCall, stored: PortCall) => void;
  readonly #onError: (error: unknown) => void;
  readonly #queue: { event: PortCallEvent; announce: boolean }[] = [];
  /** Calls another instance stored first, by this instance's id, while open. */
  readonly #adopted = new Map<string, PortCall>();
  #running: Promise<void> | null = null;

  constructor(options: {
    calls: PortCallStore;
    announce: (event: PortCallEvent) => void;
    adopt: (ours: PortCall, stored: PortCall) => void;
    onError: (error: unknown) => void;
  }) {
    this.#calls = options.calls;
    this.#announce = options.announce;
    this.#adopt = options.adopt;
    this.#onError = options.onError;
  }

  /** `announce`: on the bus once stored (not for calls ended because their port is gone). */
  add(event: PortCallEvent, announce = true): void {
    this.#queue.push({ event, announce });
    this.kick();
  }

  kick(): void {
    if (this.#running === null && this.#queue.length > 0) this.#running = this.#drain().finally(() => (this.#running = null));
  }

  async flush(): Promise<void> {
    while (this.#running !== null) await this.#running;
    if (this.#queue.length === 0) return;
    this.kick();
    await this.#running;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const { event, announce } = this.#queue[0]!;
      let made: PortCallEvent | null;
      try {
        made = await this.#store(event);
      } catch (error) {
        this.#onError(error);
        return;
      }
      this.#queue.shift();
      if (made !== null && announce) this.#announce(made);
    }
  }

  /** The event as stored, or null when storage had it already. */
  async #store({ kind, call: ours }: PortCallEvent): Promise<PortCallEvent | null> {
    if (kind === 'arrival') {
      const stored = await this.#calls.arrive(ours);
      if (stored === null) return { kind, call: ours };
      // A newer call elsewhere leaves this one unstored: its berthing and departure change nothing.
      if (stored.id !== ours.id && stored.port_id === ours.port_id) {
        this.#adopted.set(ours.id, stored);
        this.#adopt(ours, stored);
      }
      return null;
    }
    const adopted = this.#adopted.get(ours.id);
    const call = adopted === undefined ? ours : adoptCall(adopted, ours);
    if (kind === 'departure') this.#adopted.delete(ours.id);
    const made = kind === 'berthed' ? await this.#calls.berth(call) : await this.#calls.depart(call);
    return made ? { kind, call } : null;
  }
}

/** What port intelligence makes once the port data has loaded. */
type Live = { index: PortIndex; areas: PortAreas; detector: PortCallDetector; arrivals: ExpectedArrivals };

/**
 * Registers the routes at once; the port areas (a slice of ports a turn of the event loop) and the
 * open calls restored from storage follow once the port data has loaded, and until then what reads
 * them is a 503 (reference_data_loading).
 */
export function startPortIntelligence(deps: PortIntelligenceDeps): PortIntelligence {
  const { app, store, log } = deps;
  const calls = new PortCallStore(deps.database);
  const berths = new BerthStore(deps.database);
  /** Made once the port data has loaded; observed from then on. */
  let live: Live | null = null;
  const writer = new CallWriter({
    calls,
    announce: (event) => void deps.bus.publish(portCallEvents, event),
    // Only a call this instance made can be adopted, and it made none before `live`.
    adopt: (ours, stored) => live?.detector.adopt(ours.mmsi, ours.id, stored),
    onError: (error) => log.error({ err: error }, 'port call not stored; kept for the next try'),
  });
  const clusterStore = new StopClusterStore(deps.database);

  let closed = false;
  let housekeeping: NodeJS.Timeout | undefined;
  // When each vessel restored from storage was last heard, as of the start: the detector is made
  // once the port data has loaded, and the changes heard meanwhile are passed to it after that.
  const heardAtStart = new Map<number, number>();
  for (const vessel of store.all()) if (vessel.position !== null) heardAtStart.set(vessel.mmsi, Date.parse(vessel.position.timestamp));
  const making = deps.reference.load('port areas', deps.paths, async (): Promise<Live> => {
    const data = await deps.data;
    const areas = new PortAreas(data.index, await clusterStore.all(new Date(Date.now() - FORGET_DAYS * DAY_MS).toISOString()));
    await areas.prepare(backgroundTurn);
    const detector = new PortCallDetector(data.index, areas);
    for (const [mmsi, atMs] of heardAtStart) detector.heard(mmsi, atMs);
    const orphans = detector.restore(await calls.open(), (mmsi) => heardAtStart.get(mmsi) ?? null);
    // Calls at ports the port data no longer holds end now, unobserved: nothing can end them later.
    for (const call of orphans) writer.add({ kind: 'departure', call: { ...call, departed_at: new Date().toISOString(), departure_observed: false } }, false);
    if (detector.openCount > 0) log.info({ open_calls: detector.openCount }, 'open port calls restored from storage');
    if (!closed) {
      housekeeping = setInterval(() => {
        const now = Date.now();
        emit(detector.closeLost(now));
        writer.kick();
        areas.forget(now - FORGET_DAYS * DAY_MS);
        void flushClusters().then(() => clusterStore.forget(new Date(now - FORGET_DAYS * DAY_MS).toISOString())).catch((error: unknown) => {
          log.warn({ err: error }, 'forgotten port area clusters not deleted; tried again later');
        });
      }, HOUSEKEEPING_MS).unref();
    }
    live = { index: data.index, areas, detector, arrivals: new ExpectedArrivals(store, detector, data.destinations) };
    await deps.caughtUp();
    return live;
  });
  making.loaded.catch((error: Error) => {
    if (!closed) log.error({ err: error }, 'port areas could not be made: port requests answer 503');
  });
  /** What was made once the port data loaded; a 503 before. */
  const opened = (): Live => making.value;

  /** Writes the clusters changed since the last time; a failed write keeps them for the next. */
  const saveClusters = async () => {
    if (live === null) return;
    const { areas } = live;
    const changed = areas.takeChanged();
    try {
      await clusterStore.save(changed);
    } catch (error) {
      areas.keepChanged(changed);
      log.error({ err: error }, 'port area clusters not stored; kept for the next try');
    }
  };
  let saving: Promise<void> | null = null;
  /** A new stop is stored at once; a stop going on (last seen, radius) waits for housekeeping or the close. */
  const kickSave = () => {
    saving ??= saveClusters().finally(() => (saving = null));
  };
  const flushClusters = async () => {
    await saving;
    await saveClusters();
  };

  /** A stop placed at the port the vessel's destination names (within reach), else at the port of its open call. */
  const learnStop = ({ index, areas, detector, arrivals }: Live, vessel: Change['vessel']) => {
    const position = vessel.position;
    if (position === null || stopKind(position) === null || !makesCalls(vessel)) return;
    const named = arrivals.destinationOf(vessel.mmsi);
    const report = { mmsi: vessel.mmsi, lat: position.lat, lon: position.lon, sog: position.sog, nav_status: position.nav_status, atMs: timeOf(position.timestamp) };
    let learned = named?.status === 'port' ? areas.learn(named.port, report) : null;
    if (learned === null) {
      const open = detector.openFor(vessel.mmsi);
      const port = open === null ? null : index.get(open.call.port_id);
      if (port !== null) learned = areas.learn(port, report);
    }
    if (learned === 'new') kickSave();
  };
  const emit = (events: readonly PortCallEvent[]) => {
    for (const event of events) writer.add(event);
  };

  const history = async (port: Port, fromMs: number, toMs: number) => {
    await writer.flush();
    return calls.overlapping(port.id, new Date(fromMs).toISOString(), new Date(toMs).toISOString());
  };

  const index = deps.index;
  const areas: PortIntelligence['areas'] = {
    of: (port) => opened().areas.of(port),
    portAt: (position) => opened().areas.portAt(position),
  };
  registerBerthRoutes(app, {
    index,
    berths,
    areas: { holds: (port, position, exit) => opened().areas.holds(port, position, exit) },
    async observedPeak(port) {
      const now = Date.now();
      const since = now - HISTORY_DAYS * DAY_MS;
      return peakAtBerth(await history(port, since, now), since, now);
    },
  });
  registerCallRoutes(app, { index, calls, vessels: store, flush: () => writer.flush() });
  registerCongestionRoutes(app, {
    index,
    async congestion(port, days, nowMs, viewer) {
      const { areas, detector } = opened();
      const since = nowMs - Math.max(days, HISTORY_DAYS) * DAY_MS;
      const [recorded, berthCount] = await Promise.all([history(port, since, nowMs), berths.count(port.id, viewer)]);
      const peakSince = nowMs - HISTORY_DAYS * DAY_MS;
      return congestion({
        area: areas.of(port),
        nowMs,
        days,
        inPort: detector.openAt(port.id),
        history: recorded,
        capacity: capacityOf(port, berthCount, peakAtBerth(recorded, peakSince, nowMs)),
        vessel: (mmsi) => store.get(mmsi),
      });
    },
  });
  registerArrivalRoutes(app, {
    index,
    arrivals: (port, nowMs) => opened().arrivals.at(port, nowMs),
    async availability(port, atMs, nowMs, viewer) {
      const { detector, arrivals } = opened();
      const since = nowMs - HISTORY_DAYS * DAY_MS;
      const [recorded, records] = await Promise.all([history(port, Math.min(since, atMs), Math.max(atMs, nowMs)), berths.all(port.id, viewer)]);
      return availability({
        port,
        atMs,
        nowMs,
        berths: records,
        history: recorded,
        inPort: detector.openAt(port.id),
        arrivals: arrivals.at(port, nowMs),
        vessel: (mmsi) => store.get(mmsi),
      });
    },
    predictor: deps.predictor === undefined ? undefined : cachedPredictor(deps.predictor),
    onPredictionError: (error, mmsi, port) => log.warn({ err: error, mmsi, port: port.id }, 'arrival prediction failed; answered without it'),
  });

  return {
    areas,
    loaded: making.loaded,
    observe(change) {
      if (closed || live === null) return;
      live.arrivals.observe(change);
      if (!change.position) return;
      emit(live.detector.observe(change.vessel));
      learnStop(live, change.vessel);
    },
    async flush() {
      await Promise.all([writer.flush(), flushClusters()]);
    },
    /** Stops taking changes and stores what waits (storage closes after the features). */
    async close() {
      closed = true;
      clearInterval(housekeeping);
      await this.flush();
    },
  };
}
