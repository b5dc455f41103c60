// What other features may use of the fleet: the vehicle types, looking a vehicle up, and the
// landing profile it brings.
export { openFleetStore } from './feature.ts';
export { landingProfileFor } from './profile.ts';
export { VEHICLE_TYPES } from './vehicles.ts';
export type { FleetStore, FleetVehicle, VehicleType } from './vehicles.ts';
