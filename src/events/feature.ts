// The events feature: the organisation's events over REST, kept in storage, each real transition
// announced on the bus (`events.changes`) for the deliveries to come.
import type { Feature } from '../platform/feature.ts';
import { registerEventRoutes } from './events.routes.ts';
import { EventStore } from './events.ts';

export const events: Feature = async ({ app, database, bus }) => {
  registerEventRoutes(app, new EventStore(database, bus));
};
