// The events feature: the organisation's events over REST, kept in storage, each real transition
// announced on the bus (`events.changes`) and delivered on the event stream, with the fleet feed's
// `feed` frames; events cleared longer ago than the retention deleted hourly.
import type { Feature } from '../platform/feature.ts';
import { keepFor } from '../platform/retention.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { registerEventRoutes } from './events.routes.ts';
import { EventStore } from './events.ts';
import type { FeedFrames } from './feed-frames.ts';
import type { EventsSettings } from './settings.ts';
import { startEventStream } from './stream.ts';

/** `feed`: where the fleet feed sends the `feed` frames of the owners' streams. */
export const events = (feed: FeedFrames): Feature<PlatformSettings & EventsSettings> => async ({ app, config, database, bus, logger }) => {
  const store = new EventStore(database, bus);
  registerEventRoutes(app, store);
  const stream = await startEventStream({ app, bus, store, publicUrl: config.publicUrl, heartbeatSec: config.streamHeartbeatSec, feed });
  const retention = keepFor(config.eventRetentionDays, 'events', (before) => store.prune(before), logger.child({ feature: 'events' }));
  // Before the server stops listening: open streams hold connections it would wait for.
  app.addHook('preClose', () => stream.close());
  app.addHook('onClose', () => retention.stop());
};
