// What the service and other features may use of zones: the feature, its migrations, the store and
// the topic of its changes (the zone watch keeps every zone in memory; the engine asks who has
// zones), and the geometry questions the watcher asks (is a position inside, which box holds the zone).
export { zones } from './feature.ts';
export { zonesMigrations } from './migrations/index.ts';
export { compileGeometry, contains, crossing, type CompiledGeometry, type Crossing, type ZoneGeometry } from './geometry.ts';
export { ZoneStore, type AppliesTo, type OwnedZone, type Zone } from './zones.ts';
export { zoneChanges, type ZoneChange } from './zone-changes.ts';
