// What the service and other features may use of zones: the feature, its migrations, the store
// (the intelligence engine asks who has zones), and the geometry questions the watcher asks (is a
// position inside, did a move enter or leave).
export { zones } from './feature.ts';
export { zonesMigrations } from './migrations/index.ts';
export { contains, crossing, type Crossing, type ZoneGeometry } from './geometry.ts';
export { ZoneStore, type AppliesTo, type Zone } from './zones.ts';
