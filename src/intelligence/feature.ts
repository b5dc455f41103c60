// The intelligence engine: rules that watch what organisations plan and raise events about it.
// Landing rules evaluate watched arrivals on start and whenever an airport's METAR, TAF or NOTAMs
// are stored (`aviation.inputs`), one airport at a time in the order the inputs came. Vessel rules
// follow every AIS change (`maritime.vessels`) and port call (`maritime.port_calls`) in memory,
// with the fleets (`fleet.vehicles`) and zones (`zones.changes`) refreshed as they change, and
// look for silences and expired notices every minute. Several instances may evaluate the same
// input: the event store raises each event once.
import type { FleetStore } from '../fleet/index.ts';
import { ArrivalStore, fleetVehicleChanges } from '../fleet/index.ts';
import { aviationInputs, type LandingWatch } from '../aviation/index.ts';
import { EventStore } from '../events/index.ts';
import { portCallEvents, vesselChanges, type VesselWatch } from '../maritime/index.ts';
import type { Feature } from '../platform/feature.ts';
import { zoneChanges, ZoneStore } from '../zones/index.ts';
import { LandingRules } from './landing-rules.ts';
import { SWEEP_MS, VesselRules } from './vessel-rules.ts';

/**
 * `fleet`: the one fleet store; `landing`: the aviation feature's landing answers; `vessels`: the
 * maritime feature's vessel picture (both features start first).
 */
export const intelligence = (fleet: FleetStore, landing: LandingWatch, vessels: VesselWatch): Feature => async ({ app, database, bus, logger }) => {
  const log = logger.child({ feature: 'intelligence' });
  const events = new EventStore(database, bus);
  const rules = new LandingRules({ arrivals: new ArrivalStore(database), fleet, landing, events });
  // Landing evaluations (which may wait for weather sources) and fleet and zone refreshes each keep their own order.
  const landingQueue = new InOrder((error, what) => log.error({ err: error, ...what }, 'landing rules failed'));
  const refreshQueue = new InOrder((error, what) => log.error({ err: error, ...what }, 'vessel rules refresh failed'));
  const unsubscribes = [await bus.subscribe(aviationInputs, (input) => landingQueue.run(() => rules.evaluateAirport(input.icao), { icao: input.icao }))];
  landingQueue.run(() => rules.evaluateAirport(null), { icao: null });

  let vesselRules: VesselRules | null = null;
  let sweep: NodeJS.Timeout | undefined;
  // A service built without the maritime feature has no vessels to watch.
  if (vessels.attached) {
    const watching = new VesselRules({
      database, bus, fleet, zones: new ZoneStore(database), watch: vessels,
      onError: (error, edge) => log.error({ err: error, edge: edge.action, owner: edge.owner }, 'vessel event not stored'),
    });
    vesselRules = watching;
    await watching.start();
    log.info({ fleet_vessels: watching.fleetSize }, 'vessel rules started');
    unsubscribes.push(
      await bus.subscribe(vesselChanges, (change) => watching.observe(change)),
      await bus.subscribe(portCallEvents, (event) => watching.portCall(event)),
      await bus.subscribe(fleetVehicleChanges, (change) => refreshQueue.run(() => watching.fleetChanged(change), { vehicle_id: change.vehicle_id })),
      await bus.subscribe(zoneChanges, (change) => refreshQueue.run(() => watching.zoneChanged(change), { zone_id: change.zone_id })),
    );
    sweep = setInterval(() => watching.sweep(), SWEEP_MS).unref();
  }
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    for (const unsubscribe of unsubscribes) await unsubscribe();
    await landingQueue.idle();
    await refreshQueue.idle();
    await vesselRules?.settled();
  });
};

/** Tasks run one after another in the order given; a failing one is reported and the next still runs. */
class InOrder {
  #tail: Promise<void> = Promise.resolve();
  readonly #onError: (error: unknown, what: Record<string, unknown>) => void;

  constructor(onError: (error: unknown, what: Record<string, unknown>) => void) {
    this.#onError = onError;
  }

  run(task: () => Promise<void>, what: Record<string, unknown>): void {
    this.#tail = this.#tail.then(task).catch((error: unknown) => this.#onError(error, what));
  }

  idle(): Promise<void> {
    return this.#tail;
  }
}
