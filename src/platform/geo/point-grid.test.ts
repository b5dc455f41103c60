import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { haversineNm, type LatLon } from './great-circle.ts';
import { createPointGrid } from './point-grid.ts';

type Point = LatLon & { readonly id: string };

const point = (id: string, lat: number, lon: number): Point => ({ id, lat, lon });
const ids = (hits: readonly { item: Point }[]) => hits.map((hit) => hit.item.id);

test('reaches across the antimeridian from either side', () => {
  const grid = createPointGrid([point('east', -18, 179.5), point('west', -18, -179.5), point('far', -18, 170)], (p) => p, (p) => p.id);
  assert.deepEqual(ids(grid.nearest({ lat: -18, lon: 179.9 }, 60)), ['east', 'west']);
  assert.deepEqual(ids(grid.nearest({ lat: -18, lon: -179.9 }, 60)), ['west', 'east']);
  assert.deepEqual(ids(grid.nearest({ lat: -18, lon: -179.9 }, 600)), ['west', 'east', 'far']);
});

test('a circle over a pole reaches every longitude on the far side', () => {
  const points = [point('pole', 90, 0), point('near', 89.5, 10), point('across', 89.5, -170), point('south', 60, 0)];
  const grid = createPointGrid(points, (p) => p, (p) => p.id);
  // 89.5° on the opposite meridian is 1° (60 nm) from 89.5° here, through the pole.
  assert.deepEqual(ids(grid.nearest({ lat: 89.5, lon: 10 }, 61)), ['near', 'pole', 'across']);
  assert.deepEqual(ids(grid.nearest({ lat: 90, lon: 123 }, 31)), ['pole', 'across', 'near']);
  const southPole = createPointGrid([point('amundsen', -90, 0)], (p) => p);
  assert.deepEqual(ids(southPole.nearest({ lat: -89, lon: 120 }, 61)), ['amundsen']);
});

test('nearest first, equal distances by key, and only what `accept` lets through', () => {
  const points = [point('b', 0, 1), point('a', 0, -1), point('c', 1, 0), point('skip', 0, 0.5)];
  const grid = createPointGrid(points, (p) => p, (p) => p.id);
  const hits = grid.nearest({ lat: 0, lon: 0 }, 100, (p) => p.id !== 'skip');
  assert.deepEqual(ids(hits), ['a', 'b', 'c']);
  assert.equal(hits[0]!.distance_nm, haversineNm(0, 0, 0, -1));
  assert.deepEqual(ids(grid.nearest({ lat: 0, lon: 0 }, 0)), []);
});

test('finds exactly the points a full scan finds, anywhere on the globe', () => {
  // Whole microdegrees: positions as data sets give them, not a few ulps from a cell edge.
  const degrees = (max: number) => fc.integer({ min: -max * 1e6, max: max * 1e6 }).map((micro) => micro / 1e6);
  const spot = fc.record({ lat: degrees(90), lon: degrees(180) });
  fc.assert(
    fc.property(fc.array(spot, { maxLength: 60 }), spot, fc.integer({ min: 0, max: 6000 }), (spots, centre, radius) => {
      const points = spots.map((s, i) => point(String(i).padStart(3, '0'), s.lat, s.lon));
      const grid = createPointGrid(points, (p) => p, (p) => p.id);
      const expected = points
        .map((p) => ({ id: p.id, distance: haversineNm(centre.lat, centre.lon, p.lat, p.lon) }))
        .filter((p) => p.distance <= radius)
        .sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : 1))
        .map((p) => p.id);
      assert.deepEqual(ids(grid.nearest(centre, radius)), expected);
    }),
    { numRuns: 500 },
  );
});
