// The intelligence engine: rules that watch what organisations plan and depend on, and raise events
// about it. Several instances may evaluate the same input: the event store raises each event once.
//
// - Landing rules of watched arrivals and the status of watched airports: on start and whenever an
//   airport's METAR, TAF or NOTAMs are stored or its slots change (`aviation.inputs`), one airport
//   at a time in the order the inputs came; one arrival when it is planned or moved, its events
//   cleared when it is removed (`fleet.arrivals`); a vehicle's arrivals when the vehicle or its
//   settings change, the organisation's when its settings do (`fleet.vehicles`); the events of
//   arrivals archived (an hour past the ETA) are cleared every minute.
// - Watched airports and ports: when added to a watch list (`watchlist.changes`), and every
//   LAMIS_WATCH_INTERVAL_SEC as well (NOTAMs come into force and lapse, the port forecast moves on
//   and has no refresh to announce).
// - Fleet vessels' predictions: each vessel once every LAMIS_PREDICTION_INTERVAL_SEC, spread evenly
//   over it, and when this instance ingests a change of its voyage data (never per position).
// - Vessel rules follow every AIS change (`maritime.vessels`, each once however many instances read
//   its feed) and port call (`maritime.port_calls`) in memory, with the fleets (`fleet.vehicles`)
//   and zones (`zones.changes`) refreshed as they change, and look for silences and expired notices
//   every minute (vessel-rules.ts).
// - Sources organisations depend on: every LAMIS_FEED_CHECK_INTERVAL_SEC.
// - The fleet feed keeps each owner's entries current from the same inputs, the vessels' changes,
//   the events' and the fleets' (fleet-feed.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { MemberGuard } from '../accounts/index.ts';
import type { FleetStore, FleetVessel } from '../fleet/index.ts';
import { API_KEY_MOUNT, ArrivalStore, fleetArrivalChanges, fleetVehicleChanges, organisationMount } from '../fleet/index.ts';
import { aviationInputs, type LandingWatch } from '../aviation/index.ts';
import { EventStore, eventChanges, type FeedFrames } from '../events/index.ts';
import { HeldChanges, portCallEvents, vesselChanges, withoutRepeats, type MaritimeWatch, type VesselChange } from '../maritime/index.ts';
import type { Feature } from '../platform/feature.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { watchListChanges, WatchListStore } from '../watchlist/index.ts';
import { zoneChanges, ZoneStore } from '../zones/index.ts';
import { FeedRules } from './feed-rules.ts';
import { FleetFeed, REFRESH_MS } from './fleet-feed.ts';
import { mountFleetFeedRoutes } from './fleet-feed.routes.ts';
import { ArrivalStateStore } from './arrival-state.ts';
import { LandingRules } from './landing-rules.ts';
import { PredictionRules } from './prediction-rules.ts';
import type { IntelligenceSettings } from './settings.ts';
import { SWEEP_MS, VesselRules } from './vessel-rules.ts';
import { WatchRules } from './watch-rules.ts';

/** What the fleet feed needs besides the rules' inputs: the streams' `feed` frames and the members' guard. */
export interface FleetFeedWiring {
  frames: FeedFrames;
  members: MemberGuard;
}

/** How often the events of arrivals archived since are looked for. */
const ARCHIVE_SWEEP_MS = 60_000;

/** `fleet`: the one fleet store; `landing` and `maritime`: the aviation and maritime features' answers (they start first). */
export const intelligence = (fleet: FleetStore, landing: LandingWatch, maritime: MaritimeWatch, wiring: FleetFeedWiring): Feature<PlatformSettings & IntelligenceSettings> =>
  async ({ app, config, database, bus, logger }) => {
    const log = logger.child({ feature: 'intelligence' });
    const events = new EventStore(database, bus);
    const arrivals = new ArrivalStore(database);
    const watchList = new WatchListStore(database);
    const landingRules = new LandingRules({ arrivals, fleet, landing, events, state: new ArrivalStateStore(database) });
    const watchRules = new WatchRules({ watchList, landing, maritime, events });
    const predictionRules = new PredictionRules({ fleet, maritime, events });
    const zones = new ZoneStore(database);
    const feedRules = new FeedRules({
      fleet, zones, arrivals, watchList, landing, maritime, events,
      limits: { aisMs: config.feedStaleAisSec * 1000, metarMs: config.feedStaleMetarMinutes * 60_000, notamMs: config.feedStaleNotamMinutes * 60_000 },
    });

    /** A chain of evaluations run one after another; a failure is logged and the chain goes on. */
    const serial = () => {
      let queue: Promise<void> = Promise.resolve();
      return {
        run(what: Record<string, unknown>, task: () => Promise<void>) {
          queue = queue.then(task).catch((error: unknown) => log.error({ err: error, ...what }, 'rule evaluation failed'));
        },
        drained: () => queue,
      };
    };
    const airports = serial();
    const watched = serial();
    const predictions = serial();
    const sources = serial();
    const fleetsAndZones = serial();

    const evaluateAirport = (icao: string | null) => {
      airports.run({ rules: 'landing', icao }, () => landingRules.evaluateAirport(icao));
      airports.run({ rules: 'airport_status', icao }, () => watchRules.evaluateAirports(icao));
    };
    const feed = new FleetFeed({ fleet, arrivals, landing, vessels: maritime, events, frames: wiring.frames, log });
    for (const mount of [API_KEY_MOUNT, organisationMount(wiring.members)]) mountFleetFeedRoutes(app, feed, mount);
    const unsubscribe = await Promise.all([
      bus.subscribe(aviationInputs, (input) => {
        evaluateAirport(input.icao);
        feed.airportChanged(input.icao);
      }),
      // A copy from a second instance reading the same feed costs the fleet feed a throttled look, no more.
      bus.subscribe(vesselChanges, (change) => feed.vesselChanged(change)),
      bus.subscribe(eventChanges, (change) => feed.eventChanged(change)),
      bus.subscribe(fleetArrivalChanges, (change) => {
        airports.run({ rules: 'landing', arrival_id: change.arrival_id }, () => (change.change === 'deleted'
          ? landingRules.forget([{ org_id: change.org_id, arrival_id: change.arrival_id }])
          : landingRules.evaluateArrival(change.org_id, change.vehicle_id, change.arrival_id)));
        feed.fleetChanged(change.org_id, change.vehicle_id);
      }),
      bus.subscribe(fleetVehicleChanges, (change) => {
        airports.run({ rules: 'landing', vehicle_id: change.vehicle_id }, () => (change.change === 'deleted' && change.vehicle_id !== null
          ? landingRules.forgetVehicle(change.org_id, change.vehicle_id)
          : landingRules.evaluateVehicle(change.org_id, change.vehicle_id)));
        feed.fleetChanged(change.org_id, change.change === 'created' ? null : change.vehicle_id);
      }),
    ]);
    const feedRefresh = setInterval(() => feed.refresh(), REFRESH_MS).unref();
    evaluateAirport(null);
    const archiveSweep = setInterval(() => airports.run({ rules: 'landing', sweep: 'archived' }, () => landingRules.sweepArchived()), ARCHIVE_SWEEP_MS).unref();

    const evaluateWatched = () => {
      watched.run({ rules: 'airport_status' }, () => watchRules.evaluateAirports(null));
      watched.run({ rules: 'port_weather_hold' }, () => watchRules.evaluatePorts());
    };
    watched.run({ rules: 'port_weather_hold' }, () => watchRules.evaluatePorts());
    unsubscribe.push(await bus.subscribe(watchListChanges, ({ type, target }) => (type === 'airport'
      ? watched.run({ rules: 'airport_status', icao: target }, () => watchRules.evaluateAirports(target))
      : watched.run({ rules: 'port_weather_hold', port_id: target }, () => watchRules.evaluatePorts(target)))));
    const watchTimer = setInterval(evaluateWatched, config.watchIntervalSec * 1000).unref();

    // The fleet's vessels by MMSI, as of the last cycle: a voyage change of any other vessel costs one look-up.
    let fleetVessels = new Map<number, FleetVessel[]>();
    const pending = new Set<string>();
    const evaluateVessel = (vessel: FleetVessel) => {
      if (pending.has(vessel.vehicle_id)) return;
      pending.add(vessel.vehicle_id);
      predictions.run({ rules: 'prediction', vehicle_id: vessel.vehicle_id }, () => {
        pending.delete(vessel.vehicle_id);
        return predictionRules.evaluate(vessel);
      });
    };
    // A fleet vessel's voyage data as last heard: a change re-evaluates it at once; the first
    // hearing (every vessel after a start) waits for its turn in the cycle, so a start does not
    // predict every voyage of the fleet at once.
    const voyages = new Map<number, string>();
    const stopVoyages = maritime.onVoyageChange((vessel) => {
      const ofFleets = fleetVessels.get(vessel.mmsi);
      if (ofFleets === undefined) return;
      const voyage = `${vessel.destination}|${vessel.draught}|${vessel.eta}`;
      const before = voyages.get(vessel.mmsi);
      voyages.set(vessel.mmsi, voyage);
      if (before !== undefined && before !== voyage) for (const fleetVessel of ofFleets) evaluateVessel(fleetVessel);
    });
    const stopping = new AbortController();
    const cycleMs = config.predictionIntervalSec * 1000;
    const predictionCycles = (async () => {
      while (!stopping.signal.aborted) {
        const vessels = await fleet.fleetVessels();
        const byMmsi = new Map<number, FleetVessel[]>();
        for (const vessel of vessels) byMmsi.set(vessel.mmsi, [...(byMmsi.get(vessel.mmsi) ?? []), vessel]);
        fleetVessels = byMmsi;
        if (vessels.length === 0) await sleep(cycleMs, undefined, { signal: stopping.signal, ref: false });
        // Spread over the interval, and never more than half a core: a large fleet stretches the cycle.
        for (const vessel of vessels) {
          const started = performance.now();
          evaluateVessel(vessel);
          await predictions.drained();
          await sleep(Math.max(cycleMs / vessels.length, performance.now() - started), undefined, { signal: stopping.signal, ref: false });
        }
      }
    })().catch((error: unknown) => {
      if (!stopping.signal.aborted) log.error({ err: error }, 'prediction cycle stopped');
    });

    // A service built without the maritime feature has no vessels to watch.
    let vesselRules: VesselRules | null = null;
    let vesselSweep: NodeJS.Timeout | undefined;
    if (maritime.attached) {
      const watching = new VesselRules({
        database, bus, fleet, zones, watch: maritime,
        onError: (error, edge) => log.error({ err: error, edge: edge.action, owner: edge.owner }, 'vessel event not stored'),
      });
      vesselRules = watching;
      await watching.start();
      log.info({ fleet_vessels: watching.fleetSize }, 'vessel rules started');
      // The rules read port areas and destinations: what they hear before the port data has loaded waits for it.
      const held = new HeldChanges<VesselChange>(log, (change) => watching.observe(change));
      void maritime.loaded().then(() => held.release());
      unsubscribe.push(
        await bus.subscribe(vesselChanges, withoutRepeats(held.heard)),
        await bus.subscribe(portCallEvents, (event) => watching.portCall(event)),
        await bus.subscribe(fleetVehicleChanges, (change) => fleetsAndZones.run({ rules: 'vessel', vehicle_id: change.vehicle_id }, () => watching.fleetChanged(change))),
        await bus.subscribe(zoneChanges, (change) => fleetsAndZones.run({ rules: 'vessel', zone_id: change.zone_id }, () => watching.zoneChanged(change))),
      );
      vesselSweep = setInterval(() => watching.sweep(), SWEEP_MS).unref();
    }

    const feedTimer = setInterval(() => sources.run({ rules: 'feed_stale' }, () => feedRules.evaluate()), config.feedCheckIntervalSec * 1000).unref();

    app.addHook('onClose', async () => {
      clearInterval(watchTimer);
      clearInterval(feedTimer);
      clearInterval(feedRefresh);
      clearInterval(archiveSweep);
      clearInterval(vesselSweep);
      stopping.abort();
      stopVoyages();
      await Promise.all(unsubscribe.map((stop) => stop()));
      await Promise.all([predictionCycles, airports.drained(), watched.drained(), predictions.drained(), sources.drained(), fleetsAndZones.drained()]);
      await vesselRules?.settled();
      await feed.close();
    });
  };
