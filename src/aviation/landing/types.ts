// The inputs the landing rules need, declared structurally so that the reference data (airports,
// runways, aircraft types) and fleet profiles fit them without this module importing either.
// Output field names are snake_case because the results go out unchanged in API responses.

import type { Notam } from '../notams/index.ts';

/** Where the aircraft's figures came from. */
export type ProfileSource = 'fleet' | 'aircraft_type' | 'default';

/** One landing direction of a runway, as the reference data gives it (OurAirports-derived). */
export interface RunwayEnd {
  /** Designator as published: "27L", "09", "4R", "H1". */
  ident: string;
  /** Degrees true; null when the data has none. METAR wind is true too. */
  true_heading_deg: number | null;
  lat: number | null;
  lon: number | null;
  elevation_ft: number | null;
  /** Landing starts this far past the start of the runway; null when not known (taken as 0). */
  displaced_threshold_ft: number | null;
  /** Navigation data lists an ILS for this end; null when no navigation data covers the airport. */
  ils: boolean | null;
  /** The end's ILS and other localizers from navigation data. */
  localizers?: readonly EndLocalizer[];
}

/** A localizer serving a runway end (imported navigation data). */
export interface EndLocalizer {
  ident: string;
  /** "ILS" for an ILS of a category; LOC, LDA, SDF, IGS and their "-GS" forms are not an ILS. */
  kind: string;
  category: 'I' | 'II' | 'III' | null;
  frequency_mhz: number;
  course_true_deg: number;
  source: string;
}

export interface Runway {
  id: string | number;
  length_ft: number | null;
  width_ft: number | null;
  surface: string | null;
  paved: boolean | null;
  lighted: boolean | null;
  /** Closed in the reference data (permanently), as opposed to closed by NOTAM. */
  closed: boolean;
  ends: readonly RunwayEnd[];
}

/**
 * The airport fields the rules read. `type` is the OurAirports type (large_airport,
 * medium_airport, small_airport, heliport, seaplane_base, balloonport, closed); null when unknown.
 */
export interface LandingAirport {
  icao: string;
  type: string | null;
  lat: number;
  lon: number;
  runways: readonly Runway[];
}

/** ICAO approach category by threshold speed (A < 91 kt ... E < 211 kt); H for helicopters. */
export type ApproachCategory = 'A' | 'B' | 'C' | 'D' | 'E' | 'H';

/** An aircraft type's or fleet profile's landing figures. */
export interface AircraftProfile {
  designator?: string;
  approach_category: ApproachCategory;
  /** Maximum crosswind component, knots, gusts included. */
  crosswind_limit_kt: number;
  landing_distance_m: number;
  /** Shortest runway the type should plan to land on, metres. */
  min_runway_m: number;
  vehicle_category: string;
}

/** A NOTAM in force at the ETA; only its number, Q code and landing effects are read. */
export type ActiveNotam = Pick<Notam, 'id' | 'q_code' | 'effects'>;
