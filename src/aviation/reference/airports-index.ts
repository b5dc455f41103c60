// The in-memory airport index: lookups by code, and search by words, country, type and distance.
//
// Search order, which `sort_key` encodes as "<primary>|<icao>" so a page can continue after any
// item: with `near`, by distance then code; with `q` alone, by relevance then code; otherwise by
// code. Relevance is the match (the query is the code or IATA code; a word of the name or the
// municipality starts with it; the words appear somewhere) and, within a match, the airport type,
// larger first, so "heathrow" lists London Heathrow before a Texas airstrip called Heathrow. Text is matched after folding
// case and accents on both sides ("zurich" finds "Zürich"). `near` reads a 1° grid, so only nearby
// cells are measured.

import type {
  Airport,
  AirportDataMeta,
  AirportIndex,
  AirportRecord,
  AirportSearch,
  AirportSearchHit,
  AirportSearchResult,
  AirportType,
  Runway,
} from './airports-model.ts';
import { compareCodes } from './airports-compile.ts';
import { distanceNm, EARTH_RADIUS_NM } from './geo.ts';

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;

const MATCH_CODE = 0;
const MATCH_NAME = 1;
const MATCH_WORDS = 2;
/** Relevance is match × TYPE_ORDER.length + position of the airport's type in TYPE_ORDER. */
const TYPE_ORDER: readonly AirportType[] = [
  'large_airport', 'medium_airport', 'small_airport', 'seaplane_base', 'heliport', 'balloonport', 'closed',
];

type Entry = {
  readonly airport: Airport;
  readonly codes: readonly string[];
  /** Name and municipality folded, punctuation as spaces, with a leading space: " london heathrow". */
  readonly nameWords: string;
  /** Every searchable field, folded, separated by a character no query word contains. */
  readonly text: string;
};

type Candidate = { readonly entry: Entry; readonly primary: number; readonly distance: number | null };

type SortKey = { readonly primary: number; readonly icao: string };

export function createAirportIndex(records: readonly AirportRecord[], meta: AirportDataMeta): AirportIndex {
  const entries: Entry[] = records.map(({ ident, airport }) => {
    const codes = [...new Set([airport.icao, ident, airport.iata ?? ''].filter(Boolean).map(fold))];
    const names = `${fold(airport.name)}\n${fold(airport.municipality ?? '')}`;
    return { airport, codes, nameWords: ` ${words(names)}`, text: `${codes.join('\n')}\n${names}` };
  });
  entries.sort((a, b) => compareCodes(a.airport.icao, b.airport.icao));

  const byCode = new Map<string, Airport>();
  for (const { airport } of entries) byCode.set(airport.icao.toUpperCase(), airport);
  records.forEach(({ ident, airport }) => {
    if (!byCode.has(ident.toUpperCase())) byCode.set(ident.toUpperCase(), airport);
  });
  const byIata = new Map<string, Airport>();
  for (const { airport } of entries) if (airport.iata !== null) byIata.set(airport.iata.toUpperCase(), airport);

  const grid = new Map<number, Entry[]>();
  for (const entry of entries) {
    const cell = cellKey(Math.floor(entry.airport.lat), Math.floor(entry.airport.lon));
    const members = grid.get(cell);
    if (members === undefined) grid.set(cell, [entry]);
    else members.push(entry);
  }

  const airports = entries.map((entry) => entry.airport);
  const get = (code: string): Airport | null => byCode.get(code.trim().toUpperCase()) ?? null;

  return {
    meta,
    airports,
    get,
    byIata: (iata) => byIata.get(iata.trim().toUpperCase()) ?? null,
    runways: (code): readonly Runway[] | null => get(code)?.runways ?? null,
    search: (query) => search(query, entries, grid),
  };
}

function search(query: AirportSearch, entries: readonly Entry[], grid: ReadonlyMap<number, Entry[]>): AirportSearchResult {
  const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.trunc(query.limit ?? DEFAULT_SEARCH_LIMIT)));
  const after = query.after === undefined ? null : parseSortKey(query.after);
  const country = query.country?.trim().toUpperCase();
  const phrase = fold(query.q ?? '').trim().replace(/\s+/g, ' ');
  const queryWords = phrase === '' ? [] : phrase.split(' ');
  const wordStart = ` ${words(phrase)}`;

  const accepts = (entry: Entry) =>
    (country === undefined || entry.airport.country === country) &&
    (query.type === undefined || entry.airport.type === query.type) &&
    queryWords.every((word) => entry.text.includes(word));
  const relevance = (entry: Entry) => {
    const match = entry.codes.includes(phrase)
      ? MATCH_CODE
      : entry.nameWords.includes(wordStart)
        ? MATCH_NAME
        : MATCH_WORDS;
    return match * TYPE_ORDER.length + TYPE_ORDER.indexOf(entry.airport.type);
  };

  let candidates: Candidate[];
  if (query.near !== undefined) {
    const centre = checkedCentre(query.near);
    candidates = [];
    for (const entry of nearbyEntries(grid, centre)) {
      if (!accepts(entry)) continue;
      const distance = distanceNm(centre, entry.airport);
      if (distance <= centre.radius_nm) candidates.push({ entry, primary: distance, distance });
    }
    candidates.sort((a, b) => a.primary - b.primary || compareCodes(a.entry.airport.icao, b.entry.airport.icao));
  } else if (queryWords.length > 0) {
    // Entries are in code order, so filling one bucket per relevance keeps each bucket sorted.
    const buckets: Candidate[][] = Array.from({ length: (MATCH_WORDS + 1) * TYPE_ORDER.length }, () => []);
    for (const entry of entries) {
      if (!accepts(entry)) continue;
      const primary = relevance(entry);
      buckets[primary]!.push({ entry, primary, distance: null });
    }
    candidates = buckets.flat();
  } else {
    // Plain code order: start right after the cursor and stop once a page and one more are found.
    candidates = [];
    const start = after === null ? 0 : after.primary > 0 ? entries.length : firstAfterCode(entries, after.icao);
    for (let i = start; i < entries.length && candidates.length <= limit; i++) {
      if (accepts(entries[i]!)) candidates.push({ entry: entries[i]!, primary: 0, distance: null });
    }
  }

  const remaining = after === null ? candidates : candidates.filter((candidate) => isAfter(candidate, after));
  const page = remaining.slice(0, limit).map(toHit);
  return { items: page, next_after: remaining.length > limit ? page[page.length - 1]!.sort_key : null };
}

function toHit(candidate: Candidate): AirportSearchHit {
  return {
    airport: candidate.entry.airport,
    distance_nm: candidate.distance,
    sort_key: `${candidate.primary}|${candidate.entry.airport.icao}`,
  };
}

function parseSortKey(key: string): SortKey {
  const separator = key.indexOf('|');
  const primary = Number(key.slice(0, separator));
  const icao = key.slice(separator + 1);
  if (separator <= 0 || !Number.isFinite(primary) || primary < 0 || icao === '') {
    throw new RangeError(`not an airport search position: ${JSON.stringify(key)}`);
  }
  return { primary, icao };
}

function isAfter(candidate: Candidate, after: SortKey): boolean {
  if (candidate.primary !== after.primary) return candidate.primary > after.primary;
  return compareCodes(candidate.entry.airport.icao, after.icao) > 0;
}

/** Index of the first entry whose code sorts after `icao`. */
function firstAfterCode(entries: readonly Entry[], icao: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareCodes(entries[middle]!.airport.icao, icao) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

type Centre = { readonly lat: number; readonly lon: number; readonly radius_nm: number };

function checkedCentre(near: Centre): Centre {
  const { lat, lon, radius_nm } = near;
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && radius_nm >= 0 && Number.isFinite(radius_nm))) {
    throw new RangeError('near needs lat in [-90, 90], lon in [-180, 180] and a finite radius_nm >= 0');
  }
  return near;
}

function cellKey(latCell: number, lonCell: number): number {
  const row = Math.min(179, Math.max(0, latCell + 90));
  const column = (((lonCell + 180) % 360) + 360) % 360;
  return row * 360 + column;
}

/** Entries in the grid cells that the circle around `centre` can reach. */
function* nearbyEntries(grid: ReadonlyMap<number, Entry[]>, centre: Centre): Generator<Entry> {
  const radiusDeg = (centre.radius_nm / EARTH_RADIUS_NM) * (180 / Math.PI);
  const south = centre.lat - radiusDeg;
  const north = centre.lat + radiusDeg;
  // The widest longitude span of a circle not reaching a pole: asin(sin r / cos lat).
  const spread = Math.sin((radiusDeg * Math.PI) / 180) / Math.cos((centre.lat * Math.PI) / 180);
  const allLongitudes = south <= -90 || north >= 90 || radiusDeg >= 90 || spread >= 1;
  const halfWidth = allLongitudes ? 180 : (Math.asin(spread) * 180) / Math.PI;
  const firstColumn = Math.floor(centre.lon - halfWidth);
  const columns = allLongitudes ? 360 : Math.min(360, Math.floor(centre.lon + halfWidth) - firstColumn + 1);
  for (let latCell = Math.floor(Math.max(-90, south)); latCell <= Math.floor(Math.min(89.999, north)); latCell++) {
    for (let i = 0; i < columns; i++) {
      yield* grid.get(cellKey(latCell, firstColumn + i)) ?? [];
    }
  }
}

/** Letters and digits only, runs of anything else as one space: "st. john's" → "st john s". */
function words(folded: string): string {
  return folded.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Lower case without accents: "Zürich" → "zurich". */
function fold(text: string): string {
  const lower = text.toLowerCase();
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower;
}
