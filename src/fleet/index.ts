// What the service and other features may use of the fleet: the feature, opening its one store,
// the fleets as landing intelligence asks them, the planned arrivals and a vehicle's landing
// figures the intelligence engine watches with, the topics announcing fleet changes, the two
// mounts fleet routes hang under (for routes about a fleet that other features serve), and the
// fleet's migrations.
export { fleet, openFleetStore } from './feature.ts';
export { fleetProfiles, landingProfileFor } from './profile.ts';
export { ArrivalStore, WATCH_AFTER_ETA_MS, type PlannedArrival } from './arrivals.ts';
export { fleetArrivalChanges, fleetVehicleChanges, type ArrivalChange, type VehicleChange } from './changes.ts';
export type { Thresholds } from './thresholds.ts';
export { normaliseRegistration, type FleetStore, type FleetVehicle, type FleetVessel, type ListKey as VehicleListKey } from './vehicles.ts';
export { API_KEY_MOUNT, withNote, type FleetMount } from './vehicles.routes.ts';
export { organisationMount } from './organisation-mount.ts';
export { fleetMigrations } from './migrations/index.ts';
