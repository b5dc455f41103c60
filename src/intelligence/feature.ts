// The intelligence engine: rules that watch what organisations plan and raise events about it.
// This first slice evaluates the landing rules of watched arrivals on start and whenever an
// airport's METAR, TAF or NOTAMs are stored (`aviation.inputs`), one airport at a time in the order
// the inputs came. Several instances may evaluate the same input: the event store raises each
// event once.
import type { FleetStore } from '../fleet/index.ts';
import { ArrivalStore } from '../fleet/index.ts';
import { aviationInputs, type LandingWatch } from '../aviation/index.ts';
import { EventStore } from '../events/index.ts';
import type { Feature } from '../platform/feature.ts';
import { LandingRules } from './landing-rules.ts';

/** `fleet`: the one fleet store; `landing`: the aviation feature's landing answers (it starts first). */
export const intelligence = (fleet: FleetStore, landing: LandingWatch): Feature => async ({ app, database, bus, logger }) => {
  const log = logger.child({ feature: 'intelligence' });
  const rules = new LandingRules({ arrivals: new ArrivalStore(database), fleet, landing, events: new EventStore(database, bus) });
  let queue: Promise<void> = Promise.resolve();
  const evaluate = (icao: string | null) => {
    queue = queue.then(() => rules.evaluateAirport(icao)).catch((error: unknown) => log.error({ err: error, icao }, 'landing rules failed'));
  };
  const unsubscribe = await bus.subscribe(aviationInputs, (input) => evaluate(input.icao));
  evaluate(null);
  app.addHook('onClose', async () => {
    await unsubscribe();
    await queue;
  });
};
