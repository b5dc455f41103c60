// The in-memory airport index: lookups by code, and search by words, country, type and distance
// through the platform's place index, which describes the order and the cursor.
//
// Codes are the ICAO code, the OurAirports ident and the IATA code. `get` reads three letters as an
// IATA code ("LHR"), since that is what a caller giving three letters means; an OurAirports ident
// of three letters is found only when no airport has it as IATA code (about 300 small US fields
// have an ident equal to another airport's IATA code). Four characters are an ICAO code or an
// ident, never IATA. Name and municipality are
// searched as one phrase. Within a match, larger airport types come first, so "heathrow" lists
// London Heathrow before a Texas airstrip called Heathrow.

import { placeIndexBuilder } from '../../platform/geo/place-index.ts';
import { airportFromTuple, airportTuple } from './airports-cache.ts';
import type { Airport, AirportDataMeta, AirportIndex, AirportRecord, AirportType } from './airports-model.ts';

const IATA_CODE = /^[A-Z]{3}$/;

export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../platform/geo/place-index.ts';

/** The one empty list the index answers with for an airport it does not know. */
const NO_ITEMS: readonly never[] = Object.freeze([]);

const TYPE_ORDER: readonly AirportType[] = [
  'large_airport', 'medium_airport', 'small_airport', 'seaplane_base', 'heliport', 'balloonport', 'closed',
];

/** What the index reads of an airport to find it: icao, ident, iata, name, municipality, country, type, status, lat, lon. */
type AirportRow = readonly [string, string, string | null, string, string | null, string, AirportType, Airport['status'], number, number];

/**
 * Airports as the index takes them: what it needs to find each, and each whole record as the
 * cache's tuple in JSON, one after the other in `text` (UTF-8; record i ends at `ends[i]`). The
 * loading thread makes the batches and hands `text` over without a copy.
 */
export type AirportBatch = { readonly rows: readonly AirportRow[]; readonly text: Uint8Array<ArrayBuffer>; readonly ends: Uint32Array };

export function airportBatch(records: readonly AirportRecord[]): AirportBatch {
  const encoder = new TextEncoder();
  const parts = records.map((record) => encoder.encode(JSON.stringify(airportTuple(record))));
  const text = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  const ends = new Uint32Array(parts.length);
  let end = 0;
  parts.forEach((part, i) => {
    text.set(part, end);
    ends[i] = end += part.length;
  });
  const rows = records.map(({ ident, airport: a }): AirportRow => [a.icao, ident, a.iata, a.name, a.municipality, a.country, a.type, a.status, a.lat, a.lon]);
  return { rows, text, ends };
}

export function createAirportIndex(records: readonly AirportRecord[], meta: AirportDataMeta): AirportIndex {
  const builder = airportIndexBuilder(meta);
  builder.add(airportBatch(records));
  return builder.finish();
}

/** Records decoded lately, kept so that the airports asked about again and again are not decoded each time. */
const RECENT_RECORDS = 256;

/**
 * The same index, given its records a batch at a time (see `placeIndexBuilder`).
 *
 * A record is kept as its JSON text and decoded when asked for: as objects, the 45,000 airports
 * with their runways, ends, frequencies and navaids took 56 MB of heap; as text, 12 MB outside
 * it (README "Memory"). What search and lookups read (codes, position, country, type, status) is
 * kept per airport in plain arrays; the airport is its row number in them.
 */
export function airportIndexBuilder(meta: AirportDataMeta): { add(batch: AirportBatch): void; finish(): AirportIndex } {
  const texts: Uint8Array[] = [];
  // A record's text ends at its `endOf` and starts where the one before it in its batch ended.
  const textOf: number[] = [];
  const endOf: number[] = [];
  const icaoOf: string[] = [];
  const iataOf: (string | null)[] = [];
  const countryOf: string[] = [];
  // One string per country: each row crossed from the loading thread with a copy of its own.
  const countries = new Map<string, string>();
  const groupOf: number[] = [];
  const openOf: boolean[] = [];
  const latOf: number[] = [];
  const lonOf: number[] = [];
  // The rows of the batch being added, for the fields only the search words are made from.
  let adding: { readonly first: number; readonly rows: readonly AirportRow[] } = { first: 0, rows: [] };
  const addingRow = (row: number) => adding.rows[row - adding.first]!;
  const places = placeIndexBuilder<number>({
    key: (row) => icaoOf[row]!,
    position: (row) => ({ lat: latOf[row]!, lon: lonOf[row]! }),
    codes: (row) => [icaoOf[row]!, addingRow(row)[1], iataOf[row]!],
    names: (row) => [`${addingRow(row)[3]} ${addingRow(row)[4] ?? ''}`],
    groups: TYPE_ORDER.length,
    group: (row) => groupOf[row]!,
  });
  // An ICAO code wins over an ident equal to it, whichever batch brings which: two maps, read in that
  // order. Most airports' ident is their ICAO code: only the others need the second map.
  const byIcao = new Map<string, number>();
  const byIdent = new Map<string, number>();
  const byIata = new Map<string, number>();

  const add = ({ rows, text, ends }: AirportBatch) => {
    const first = icaoOf.length;
    const batch = texts.push(text) - 1;
    rows.forEach(([icao, ident, iata, , , country, type, status, lat, lon], i) => {
      const row = first + i;
      textOf.push(batch);
      endOf.push(ends[i]!);
      icaoOf.push(icao);
      iataOf.push(iata);
      countryOf.push(countries.get(country) ?? (countries.set(country, country), country));
      groupOf.push(TYPE_ORDER.indexOf(type));
      openOf.push(status === 'open');
      latOf.push(lat);
      lonOf.push(lon);
      const icaoKey = icao.toUpperCase();
      const identKey = ident.toUpperCase();
      byIcao.set(icaoKey, row);
      if (identKey !== icaoKey && !byIdent.has(identKey)) byIdent.set(identKey, row);
    });
    adding = { first, rows };
    places.add(rows.map((_, i) => first + i));
    adding = { first: 0, rows: [] };
  };

  const decoder = new TextDecoder();
  const decode = (row: number): AirportRecord => {
    const start = row > 0 && textOf[row - 1] === textOf[row] ? endOf[row - 1] : 0;
    return airportFromTuple(JSON.parse(decoder.decode(texts[textOf[row]!]!.subarray(start, endOf[row]))));
  };
  const recent = new Map<number, AirportRecord>();
  const recordAt = (row: number): AirportRecord => {
    let record = recent.get(row);
    if (record !== undefined) recent.delete(row);
    else {
      record = decode(row);
      // The least recently asked for goes first (a Map keeps insertion order).
      if (recent.size >= RECENT_RECORDS) recent.delete(recent.keys().next().value!);
    }
    recent.set(row, record);
    return record;
  };

  const finish = (): AirportIndex => {
    const index = places.finish();
    // In icao order, as before: of two airports with one IATA code, the later code wins.
    for (const row of index.items) {
      const iata = iataOf[row];
      if (iata !== null && iata !== undefined) byIata.set(iata.toUpperCase(), row);
    }
    const rowOf = (code: string): number | undefined => {
      const key = code.trim().toUpperCase();
      return (IATA_CODE.test(key) ? byIata.get(key) : undefined) ?? byIcao.get(key) ?? byIdent.get(key);
    };
    const recordOf = (code: string): AirportRecord | null => {
      const row = rowOf(code);
      return row === undefined ? null : recordAt(row);
    };
    const recordOfIcao = (icao: string): AirportRecord | null => {
      const row = byIcao.get(icao.trim().toUpperCase());
      return row === undefined ? null : recordAt(row);
    };
    return {
      meta,
      airports: ({ status, types } = {}) =>
        index.items
          .filter((row) => (status === undefined || openOf[row] === (status === 'open')) && (types === undefined || types.includes(TYPE_ORDER[groupOf[row]!]!)))
          .map((row) => decode(row).airport),
      get: (code) => recordOf(code)?.airport ?? null,
      byIata(iata) {
        const row = byIata.get(iata.trim().toUpperCase());
        return row === undefined ? null : recordAt(row).airport;
      },
      byIcao: (icao) => recordOfIcao(icao)?.airport ?? null,
      frequencies: (icao) => recordOfIcao(icao)?.frequencies ?? NO_ITEMS,
      navaids: (icao) => recordOfIcao(icao)?.navaids ?? NO_ITEMS,
      runways: (code) => recordOf(code)?.airport.runways ?? null,
      search(query) {
        const country = query.country?.trim().toUpperCase();
        const group = query.type === undefined ? undefined : TYPE_ORDER.indexOf(query.type);
        const result = index.search(query, (row) => (country === undefined || countryOf[row] === country) && (group === undefined || groupOf[row] === group));
        return {
          items: result.items.map(({ item, distance_nm, sort_key }) => ({ airport: decode(item).airport, distance_nm, sort_key })),
          next_after: result.next_after,
        };
      },
    };
  };
  return { add, finish };
}
