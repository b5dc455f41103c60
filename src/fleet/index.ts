// What the service and other features may use of the fleet: the feature, opening its one store,
// the fleets as landing intelligence asks them, and the fleet's migrations.
export { fleet, openFleetStore } from './feature.ts';
export { fleetProfiles } from './profile.ts';
export type { FleetStore } from './vehicles.ts';
export { fleetMigrations } from './migrations/index.ts';
