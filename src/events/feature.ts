// The events feature: the organisation's events over REST, kept in storage, each real transition
// announced on the bus (`events.changes`) and delivered on the event stream, with the fleet feed's
// `feed` frames.
import type { Feature } from '../platform/feature.ts';
import { registerEventRoutes } from './events.routes.ts';
import { EventStore } from './events.ts';
import type { FeedFrames } from './feed-frames.ts';
import { startEventStream } from './stream.ts';

/** `feed`: where the fleet feed sends the `feed` frames of the owners' streams. */
export const events = (feed: FeedFrames): Feature => async ({ app, config, database, bus }) => {
  const store = new EventStore(database, bus);
  registerEventRoutes(app, store);
  const stream = await startEventStream({ app, bus, store, publicUrl: config.publicUrl, heartbeatSec: config.streamHeartbeatSec, feed });
  // Before the server stops listening: open streams hold connections it would wait for.
  app.addHook('preClose', () => stream.close());
};
