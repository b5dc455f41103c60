// The landing figures of a fleet vehicle: its aircraft type's, with the operator's own crosswind
// limit and runway need in place of the type's where given. What the landing endpoint uses when
// the registration is in the caller's fleet.
import { aircraftType, CONSERVATIVE_DEFAULTS, LANDING_DISTANCE_FACTOR, type FleetProfiles, type LandingProfile } from '../aviation/index.ts';
import type { FleetStore, FleetVehicle } from './vehicles.ts';

export type FleetLandingProfile = LandingProfile & { designator: string };

/**
 * The vehicle's landing profile; null for a vessel. A type outside the table starts from the
 * conservative defaults of its category (approach category D or H, wake H or M), which fleet
 * validation only lets in with both the crosswind limit and the runway length given.
 */
export function landingProfileFor(vehicle: FleetVehicle): FleetLandingProfile | null {
  if (vehicle.vehicle_type === 'vessel' || vehicle.icao_type === null) return null;
  const known = aircraftType(vehicle.icao_type);
  const base: LandingProfile = known?.vehicle_category === vehicle.vehicle_type ? known : CONSERVATIVE_DEFAULTS[vehicle.vehicle_type];
  const runway = vehicle.min_runway_m;
  return {
    vehicle_category: base.vehicle_category,
    approach_category: base.approach_category,
    wake_category: base.wake_category,
    crosswind_limit_kt: vehicle.crosswind_limit_kt ?? base.crosswind_limit_kt,
    // The landing distance follows a runway override, so the two figures keep the 60 % rule between them.
    landing_distance_m: runway === null ? base.landing_distance_m : Math.floor(runway * LANDING_DISTANCE_FACTOR),
    min_runway_m: runway ?? base.min_runway_m,
    confidence: base.confidence,
    designator: vehicle.icao_type,
  };
}

/** The fleets as landing intelligence asks them: a registration in the caller's fleet brings its vehicle's profile. */
export function fleetProfiles(store: FleetStore): FleetProfiles {
  return {
    async landingProfileOf(owner, registration, category) {
      const vehicle = await store.findByRegistration(owner, registration);
      return vehicle?.vehicle_type === category ? landingProfileFor(vehicle) : null;
    },
  };
}
