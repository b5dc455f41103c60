// Fleet membership changes, announced on the bus so that watchers keeping a fleet in memory (the
// intelligence engine's vessel rules) re-read the vehicle, on every instance: a vehicle was added,
// changed or removed. The message names it only; the fleet store holds what it is now.
import { topic } from '../platform/bus/index.ts';

export interface FleetVehicleChange {
  /** The organisation, or the API key outside any. */
  owner: string;
  vehicle_id: string;
}

export const fleetVehicleChanges = topic<FleetVehicleChange>('fleet.vehicles');
