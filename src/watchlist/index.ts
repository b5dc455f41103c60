// What the service and other features may use of the watch list: the feature, its migrations, the
// store the intelligence engine asks who watches what, and the topic of entries added.
export { watchList } from './feature.ts';
export { watchListMigrations } from './migrations/index.ts';
export { WatchListStore, type WatchEntry, type WatchType } from './watch-list.ts';
export type { WatchTargets } from './watch-list.routes.ts';
export { watchListChanges } from './changes.ts';
