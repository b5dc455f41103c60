// Aircraft types by ICAO Doc 8643 designator, with what landing intelligence needs: approach
// category, wake category, a conservative crosswind figure and the landing distance. The rows live
// in aircraft-types-data.ts; this module turns them into API-shaped entries and looks them up.
//
// Every figure here is planning reference data. None is an operational limit: the flight manual of
// the individual aircraft and the operator's procedures always govern.

import type { ApproachCategory, Confidence, FixedWingApproachCategory, RecatEuCategory, VehicleCategory, WakeCategory } from './aircraft-categories.ts';
import { GROUPS } from './aircraft-types-data.ts';
import type { DistanceBasis } from './aircraft-types-data.ts';

export type { ApproachCategory, Confidence, FixedWingApproachCategory, RecatEuCategory, VehicleCategory, WakeCategory } from './aircraft-categories.ts';

/** What the landing logic needs of a vehicle; also the shape of the conservative defaults. */
export type LandingProfile = {
  readonly vehicle_category: VehicleCategory;
  readonly approach_category: ApproachCategory;
  readonly wake_category: WakeCategory;
  /**
   * Conservative crosswind component (kt), gusts included: the maximum demonstrated crosswind
   * from the flight manual where public (the lower of the take-off and landing figures), otherwise
   * the crosswind the certification rules required the type to demonstrate (20 kt for transport
   * aeroplanes, 0.2 × VSO for light aeroplanes, 17 kt for helicopters). Not an operational limit.
   */
  readonly crosswind_limit_kt: number;
  /**
   * Unfactored landing distance (m) at maximum landing mass, sea level, ISA, dry paved runway,
   * from 50 ft above the threshold to a full stop. Where the manufacturer publishes the certified
   * (factored) landing field length instead, as for airliners, this is that length × 0.6.
   * Helicopters have no published runway figure: theirs is a generous allowance by size class.
   */
  readonly landing_distance_m: number;
  /** Runway length (m) for a dispatch-factored landing: landing distance / 0.6, rounded up to 10 m. */
  readonly min_runway_m: number;
  readonly confidence: Confidence;
};

export type AircraftType = LandingProfile & {
  /** ICAO Doc 8643 type designator, upper case (e.g. "B738"). */
  readonly designator: string;
  readonly manufacturer: string;
  readonly model: string;
  /**
   * ICAO Doc 8643 aircraft description: L landplane, S seaplane, A amphibian, H helicopter,
   * G gyrocopter, T tiltrotor; number of engines; J jet, T turboprop/turboshaft, P piston,
   * E electric (e.g. "L2J", "H1P").
   */
  readonly description: string;
  readonly recat_eu?: RecatEuCategory;
  /** Reference landing speed (kt) at maximum landing mass, standing in for ICAO Vat. */
  readonly vref_kt?: number;
  /** The public references the figures come from. */
  readonly source: string;
};

/** Share of the landing distance available that a dispatch-factored landing may use (jets: 60 %). */
export const LANDING_DISTANCE_FACTOR = 0.6;

/** Runway length for a landing distance under the 60 % rule, rounded up to a whole 10 m. */
export function minRunwayForLandingDistance(landingDistanceM: number): number {
  // ld / 0.6 / 10 === ld / 6: integer arithmetic keeps 990 m at exactly 1650 m.
  return Math.ceil(landingDistanceM / 6) * 10;
}

/**
 * ICAO approach category for a threshold speed (PANS-OPS: A below 91 kt, B 91–120, C 121–140,
 * D 141–165, E 166–210). ICAO's table stops at 210 kt; faster speeds stay E, the most demanding
 * category, rather than getting none. Undefined for a speed that is not a positive number.
 */
export function approachCategoryForVat(kt: number): FixedWingApproachCategory | undefined {
  if (!Number.isFinite(kt) || kt <= 0) return undefined;
  if (kt < 91) return 'A';
  if (kt < 121) return 'B';
  if (kt < 141) return 'C';
  if (kt < 166) return 'D';
  return 'E';
}

const FEET = 0.3048;

function landingDistanceM(basis: DistanceBasis, value: number): number {
  switch (basis) {
    case 'field_length_m':
      return Math.round(value * LANDING_DISTANCE_FACTOR);
    case 'distance_ft':
      return Math.round(value * FEET);
    case 'distance_m':
      return value;
  }
}

function build(): readonly AircraftType[] {
  const out: AircraftType[] = [];
  for (const group of GROUPS) {
    for (const row of group.rows) {
      const [designator, model, description, approach, wake, recat, vref, crosswind, distance, confidence] = row;
      const landing = landingDistanceM(group.basis, distance);
      out.push(
        Object.freeze({
          designator,
          manufacturer: group.manufacturer,
          model,
          description,
          vehicle_category: description.startsWith('H') ? 'helicopter' : 'aircraft',
          approach_category: approach,
          wake_category: wake,
          ...(recat === null ? {} : { recat_eu: recat }),
          ...(vref === null ? {} : { vref_kt: vref }),
          crosswind_limit_kt: crosswind,
          landing_distance_m: landing,
          min_runway_m: minRunwayForLandingDistance(landing),
          confidence: confidence === 'P' ? 'published' : 'estimated',
          source: group.source,
        } satisfies AircraftType),
      );
    }
  }
  return Object.freeze(out);
}

/** The table, in data-file order (grouped by manufacturer). */
export const AIRCRAFT_TYPES: readonly AircraftType[] = build();

const BY_DESIGNATOR: ReadonlyMap<string, AircraftType> = new Map(AIRCRAFT_TYPES.map((t) => [t.designator, t]));

/** The entry for an ICAO designator, case-insensitive; undefined when the type is not in the table. */
export function aircraftType(designator: string): AircraftType | undefined {
  return BY_DESIGNATOR.get(designator.trim().toUpperCase());
}

function defaults(profile: Omit<LandingProfile, 'min_runway_m' | 'confidence'>): LandingProfile {
  return Object.freeze({
    ...profile,
    min_runway_m: minRunwayForLandingDistance(profile.landing_distance_m),
    confidence: 'estimated',
  });
}

/**
 * What to assume for a type that is not in the table, per vehicle category. Each figure is at
 * least as demanding as the table's own extremes where that matters for safety:
 * - aircraft: approach category D (the highest in the table), wake H (so traffic behind it gets
 *   the wider spacing), crosswind 15 kt (below every transport-category demonstration minimum of
 *   20 kt), landing distance 1,500 m (longer than the longest entry, a 747-8 or A340-600 at
 *   maximum landing mass), so 2,500 m of runway;
 * - helicopter: category H, wake M, crosswind 15 kt (below the 17 kt every certified helicopter
 *   must handle), landing distance 500 m (the table's heaviest-class allowance), so 840 m.
 */
export const CONSERVATIVE_DEFAULTS: Readonly<Record<VehicleCategory, LandingProfile>> = Object.freeze({
  aircraft: defaults({
    vehicle_category: 'aircraft',
    approach_category: 'D',
    wake_category: 'H',
    crosswind_limit_kt: 15,
    landing_distance_m: 1500,
  }),
  helicopter: defaults({
    vehicle_category: 'helicopter',
    approach_category: 'H',
    wake_category: 'M',
    crosswind_limit_kt: 15,
    landing_distance_m: 500,
  }),
});
