// What changed in a fleet, for rules that depend on it (the intelligence engine): planned arrivals
// created, moved or removed, and vehicles or notification settings changed. Each message names the
// owner and what changed, never the vehicle's fields: a subscriber reads what it needs.
import { topic } from '../platform/bus/index.ts';

export interface ArrivalChange {
  org_id: string;
  vehicle_id: string;
  arrival_id: string;
  change: 'created' | 'rescheduled' | 'deleted';
}

/** Planned arrivals created, given a new ETA, or removed. */
export const fleetArrivalChanges = topic<ArrivalChange>('fleet.arrivals');

export interface VehicleChange {
  org_id: string;
  /** null: the organisation-wide notification settings, which apply to every vehicle. */
  vehicle_id: string | null;
  /** `settings`: the notification settings changed; the others: the vehicle itself. */
  change: 'created' | 'updated' | 'deleted' | 'settings';
}

/** Vehicles created, changed or removed, and notification settings changed. */
export const fleetVehicleChanges = topic<VehicleChange>('fleet.vehicles');
