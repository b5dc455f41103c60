import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPlaceIndex, MAX_SEARCH_LIMIT, type PlaceSearch } from './place-index.ts';

type Place = {
  readonly code: string;
  readonly alias: string | null;
  readonly names: readonly string[];
  readonly size: 'big' | 'small';
  readonly region: string;
  readonly lat: number;
  readonly lon: number;
};

const place = (code: string, names: string[], more: Partial<Place> = {}): Place =>
  ({ code, alias: null, names, size: 'small', region: 'north', lat: 0, lon: 0, ...more });

// Given out of key order: the index sorts.
const places = [
  place('RIV', ['Riverside'], { size: 'big', lat: 10, lon: 10 }),
  place('BRG', ['Bridgetown', 'Old Riverside Quay'], { alias: 'NB', lat: 10.1, lon: 10 }),
  place('ZUR', ['Zürich Lake'], { region: 'south', lat: 47, lon: 8.5 }),
  place('SMR', ['Small Riverside'], { lat: 10.2, lon: 10 }),
  place('ARV', ['Arriverside'], { size: 'big', lat: 10.3, lon: 10 }),
  place('FJI', ['Suva'], { lat: -18, lon: 178.4 }),
  place('TON', ['Nukualofa'], { lat: -21.1, lon: -175.2 }),
  place('POL', ['Pole Station'], { lat: -90, lon: 0 }),
];
const index = createPlaceIndex(places, {
  key: (p) => p.code,
  position: (p) => p,
  codes: (p) => [p.code, p.alias],
  names: (p) => p.names,
  spacedCodes: true,
  groups: 2,
  group: (p) => (p.size === 'big' ? 0 : 1),
});

const codes = (query: PlaceSearch, accept?: (p: Place) => boolean) => index.search(query, accept).items.map((hit) => hit.item.code);

/** Every page of a search, following next_after until it runs out. */
function allPages(query: PlaceSearch): string[] {
  const seen: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = index.search({ ...query, ...(after === undefined ? {} : { after }) });
    seen.push(...result.items.map((hit) => hit.item.code));
    if (result.next_after === null) return seen;
    after = result.next_after;
  }
  throw new Error('pagination did not end');
}

test('items and the plain order go by key', () => {
  assert.deepEqual(index.items.map((p) => p.code), ['ARV', 'BRG', 'FJI', 'POL', 'RIV', 'SMR', 'TON', 'ZUR']);
  assert.deepEqual(codes({}), ['ARV', 'BRG', 'FJI', 'POL', 'RIV', 'SMR', 'TON', 'ZUR']);
});

test('ranks a code, then a name with a word starting with the query, then other matches; groups within each', () => {
  // Word starts: RIV (big), then BRG's second name and SMR (small, by key); ARV only contains it.
  assert.deepEqual(codes({ q: 'riverside' }), ['RIV', 'BRG', 'SMR', 'ARV']);
  assert.deepEqual(codes({ q: 'riv' }), ['RIV', 'BRG', 'SMR', 'ARV']);
  assert.deepEqual(codes({ q: 'nb' }), ['BRG']);
  assert.equal(index.search({ q: 'b rg' }).items[0]!.sort_key, '1|BRG');
  const unspaced = createPlaceIndex(places, { key: (p) => p.code, position: (p) => p, codes: (p) => [p.code], names: (p) => p.names, groups: 1, group: () => 0 });
  assert.equal(unspaced.search({ q: 'b rg' }).items[0]!.sort_key, '2|BRG');
  // Words may come from different names, but a word start is looked for in one name at a time.
  assert.deepEqual(codes({ q: 'bridgetown quay' }), ['BRG']);
  assert.equal(index.search({ q: 'bridgetown old' }).items[0]!.sort_key, '5|BRG');
  assert.equal(index.search({ q: 'old riverside' }).items[0]!.sort_key, '3|BRG');
});

test('a code is a whole code, and a word start is found through punctuation, not inside a word', () => {
  const harbours = createPlaceIndex([place('SJH', ["St. John's Harbour", 'Port 𝒜lpha', 'North\tBay\nQuay'], { alias: 'SJ' })], {
    key: (p) => p.code, position: (p) => p, codes: (p) => [p.code, p.alias], names: (p) => p.names, groups: 1, group: () => 0,
  });
  const rank = (q: string) => harbours.search({ q }).items.map((hit) => hit.sort_key);
  assert.deepEqual(rank('sj'), ['0|SJH']);
  assert.deepEqual(rank('jh'), ['2|SJH']);
  assert.deepEqual(rank('s'), ['1|SJH']);
  assert.deepEqual(rank('st john'), ['1|SJH']);
  assert.deepEqual(rank("john's harb"), ['1|SJH']);
  assert.deepEqual(rank('ohn'), ['2|SJH']);
  assert.deepEqual(rank('harbour port'), ['2|SJH']);
  // A letter outside the basic plane is a letter: "lpha" starts no word.
  assert.deepEqual(rank('lpha'), ['2|SJH']);
  assert.deepEqual(rank('port 𝒜l'), ['1|SJH']);
  // White space in the data reads as a space, as in a query.
  assert.deepEqual(rank('north bay quay'), ['1|SJH']);
  assert.deepEqual(rank('bay'), ['1|SJH']);
});

test('case and accents are ignored on both sides', () => {
  assert.deepEqual(codes({ q: 'ZURICH' }), ['ZUR']);
  assert.deepEqual(codes({ q: 'Zürich  lake ' }), ['ZUR']);
});

test('`accept` filters every order', () => {
  const south = (p: Place) => p.region === 'south';
  assert.deepEqual(codes({}, south), ['ZUR']);
  assert.deepEqual(codes({ q: 'lake' }, south), ['ZUR']);
  assert.deepEqual(codes({ q: 'riverside' }, south), []);
  assert.deepEqual(codes({ near: { lat: 10, lon: 10, radius_nm: 100 } }, (p) => p.size === 'big'), ['RIV', 'ARV']);
});

test('near: nearest first with distances, across the antimeridian and at a pole', () => {
  const result = index.search({ near: { lat: 10, lon: 10, radius_nm: 13 } });
  assert.deepEqual(result.items.map((hit) => hit.item.code), ['RIV', 'BRG', 'SMR']);
  assert.equal(result.items[0]!.distance_nm, 0);
  assert.ok(Math.abs(result.items[1]!.distance_nm! - 6) < 0.01);
  assert.equal(index.search({ q: 'riverside' }).items[0]!.distance_nm, null);
  assert.deepEqual(codes({ near: { lat: -19.5, lon: -179.9, radius_nm: 400 } }), ['FJI', 'TON']);
  assert.deepEqual(codes({ near: { lat: -89, lon: 135, radius_nm: 61 } }), ['POL']);
});

test('pages join up to the whole result in every order', () => {
  const queries: PlaceSearch[] = [{}, { q: 'riverside' }, { q: 'r' }, { near: { lat: 10, lon: 10, radius_nm: 6000 } }];
  for (const query of queries) {
    const whole = codes({ ...query, limit: MAX_SEARCH_LIMIT });
    for (const limit of [1, 2, 3]) assert.deepEqual(allPages({ ...query, limit }), whole, `${JSON.stringify(query)} by ${limit}`);
  }
  assert.equal(index.search({ limit: places.length }).next_after, null);
  assert.equal(index.search({ limit: places.length - 1 }).next_after, `0|${index.items.at(-2)!.code}`);
});

test('a cursor goes on after its item even when that item has gone', () => {
  assert.deepEqual(codes({ after: '0|BZZ' }), ['FJI', 'POL', 'RIV', 'SMR', 'TON', 'ZUR']);
  assert.deepEqual(codes({ q: 'riverside', after: '2|RIZ' }), ['BRG', 'SMR', 'ARV']);
});

test('limits are clamped; positions it did not issue and a bad centre are RangeErrors', () => {
  assert.equal(index.search({ limit: 0 }).items.length, 1);
  assert.equal(index.search({ limit: 10_000 }).items.length, places.length);
  for (const after of ['', 'RIV', '|RIV', 'x|RIV', '-1|RIV', '3|']) assert.throws(() => index.search({ after }), RangeError, after);
  assert.throws(() => index.search({ near: { lat: 91, lon: 0, radius_nm: 10 } }), RangeError);
  assert.throws(() => index.search({ near: { lat: 0, lon: 181, radius_nm: 10 } }), RangeError);
  assert.throws(() => index.search({ near: { lat: 0, lon: 0, radius_nm: Number.NaN } }), RangeError);
});
