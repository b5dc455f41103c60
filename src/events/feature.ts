// The events feature: the organisation's events over REST, kept in storage, each real transition
// announced on the bus (`events.changes`) and delivered on the event stream.
import type { Feature } from '../platform/feature.ts';
import { registerEventRoutes } from './events.routes.ts';
import { EventStore } from './events.ts';
import { startEventStream } from './stream.ts';

export const events: Feature = async ({ app, config, database, bus }) => {
  const store = new EventStore(database, bus);
  registerEventRoutes(app, store);
  const stream = await startEventStream({ app, bus, store, publicUrl: config.publicUrl, heartbeatSec: config.streamHeartbeatSec });
  // Before the server stops listening: open streams hold connections it would wait for.
  app.addHook('preClose', () => stream.close());
};
