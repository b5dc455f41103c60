import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAirportIndex, MAX_SEARCH_LIMIT } from './airports-index.ts';
import type { AirportIndex, AirportSearch } from './airports-model.ts';
import { fixtureMeta, fixtureRecord, fixtureRunway } from './airports-fixtures.ts';

const records = [
  {
    ...fixtureRecord('EGLL', { iata: 'LHR', name: 'London Heathrow Airport', municipality: 'London', country: 'GB', type: 'large_airport', lat: 51.47, lon: -0.46, runways: [fixtureRunway()] }),
    frequencies: [{ type: 'TWR', description: 'Heathrow Tower', frequency_mhz: 118.5 }, { type: 'ATIS', description: null, frequency_mhz: 128.075 }],
    navaids: [{ ident: 'LON', name: 'London', type: 'VOR-DME', frequency_khz: 113600, lat: 51.4872, lon: -0.4664, elevation_ft: null }],
  },
  fixtureRecord('EGKK', { iata: 'LGW', name: 'London Gatwick Airport', municipality: 'London', country: 'GB', type: 'large_airport', lat: 51.15, lon: -0.19 }),
  fixtureRecord('EGLC', { iata: 'LCY', name: 'London City Airport', municipality: 'London', country: 'GB', type: 'medium_airport', lat: 51.5, lon: 0.05 }),
  fixtureRecord('03NH', { name: 'Londonderry Heliport', municipality: 'Londonderry', country: 'US', type: 'heliport', lat: 42.86, lon: -71.37 }),
  fixtureRecord('CYXU', { iata: 'YXU', name: 'London International Airport', municipality: 'London', country: 'CA', type: 'medium_airport', lat: 43.03, lon: -81.15 }),
  fixtureRecord('LSZH', { iata: 'ZRH', name: 'Zürich Airport', municipality: 'Zurich', country: 'CH', type: 'large_airport', lat: 47.46, lon: 8.55 }),
  fixtureRecord('LSMD', { name: 'Dübendorf Air Base', municipality: 'Dübendorf', country: 'CH', type: 'medium_airport', lat: 47.4, lon: 8.65 }),
  fixtureRecord('K00A', { name: 'Total RF Heliport', municipality: 'Bensalem', country: 'US', type: 'heliport', lat: 40.07, lon: -74.93 }, '00A'),
  fixtureRecord('XCLO', { name: 'Old London Field', country: 'GB', type: 'closed', status: 'closed', lat: 51.6, lon: -0.3 }),
  // Either side of the antimeridian.
  fixtureRecord('NFFN', { iata: 'NAN', name: 'Nadi International Airport', country: 'FJ', type: 'large_airport', lat: -17.76, lon: 177.44 }),
  fixtureRecord('NFTF', { iata: 'TBU', name: 'Fuaʻamotu International Airport', country: 'TO', type: 'large_airport', lat: -21.24, lon: -175.15 }),
  fixtureRecord('NZSP', { name: 'Amundsen-Scott South Pole Station', country: 'AQ', type: 'small_airport', lat: -90, lon: 0 }),
];
const index = createAirportIndex(records, fixtureMeta(records));

function codes(query: AirportSearch, within: AirportIndex = index): string[] {
  return within.search(query).items.map((hit) => hit.airport.icao);
}

/** Every page of a search, following next_after until it runs out. */
function allPages(query: AirportSearch): string[] {
  const seen: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = index.search({ ...query, ...(after === undefined ? {} : { after }) });
    seen.push(...result.items.map((hit) => hit.airport.icao));
    if (result.next_after === null) return seen;
    after = result.next_after;
  }
  throw new Error('pagination did not end');
}

test('lookups by code, ident and IATA ignore case; unknown codes give null', () => {
  assert.equal(index.get('egll')?.name, 'London Heathrow Airport');
  assert.equal(index.get(' EGLL '), index.get('EGLL'));
  assert.equal(index.get('00a')?.icao, 'K00A');
  assert.equal(index.byIata('lhr')?.icao, 'EGLL');
  assert.equal(index.byIata('EGLL'), null);
  assert.equal(index.get('ZZZZ'), null);
  assert.equal(index.runways('egll')?.[0]?.designator, '09/27');
  assert.deepEqual(index.runways('EGKK'), []);
  assert.equal(index.runways('ZZZZ'), null);
  assert.deepEqual(index.airports().map((airport) => airport.icao), [...index.airports().map((a) => a.icao)].sort());
});

test('closed airports are found, with their status', () => {
  assert.equal(index.get('XCLO')?.status, 'closed');
});

test('text search ranks code, then name or municipality, then other matches; larger airports first', () => {
  // Name starts with it: large (Gatwick, Heathrow), medium (London ON, City), heliport; then the
  // closed field whose name merely contains it.
  assert.deepEqual(codes({ q: 'london' }), ['EGKK', 'EGLL', 'CYXU', 'EGLC', '03NH', 'XCLO']);
  assert.deepEqual(codes({ q: 'LHR' }), ['EGLL']);
  assert.deepEqual(codes({ q: 'egll' }), ['EGLL']);
  assert.deepEqual(codes({ q: 'gatwick' }), ['EGKK']);
  assert.deepEqual(codes({ q: '  London   City ' }), ['EGLC']);
  assert.deepEqual(codes({ q: 'bensalem' }), ['K00A']);
  assert.deepEqual(codes({ q: 'nothing like it' }), []);
});

test('accents are ignored on both sides', () => {
  assert.deepEqual(codes({ q: 'zurich' }), ['LSZH']);
  assert.deepEqual(codes({ q: 'Zürich' }), ['LSZH']);
  assert.deepEqual(codes({ q: 'dubendorf' }), ['LSMD']);
});

test('country and type filters', () => {
  assert.deepEqual(codes({ country: 'gb' }), ['EGKK', 'EGLC', 'EGLL', 'XCLO']);
  assert.deepEqual(codes({ q: 'london', country: 'GB', type: 'large_airport' }), ['EGKK', 'EGLL']);
  assert.deepEqual(codes({ type: 'heliport' }), ['03NH', 'K00A']);
});

test('near: within the radius, nearest first, with distances', () => {
  const result = index.search({ near: { lat: 51.47, lon: -0.46, radius_nm: 30 } });
  assert.deepEqual(result.items.map((hit) => hit.airport.icao), ['EGLL', 'XCLO', 'EGLC', 'EGKK']);
  assert.equal(result.items[0]!.distance_nm, 0);
  const distances = result.items.map((hit) => hit.distance_nm!);
  assert.deepEqual(distances, [...distances].sort((a, b) => a - b));
  assert.ok(distances.every((distance) => distance <= 30));
  assert.deepEqual(codes({ near: { lat: 51.47, lon: -0.46, radius_nm: 30 }, q: 'london', type: 'large_airport' }), ['EGLL', 'EGKK']);
  assert.equal(index.search({ q: 'london' }).items[0]!.distance_nm, null);
});

test('near reaches across the antimeridian and over the poles', () => {
  assert.deepEqual(codes({ near: { lat: -19.5, lon: -179.9, radius_nm: 400 } }), ['NFFN', 'NFTF']);
  assert.deepEqual(codes({ near: { lat: -89, lon: 120, radius_nm: 61 } }), ['NZSP']);
  assert.equal(codes({ near: { lat: 0, lon: 0, radius_nm: 20000 }, limit: MAX_SEARCH_LIMIT }).length, records.length);
});

test('pages follow each other without gaps or repeats, in every order', () => {
  const queries: AirportSearch[] = [
    {},
    { q: 'london' },
    { q: 'airport' },
    { near: { lat: 51.47, lon: -0.46, radius_nm: 5000 } },
    { country: 'GB' },
  ];
  for (const query of queries) {
    const whole = codes({ ...query, limit: MAX_SEARCH_LIMIT });
    for (const limit of [1, 2, 3]) assert.deepEqual(allPages({ ...query, limit }), whole, JSON.stringify({ query, limit }));
  }
  assert.equal(index.search({ limit: records.length }).next_after, null);
  assert.notEqual(index.search({ limit: records.length - 1 }).next_after, null);
});

test('limits are clamped to 1..MAX_SEARCH_LIMIT', () => {
  assert.equal(index.search({ limit: 0 }).items.length, 1);
  assert.equal(index.search({ limit: 1000 }).items.length, records.length);
  assert.equal(index.search({}).items.length, Math.min(20, records.length));
});

test('positions it did not issue are refused', () => {
  for (const after of ['', 'EGLL', '|EGLL', 'x|EGLL', '-1|EGLL', '3|']) {
    assert.throws(() => index.search({ after }), RangeError, after);
  }
  assert.throws(() => index.search({ near: { lat: 91, lon: 0, radius_nm: 10 } }), RangeError);
  assert.throws(() => index.search({ near: { lat: 0, lon: 0, radius_nm: Number.NaN } }), RangeError);
});

test('the index answers each record with every field it was handed', () => {
  for (const record of records) {
    assert.deepEqual(index.get(record.airport.icao), record.airport);
    assert.deepEqual(index.frequencies(record.airport.icao), record.frequencies);
    assert.deepEqual(index.navaids(record.airport.icao), record.navaids);
  }
});

test('byIcao reads the code as the icao the index gives, even three letters that are another airport\'s IATA code', () => {
  const pair = [
    fixtureRecord('ANG', { name: 'Angel Field', country: 'US', type: 'small_airport', lat: 40, lon: -75 }),
    fixtureRecord('LFBU', { iata: 'ANG', name: 'Angoulême-Brie-Champniers Airport', country: 'FR', type: 'medium_airport', lat: 45.73, lon: 0.22 }),
  ];
  const both = createAirportIndex(pair, fixtureMeta(pair));
  assert.equal(both.get('ANG')?.icao, 'LFBU');
  assert.equal(both.byIcao('ANG')?.icao, 'ANG');
  assert.equal(both.byIcao(' lfbu ')?.icao, 'LFBU');
  assert.equal(both.byIcao('ZZZZ'), null);
});
