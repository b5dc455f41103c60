import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seaPortEntry, unlocodeEntry, wpiEntry } from './fixtures.ts';
import { mergePorts } from './merge.ts';
import type { PortDataMeta, PortSearch } from './model.ts';
import { createPortIndex, MAX_SEARCH_LIMIT } from './port-index.ts';

const ports = mergePorts({
  seaPorts: [
    seaPortEntry('NLRTM', { name: 'Rotterdam', lat: 51.92, lon: 4.5, timezone: 'Europe/Amsterdam' }),
    seaPortEntry('NLAMS', { name: 'Amsterdam', lat: 52.38, lon: 4.9 }),
    seaPortEntry('BEANR', { name: 'Antwerp', alternate_names: ['Antwerpen'], lat: 51.23, lon: 4.4 }),
    seaPortEntry('FJSUV', { name: 'Suva', lat: -18.13, lon: 178.42 }),
    seaPortEntry('TONUK', { name: "Nuku'alofa", lat: -21.13, lon: -175.2 }),
  ],
  unlocode: [unlocodeEntry('FRSET', { name: 'Sète', name_ascii: 'Sete', lat: 43.4, lon: 3.7 })],
  wpi: [
    wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', lat: 51.9, lon: 4.4833, harbour_size: 'large' }),
    wpiEntry(31150, { name: 'Rotterdam Botlek', country: 'NL', lat: 51.88, lon: 4.29, harbour_size: 'medium' }),
    wpiEntry(31160, { name: 'Europoort', alternate_names: ['Rotterdam Europoort'], country: 'NL', lat: 51.95, lon: 4.13, harbour_size: 'small' }),
    wpiEntry(31170, { name: 'Maassluis', country: 'NL', lat: 51.92, lon: 4.25 }),
  ],
});
const meta: PortDataMeta = { sea_ports: { package: 'sea-ports', version: '0.0.0', entries: 5 }, wpi: null, unlocode: null, ports: ports.length };
const index = createPortIndex(ports, meta);

const ids = (query: PortSearch) => index.search(query).items.map((hit) => hit.port.id);

/** Every page of a search, following next_after until it runs out. */
function allPages(query: PortSearch): string[] {
  const seen: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = index.search({ ...query, ...(after === undefined ? {} : { after }) });
    seen.push(...result.items.map((hit) => hit.port.id));
    if (result.next_after === null) return seen;
    after = result.next_after;
  }
  throw new Error('pagination did not end');
}

test('one port by UN/LOCODE or WPI number, any case; unknown ids give null', () => {
  assert.equal(index.get('nlrtm')?.name, 'Rotterdam');
  assert.equal(index.get(' NLRTM '), index.get('NLRTM'));
  assert.equal(index.get('WPI-31140'), index.get('NLRTM'));
  assert.equal(index.get('wpi-31150')?.name, 'Rotterdam Botlek');
  assert.equal(index.byWpiNumber(31160)?.id, 'WPI-31160');
  for (const unknown of ['NLXXX', 'WPI-1', 'WPI-', 'rotterdam', '']) assert.equal(index.get(unknown), null, unknown);
});

test('text search ranks the code, then names starting with the words (larger harbours first), then other matches', () => {
  // NLRTM is large, Botlek medium, Europoort (by its alternate name) small; "rotterdam" inside no word start elsewhere.
  assert.deepEqual(ids({ q: 'rotterdam' }), ['NLRTM', 'WPI-31150', 'WPI-31160']);
  assert.deepEqual(ids({ q: 'NLRTM' }), ['NLRTM']);
  assert.deepEqual(ids({ q: 'nl rtm' }), ['NLRTM']);
  assert.deepEqual(ids({ q: '31170' }), ['WPI-31170']);
  assert.deepEqual(ids({ q: 'antwerpen' }), ['BEANR']);
  assert.deepEqual(ids({ q: 'botlek rotterdam' }), ['WPI-31150']);
  assert.deepEqual(ids({ q: 'poort' }), ['WPI-31160']);
  assert.deepEqual(ids({ q: 'nowhere at all' }), []);
});

test('accents are ignored on both sides', () => {
  assert.deepEqual(ids({ q: 'sete' }), ['FRSET']);
  assert.deepEqual(ids({ q: 'Sète' }), ['FRSET']);
});

test('country filter, alone and with words', () => {
  assert.deepEqual(ids({ country: 'nl' }), ['NLAMS', 'NLRTM', 'WPI-31150', 'WPI-31160', 'WPI-31170']);
  assert.deepEqual(ids({ country: 'BE', q: 'ant' }), ['BEANR']);
  assert.deepEqual(ids({ country: 'FR', q: 'rotterdam' }), []);
});

test('near: ports within the radius, nearest first, with distances', () => {
  const result = index.search({ near: { lat: 51.9, lon: 4.48, radius_nm: 15 } });
  assert.deepEqual(result.items.map((hit) => hit.port.id), ['NLRTM', 'WPI-31150', 'WPI-31170', 'WPI-31160']);
  assert.ok(result.items[0]!.distance_nm! < 0.5);
  const distances = result.items.map((hit) => hit.distance_nm!);
  assert.deepEqual(distances, [...distances].sort((a, b) => a - b));
  assert.ok(distances.every((distance) => distance <= 15));
  assert.deepEqual(ids({ near: { lat: 51.9, lon: 4.48, radius_nm: 15 }, q: 'rotterdam' }), ['NLRTM', 'WPI-31150', 'WPI-31160']);
  assert.equal(index.search({ q: 'rotterdam' }).items[0]!.distance_nm, null);
});

test('near reaches across the antimeridian', () => {
  assert.deepEqual(ids({ near: { lat: -20, lon: 179.9, radius_nm: 400 } }), ['FJSUV', 'TONUK']);
  assert.deepEqual(ids({ near: { lat: -21, lon: -175.5, radius_nm: 400 } }), ['TONUK', 'FJSUV']);
  assert.deepEqual(ids({ near: { lat: -21, lon: -175.5, radius_nm: 300 } }), ['TONUK']);
});

test('pages join up to the whole result in every order', () => {
  const queries: PortSearch[] = [{}, { q: 'rotterdam' }, { near: { lat: 52, lon: 4.5, radius_nm: 100 } }, { country: 'NL' }];
  for (const query of queries) {
    const whole = ids({ ...query, limit: MAX_SEARCH_LIMIT });
    for (const limit of [1, 2, 3]) assert.deepEqual(allPages({ ...query, limit }), whole, `${JSON.stringify(query)} by ${limit}`);
  }
  assert.equal(allPages({ limit: 2 }).length, ports.length);
});

test('limits are clamped; a position it did not issue and a bad centre are RangeErrors', () => {
  assert.equal(index.search({ limit: 0 }).items.length, 1);
  assert.equal(index.search({ limit: 10_000 }).items.length, ports.length);
  assert.throws(() => index.search({ after: 'nonsense' }), RangeError);
  assert.throws(() => index.search({ near: { lat: 91, lon: 0, radius_nm: 10 } }), RangeError);
});
