// The watch list feature: the airports and ports each organisation watches, over REST under
// /v3/watch-list, for API keys. `targets` answers which airports and ports exist (the aviation
// and maritime features' reference data, attached when they start, before this feature serves).
// An entry added is announced (`watchlist.changes`) so the engine judges it at once; an entry removed
// takes its open events with it: nothing would clear them otherwise.
import { EventStore, type EventKind, type EventSubject } from '../events/index.ts';
import type { Feature } from '../platform/feature.ts';
import { watchListChanges } from './changes.ts';
import { registerWatchListRoutes, type WatchTargets } from './watch-list.routes.ts';
import { WatchListStore, type WatchEntry } from './watch-list.ts';

/** The events the intelligence engine raises about a watched airport or port. */
const KIND_OF: Record<WatchEntry['type'], EventKind> = { airport: 'airport.status_changed', port: 'port.weather_hold' };

export const watchList = (targets: WatchTargets): Feature => async ({ app, database, bus }) => {
  const events = new EventStore(database, bus);
  registerWatchListRoutes(app, new WatchListStore(database), targets, {
    async added(owner, entry) {
      await bus.publish(watchListChanges, { org_id: owner, type: entry.type, target: entry.type === 'airport' ? entry.icao : entry.port_id });
    },
    async removed(owner, entry) {
      const subject: EventSubject = entry.type === 'airport' ? { type: 'airport', id: entry.icao } : { type: 'port', id: entry.port_id };
      const open = await events.findOpen(owner, KIND_OF[entry.type], subject);
      if (open) await events.clear(owner, open.id);
    },
  });
};
