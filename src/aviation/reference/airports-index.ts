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
import type { Airport, AirportDataMeta, AirportFrequency, AirportIndex, AirportRecord, AirportType, Navaid, Runway } from './airports-model.ts';

const IATA_CODE = /^[A-Z]{3}$/;

export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../platform/geo/place-index.ts';

/** The one empty list the index and its records answer with wherever there is nothing to list. */
export const NO_ITEMS: readonly never[] = Object.freeze([]);

const TYPE_ORDER: readonly AirportType[] = [
  'large_airport', 'medium_airport', 'small_airport', 'seaplane_base', 'heliport', 'balloonport', 'closed',
];

export function createAirportIndex(records: readonly AirportRecord[], meta: AirportDataMeta): AirportIndex {
  const builder = airportIndexBuilder(meta);
  builder.add(records);
  return builder.finish();
}

/** The same index, given its records a batch at a time (see `placeIndexBuilder`). */
export function airportIndexBuilder(meta: AirportDataMeta): { add(records: readonly AirportRecord[]): void; finish(): AirportIndex } {
  const places = placeIndexBuilder<AirportRecord>({
    key: ({ airport }) => airport.icao,
    position: ({ airport }) => airport,
    codes: ({ ident, airport }) => [airport.icao, ident, airport.iata],
    names: ({ airport }) => [`${airport.name} ${airport.municipality ?? ''}`],
    groups: TYPE_ORDER.length,
    group: ({ airport }) => TYPE_ORDER.indexOf(airport.type),
  });
  // An ICAO code wins over an ident equal to it, whichever batch brings which: two maps, read in that
  // order. Most airports' ident is their ICAO code: only the others need the second map.
  const byIcao = new Map<string, Airport>();
  const byIdent = new Map<string, Airport>();
  const byIata = new Map<string, Airport>();
  // Most airports list no frequency (four in five) and no navaid (nine in ten).
  const frequenciesOf = new Map<string, readonly AirportFrequency[]>();
  const navaidsOf = new Map<string, readonly Navaid[]>();

  const add = (records: readonly AirportRecord[]) => {
    places.add(records);
    for (const { ident, airport, frequencies, navaids } of records) {
      const icao = airport.icao.toUpperCase();
      const identKey = ident.toUpperCase();
      byIcao.set(icao, airport);
      if (identKey !== icao && !byIdent.has(identKey)) byIdent.set(identKey, airport);
      if (frequencies.length > 0) frequenciesOf.set(airport.icao, frequencies);
      if (navaids.length > 0) navaidsOf.set(airport.icao, navaids);
    }
  };

  const finish = (): AirportIndex => {
    const index = places.finish();
    const airports = index.items.map((record) => record.airport);
    // In icao order, as before: of two airports with one IATA code, the later code wins.
    for (const airport of airports) if (airport.iata !== null) byIata.set(airport.iata.toUpperCase(), airport);
    const byCode = (key: string) => byIcao.get(key) ?? byIdent.get(key);
    const get = (code: string): Airport | null => {
      const key = code.trim().toUpperCase();
      return (IATA_CODE.test(key) ? byIata.get(key) : undefined) ?? byCode(key) ?? null;
    };
    return {
      meta,
      airports,
      get,
      byIata: (iata) => byIata.get(iata.trim().toUpperCase()) ?? null,
      frequencies: (icao) => frequenciesOf.get(icao) ?? NO_ITEMS,
      navaids: (icao) => navaidsOf.get(icao) ?? NO_ITEMS,
      runways: (code): readonly Runway[] | null => get(code)?.runways ?? null,
      search(query) {
        const country = query.country?.trim().toUpperCase();
        const result = index.search(query, ({ airport }) =>
          (country === undefined || airport.country === country) && (query.type === undefined || airport.type === query.type));
        return {
          items: result.items.map(({ item, distance_nm, sort_key }) => ({ airport: item.airport, distance_nm, sort_key })),
          next_after: result.next_after,
        };
      },
    };
  };
  return { add, finish };
}
