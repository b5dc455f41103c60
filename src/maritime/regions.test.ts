import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Change, Vessel } from './vessels/store.ts';
import { RegionInterest, regionOf, regionsOfBox } from './regions.ts';

const at = (lat: number, lon: number) => regionOf({ vessel: { position: { lat, lon } } as Vessel, position: true, static: false } as Change);

test('a change travels on the 10° region of its position, or on none without one', () => {
  assert.equal(at(-90, -180), 'r0c0');
  assert.equal(at(51.9, 4.1), 'r14c18');
  assert.equal(at(51.9, -0.1), 'r14c17');
  assert.equal(at(90, 180), 'r17c35');
  assert.equal(regionOf({ vessel: { position: null } as Vessel, position: false, static: true }), 'none');
});

test('a box touches the regions of every position in it, across the antimeridian too', () => {
  assert.deepEqual(regionsOfBox({ minLat: 51, maxLat: 52, minLon: 3, maxLon: 5 }), ['r14c18']);
  assert.deepEqual(regionsOfBox({ minLat: 49, maxLat: 51, minLon: -1, maxLon: 1 }).sort(), ['r13c17', 'r13c18', 'r14c17', 'r14c18']);
  assert.deepEqual(regionsOfBox({ minLat: 60, maxLat: 62, minLon: 175, maxLon: -175 }).sort(), ['r15c0', 'r15c35']);
  // Every position inside a box lies in one of its regions.
  const box = { minLat: -12.3, maxLat: 7.7, minLon: 95.2, maxLon: 121.9 };
  const regions = new Set(regionsOfBox(box));
  for (let lat = box.minLat; lat <= box.maxLat; lat += 0.7) {
    for (let lon = box.minLon; lon <= box.maxLon; lon += 0.9) assert.ok(regions.has(at(lat, lon)), `${lat},${lon}`);
  }
});

test("an instance's regions follow its streams: counted per region, all while one has no box", () => {
  const interest = new RegionInterest<string>();
  const northSea = [{ minLat: 51, maxLat: 52, minLon: 3, maxLon: 5 }];
  assert.equal(interest.set('a', northSea), true);
  assert.deepEqual(interest.parts(), new Set(['r14c18']));
  assert.equal(interest.set('b', northSea), false, 'a region already taken');
  assert.equal(interest.delete('a'), false, 'b still needs it');
  assert.equal(interest.set('c', []), true, 'a stream without a box needs every region');
  assert.equal(interest.parts(), 'all');
  assert.equal(interest.delete('c'), true);
  assert.deepEqual(interest.parts(), new Set(['r14c18']));
  assert.equal(interest.set('b', [{ minLat: 1, maxLat: 2, minLon: 103, maxLon: 104 }]), true, 'a stream replacing its filter');
  assert.deepEqual(interest.parts(), new Set(['r9c28']));
  assert.equal(interest.set('wide', [{ minLat: -80, maxLat: 80, minLon: -170, maxLon: 170 }]), true);
  assert.equal(interest.parts(), 'all', 'boxes over a quarter of the regions take them all');
  assert.equal(interest.delete('wide'), true);
  assert.equal(interest.delete('b'), true);
  assert.deepEqual(interest.parts(), new Set());
});
