// The compiled airport cache: one JSON file of nested tuples (an airport, its runways, their ends,
// each as a fixed-order array, then its frequencies and navaids), less than half the size of the
// same data as objects and quicker to parse. The header names the cache format, the data package
// release and the OurAirports file (by digest) it was compiled from; a file from another release,
// another OurAirports file or format is stale, one that does not parse or does not have the
// expected shape is corrupt, and both are compiled again rather than trusted. The file is written
// to a temporary name and renamed into place, so a reader never sees half a file.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../platform/files.ts';
import { runwayDesignator } from './airports-compile.ts';
import { AIRPORT_TYPES } from './airports-model.ts';
import type {
  Airport,
  AirportDataMeta,
  AirportDataSource,
  AirportFrequency,
  AirportRecord,
  Navaid,
  Runway,
  RunwayEnd,
} from './airports-model.ts';
import { HEADING_SOURCES } from './headings.ts';
import { isPaved, RUNWAY_SURFACES } from './surfaces.ts';

export const AIRPORT_CACHE_FILE = 'airports.json';
/** Raised whenever the tuples or the rules that fill them change, so old caches are rebuilt. */
export const AIRPORT_CACHE_FORMAT = 2;

export type CacheRejection = 'missing' | 'stale' | 'corrupt';

export type CacheRead =
  | { readonly ok: true; readonly file: string; readonly records: readonly AirportRecord[]; readonly meta: AirportDataMeta }
  | { readonly ok: false; readonly file: string; readonly reason: CacheRejection };

type CacheHeader = {
  readonly format: number;
  readonly source: AirportDataSource;
  readonly compiled_at: string;
  readonly runways: number;
};

export async function readCachedAirports(cacheDir: string, source: AirportDataSource): Promise<CacheRead> {
  const file = join(cacheDir, AIRPORT_CACHE_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { ok: false, file, reason: 'missing' };
  }
  const decoded = decodeAirportCache(text, source);
  return 'reason' in decoded ? { ok: false, file, reason: decoded.reason } : { ok: true, file, ...decoded };
}

/** Writes the cache atomically; false when the folder or file cannot be written. */
export async function writeCachedAirports(
  cacheDir: string,
  records: readonly AirportRecord[],
  meta: AirportDataMeta,
): Promise<boolean> {
  try {
    await writeFileAtomic(join(cacheDir, AIRPORT_CACHE_FILE), encodeAirportCache(records, meta));
    return true;
  } catch {
    return false;
  }
}

export function encodeAirportCache(records: readonly AirportRecord[], meta: AirportDataMeta): string {
  const header: CacheHeader = {
    format: AIRPORT_CACHE_FORMAT,
    source: meta.source,
    compiled_at: meta.compiled_at,
    runways: meta.runways,
  };
  const airports = records.map(airportTuple);
  // One airport per line keeps the file readable with ordinary tools.
  return `{"header":${JSON.stringify(header)},"airports":[\n${airports.map((a) => JSON.stringify(a)).join(',\n')}\n]}\n`;
}

/** A record as the cache holds it: nested fixed-order arrays, ready for `JSON.stringify`. */
export function airportTuple({ ident, airport: a, frequencies, navaids }: AirportRecord): unknown[] {
  return [
    a.icao, ident, a.iata, a.name, a.municipality, a.country, a.region, a.type, a.status,
    a.lat, a.lon, a.elevation_ft, a.timezone,
    a.runways.map((r) => [
      r.id, r.length_ft, r.width_ft, r.surface, r.lighted, r.closed,
      r.ends.map((e) => [
        e.ident, e.true_heading_deg, e.heading_source, e.lat, e.lon, e.elevation_ft, e.displaced_threshold_ft, e.ils,
      ]),
    ]),
    frequencies.map((f) => [f.type, f.description, f.frequency_mhz]),
    navaids.map((n) => [n.ident, n.name, n.type, n.frequency_khz, n.lat, n.lon, n.elevation_ft]),
  ];
}

export type DecodedCache = { readonly records: readonly AirportRecord[]; readonly meta: AirportDataMeta };

/** The records in a cache file's text, or why they cannot be used with this `source`. */
export function decodeAirportCache(
  text: string,
  source: AirportDataSource,
): DecodedCache | { readonly reason: Exclude<CacheRejection, 'missing'> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { reason: 'corrupt' };
  }
  try {
    const { header, airports } = object(parsed);
    const { format, source: cachedSource, compiled_at, runways } = object(header);
    if (number(format) !== AIRPORT_CACHE_FORMAT || !sameSource(object(cachedSource), source)) return { reason: 'stale' };
    const records = list(airports).map(airportFromTuple);
    const runwayCount = records.reduce((sum, record) => sum + record.airport.runways.length, 0);
    if (runwayCount !== number(runways)) throw new CorruptCache();
    return {
      records,
      meta: { source, compiled_at: string(compiled_at), airports: records.length, runways: runwayCount },
    };
  } catch (error) {
    if (error instanceof CorruptCache) return { reason: 'corrupt' };
    throw error;
  }
}

function sameSource(cached: Record<string, unknown>, source: AirportDataSource): boolean {
  return cached.package === source.package && cached.version === source.version && cached.bytes === source.bytes &&
    cached.ourairports === source.ourairports;
}

/** The record `airportTuple` made; throws on anything else. */
export function airportFromTuple(value: unknown): AirportRecord {
  const [icao, ident, iata, name, municipality, country, region, type, status, lat, lon, elevation, timezone, runways, frequencies, navaids] =
    tuple(value, 16);
  const airport: Airport = {
    icao: string(icao),
    iata: nullable(iata, string),
    name: string(name),
    municipality: nullable(municipality, string),
    country: string(country),
    region: nullable(region, string),
    type: member(type, AIRPORT_TYPES),
    status: member(status, ['open', 'closed'] as const),
    lat: number(lat),
    lon: number(lon),
    elevation_ft: number(elevation),
    timezone: nullable(timezone, string),
    runways: list(runways).map(decodeRunway),
  };
  return { ident: string(ident), airport, frequencies: list(frequencies).map(decodeFrequency), navaids: list(navaids).map(decodeNavaid) };
}

function decodeFrequency(value: unknown): AirportFrequency {
  const [type, description, mhz] = tuple(value, 3);
  return { type: string(type), description: nullable(description, string), frequency_mhz: number(mhz) };
}

function decodeNavaid(value: unknown): Navaid {
  const [ident, name, type, khz, lat, lon, elevation] = tuple(value, 7);
  return {
    ident: string(ident),
    name: string(name),
    type: string(type),
    frequency_khz: nullable(khz, number),
    lat: number(lat),
    lon: number(lon),
    elevation_ft: nullable(elevation, number),
  };
}

function decodeRunway(value: unknown): Runway {
  const [id, length, width, surface, lighted, closed, ends] = tuple(value, 7);
  const decodedEnds = list(ends).map(decodeRunwayEnd);
  const decodedSurface = member(surface, RUNWAY_SURFACES);
  return {
    id: number(id),
    designator: runwayDesignator(decodedEnds),
    length_ft: nullable(length, number),
    width_ft: nullable(width, number),
    surface: decodedSurface,
    paved: isPaved(decodedSurface),
    lighted: boolean(lighted),
    closed: boolean(closed),
    ends: decodedEnds,
  };
}

function decodeRunwayEnd(value: unknown): RunwayEnd {
  const [ident, heading, source, lat, lon, elevation, displaced, ils] = tuple(value, 8);
  return {
    ident: string(ident),
    true_heading_deg: number(heading),
    heading_source: member(source, HEADING_SOURCES),
    lat: nullable(lat, number),
    lon: nullable(lon, number),
    elevation_ft: nullable(elevation, number),
    displaced_threshold_ft: nullable(displaced, number),
    ils: nullable(ils, boolean),
  };
}

class CorruptCache extends Error {}

function object(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CorruptCache();
  return value as Record<string, unknown>;
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new CorruptCache();
  return value;
}

function tuple(value: unknown, length: number): unknown[] {
  const items = list(value);
  if (items.length !== length) throw new CorruptCache();
  return items;
}

function string(value: unknown): string {
  if (typeof value !== 'string') throw new CorruptCache();
  return value;
}

function number(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new CorruptCache();
  return value;
}

function boolean(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new CorruptCache();
  return value;
}

function nullable<T>(value: unknown, decode: (value: unknown) => T): T | null {
  return value === null ? null : decode(value);
}

function member<T extends string>(value: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) throw new CorruptCache();
  return value as T;
}
