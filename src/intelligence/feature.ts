// The intelligence engine: rules that watch what organisations plan and raise events about it.
// The landing rules of watched arrivals are evaluated on start; for an airport's arrivals whenever
// its METAR, TAF or NOTAMs are stored or its slots change (`aviation.inputs`); for one arrival when
// it is planned or moved, and its events cleared when it is removed (`fleet.arrivals`); for a
// vehicle's arrivals when the vehicle or its settings change, for the organisation's when its
// settings do (`fleet.vehicles`); and the events of arrivals archived (an hour past the ETA) are
// cleared every minute. Work runs one piece at a time in the order it came. Several instances may
// evaluate the same input: the event store raises each event once.
import type { FleetStore } from '../fleet/index.ts';
import { ArrivalStore, fleetArrivalChanges, fleetVehicleChanges } from '../fleet/index.ts';
import { aviationInputs, type LandingWatch } from '../aviation/index.ts';
import { EventStore } from '../events/index.ts';
import type { Feature } from '../platform/feature.ts';
import { ArrivalStateStore } from './arrival-state.ts';
import { LandingRules } from './landing-rules.ts';

/** How often the events of arrivals archived since are looked for. */
export const ARCHIVE_SWEEP_MS = 60_000;

/** `fleet`: the one fleet store; `landing`: the aviation feature's landing answers (it starts first). */
export const intelligence = (fleet: FleetStore, landing: LandingWatch): Feature => async ({ app, database, bus, logger }) => {
  const log = logger.child({ feature: 'intelligence' });
  const rules = new LandingRules({
    arrivals: new ArrivalStore(database), fleet, landing, events: new EventStore(database, bus), state: new ArrivalStateStore(database),
  });
  let queue: Promise<void> = Promise.resolve();
  const run = (what: Record<string, unknown>, work: () => Promise<void>) => {
    queue = queue.then(work).catch((error: unknown) => log.error({ err: error, ...what }, 'landing rules failed'));
  };
  const unsubscribe = [
    await bus.subscribe(aviationInputs, (input) => run({ icao: input.icao }, () => rules.evaluateAirport(input.icao))),
    await bus.subscribe(fleetArrivalChanges, (change) => run({ arrival_id: change.arrival_id }, () => (change.change === 'deleted'
      ? rules.forget([{ org_id: change.org_id, arrival_id: change.arrival_id }])
      : rules.evaluateArrival(change.org_id, change.vehicle_id, change.arrival_id)))),
    await bus.subscribe(fleetVehicleChanges, (change) => run({ vehicle_id: change.vehicle_id }, () => (change.change === 'deleted' && change.vehicle_id !== null
      ? rules.forgetVehicle(change.org_id, change.vehicle_id)
      : rules.evaluateVehicle(change.org_id, change.vehicle_id)))),
  ];
  run({ icao: null }, () => rules.evaluateAirport(null));
  const sweep = setInterval(() => run({ sweep: 'archived' }, () => rules.sweepArchived()), ARCHIVE_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    for (const stop of unsubscribe) await stop();
    await queue;
  });
};
