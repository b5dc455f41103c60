// What other features may use of the fleet: the vehicle types, looking a vehicle up, the
// landing profile it brings, and the fleet routes for signed-in members (which accounts mounts).
export { openFleetStore } from './feature.ts';
export { registerOrganisationFleetRoutes } from './organisation-api.ts';
export { landingProfileFor } from './profile.ts';
export { VEHICLE_TYPES } from './vehicles.ts';
export type { FleetStore, FleetVehicle, VehicleType } from './vehicles.ts';
