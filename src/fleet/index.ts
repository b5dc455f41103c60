// What the service and other features may use of the fleet: the feature, opening its one store,
// the fleets as landing intelligence asks them, the planned arrivals and a vehicle's landing
// figures the intelligence engine watches with, the topic of vehicle changes, and the fleet's
// migrations.
export { fleet, openFleetStore } from './feature.ts';
export { fleetProfiles, landingProfileFor } from './profile.ts';
export { ArrivalStore, type PlannedArrival } from './arrivals.ts';
export type { Thresholds } from './thresholds.ts';
export type { FleetStore, FleetVessel } from './vehicles.ts';
export { fleetVehicleChanges, type FleetVehicleChange } from './vehicle-changes.ts';
export { fleetMigrations } from './migrations/index.ts';
