// The intelligence engine: rules that watch what organisations plan and raise events about it, and
// the fleet feed. The landing rules of watched arrivals are evaluated on start and whenever an
// airport's METAR, TAF or NOTAMs are stored (`aviation.inputs`), one airport at a time in the order
// the inputs came. Several instances may evaluate the same input: the event store raises each
// event once. The fleet feed keeps each owner's entries current from the same inputs, the vessels'
// changes, the events' and the fleets' (fleet-feed.ts).
import type { MemberGuard } from '../accounts/index.ts';
import type { FleetStore } from '../fleet/index.ts';
import { API_KEY_MOUNT, ArrivalStore, fleetChanges, organisationMount } from '../fleet/index.ts';
import { aviationInputs, type LandingWatch } from '../aviation/index.ts';
import { EventStore, eventChanges, type FeedFrames } from '../events/index.ts';
import { vesselChanges, type VesselWatch } from '../maritime/index.ts';
import type { Feature } from '../platform/feature.ts';
import { FleetFeed, REFRESH_MS } from './fleet-feed.ts';
import { mountFleetFeedRoutes } from './fleet-feed.routes.ts';
import { LandingRules } from './landing-rules.ts';

/** What the fleet feed needs besides the rules' inputs: the vessels' voyages, the streams' `feed` frames, the members' guard. */
export interface FleetFeedWiring {
  vessels: VesselWatch;
  frames: FeedFrames;
  members: MemberGuard;
}

/** `fleet`: the one fleet store; `landing`: the aviation feature's landing answers (it starts first). */
export const intelligence = (fleet: FleetStore, landing: LandingWatch, wiring: FleetFeedWiring): Feature => async ({ app, database, bus, logger }) => {
  const log = logger.child({ feature: 'intelligence' });
  const arrivals = new ArrivalStore(database);
  const events = new EventStore(database, bus);
  const rules = new LandingRules({ arrivals, fleet, landing, events });
  let queue: Promise<void> = Promise.resolve();
  const evaluate = (icao: string | null) => {
    queue = queue.then(() => rules.evaluateAirport(icao)).catch((error: unknown) => log.error({ err: error, icao }, 'landing rules failed'));
  };
  const feed = new FleetFeed({ fleet, arrivals, landing, vessels: wiring.vessels, events, frames: wiring.frames, log });
  for (const mount of [API_KEY_MOUNT, organisationMount(wiring.members)]) mountFleetFeedRoutes(app, feed, mount);
  const unsubscribe = await Promise.all([
    bus.subscribe(aviationInputs, (input) => {
      evaluate(input.icao);
      feed.airportChanged(input.icao);
    }),
    bus.subscribe(vesselChanges, (change) => feed.vesselChanged(change)),
    bus.subscribe(eventChanges, (change) => feed.eventChanged(change)),
    bus.subscribe(fleetChanges, (change) => feed.fleetChanged(change)),
  ]);
  const refresh = setInterval(() => feed.refresh(), REFRESH_MS).unref();
  evaluate(null);
  app.addHook('onClose', async () => {
    clearInterval(refresh);
    await Promise.all(unsubscribe.map((stop) => stop()));
    await queue;
    await feed.close();
  });
};
