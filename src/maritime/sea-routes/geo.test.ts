import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  destinationPoint,
  distanceNm,
  distanceToArcNm,
  distanceToPathNm,
  EARTH_RADIUS_NM,
  haversineNm,
  initialBearingDeg,
  interpolateGreatCircle,
  isValidLatLon,
  normalizeLon,
} from './geo.ts';
import type { Position } from './geo.ts';
import { pointAlong } from './along.ts';
import { MinHeap } from './heap.ts';

const NM_PER_DEGREE = (EARTH_RADIUS_NM * Math.PI) / 180;
const close = (actual: number, expected: number, tolerance: number, label = ''): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${label} ${actual} not within ${tolerance} of ${expected}`);

test('haversine: a degree of latitude is 60.04 nm and the quarter meridian 5403.6 nm', () => {
  close(haversineNm(0, 0, 1, 0), 60.04, 0.01);
  close(haversineNm(0, 0, 90, 0), 5403.6, 0.1);
  // Across the antimeridian the short way is taken.
  close(haversineNm(0, 179.5, 0, -179.5), 60.04, 0.01);
});

test('bearings, interpolation and destination points agree with each other', () => {
  close(initialBearingDeg([0, 0], [0, 10]), 0, 1e-9);
  close(initialBearingDeg([0, 0], [10, 0]), 90, 1e-9);
  close(initialBearingDeg([179, 0], [-179, 0]), 90, 1e-9);
  const mid = interpolateGreatCircle([0, 0], [10, 0], 0.5);
  close(mid[0], 5, 1e-9);
  close(mid[1], 0, 1e-9);
  const across = interpolateGreatCircle([179, 10], [-179, 10], 0.5);
  close(Math.abs(across[0]), 180, 1e-6);

  fc.assert(
    fc.property(
      fc.double({ min: -80, max: 80, noNaN: true }),
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.double({ min: 0, max: 359.9, noNaN: true }),
      fc.double({ min: 0.5, max: 3000, noNaN: true }),
      (lat, lon, bearing, distance) => {
        const start: Position = [lon, lat];
        const end = destinationPoint(start, bearing, distance);
        close(distanceNm(start, end), distance, 1e-6 * distance + 1e-7, 'distance');
        const f = 0.3;
        const partway = interpolateGreatCircle(start, end, f);
        close(distanceNm(start, partway), f * distance, 1e-6 * distance + 1e-7, 'fraction');
        assert.ok(distanceToArcNm(partway, start, end) < 1e-6);
      },
    ),
  );
});

test('distance to an arc: perpendicular inside, nearest end outside', () => {
  // 1 degree north of the middle of an equatorial arc.
  close(distanceToArcNm([5, 1], [0, 0], [10, 0]), 60.04, 0.01);
  // Beyond the end the nearest point is the end itself.
  close(distanceToArcNm([12, 0], [0, 0], [10, 0]), 2 * 60.04, 0.02);
  close(distanceToPathNm([5, 1], [[0, 0], [10, 0], [10, 10]]), 60.04, 0.01);
  assert.equal(distanceToPathNm([0, 0], []), Number.POSITIVE_INFINITY);
});

test('input validation and longitude wrapping', () => {
  assert.ok(isValidLatLon({ lat: 0, lon: 180 }));
  assert.ok(!isValidLatLon({ lat: Number.NaN, lon: 0 }));
  assert.ok(!isValidLatLon({ lat: 90.1, lon: 0 }));
  assert.ok(!isValidLatLon({ lat: 0, lon: -180.5 }));
  assert.ok(!isValidLatLon({ lat: '1', lon: 0 }));
  assert.ok(!isValidLatLon(null));
  assert.equal(normalizeLon(190), -170);
  assert.equal(normalizeLon(-190), 170);
  assert.equal(normalizeLon(180), -180);
});

test('pointAlong walks a path by distance with the course of the segment', () => {
  const path: Position[] = [[0, 0], [1, 0], [1, 1]];
  const cumulative = [0, distanceNm(path[0]!, path[1]!), distanceNm(path[0]!, path[1]!) + distanceNm(path[1]!, path[2]!)];
  const first = pointAlong(path, cumulative, 30);
  close(first.position[0], 30 / NM_PER_DEGREE, 1e-9);
  close(first.course, 90, 1e-6);
  assert.equal(first.segment, 0);
  const second = pointAlong(path, cumulative, 90, first.segment);
  assert.equal(second.segment, 1);
  close(second.course, 0, 1e-3);
  close(second.position[1], (90 - cumulative[1]!) / NM_PER_DEGREE, 1e-9);
  const end = pointAlong(path, cumulative, 1e9);
  assert.deepEqual(end.position.map((v) => Math.round(v * 1e9) / 1e9), [1, 1]);
  close(end.course, 0, 1e-3);
  assert.deepEqual(pointAlong(path, cumulative, Number.NaN).position, [0, 0]);
});

test('MinHeap pops in priority order, ties by id', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 1000 })), { maxLength: 300 }), (entries) => {
      const heap = new MinHeap(2);
      for (const [priority, id] of entries) heap.push(priority, id);
      const expected = [...entries].sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, id]) => id);
      const popped: number[] = [];
      while (heap.size > 0) popped.push(heap.pop());
      assert.deepEqual(popped, expected);
      assert.equal(heap.pop(), -1);
    }),
  );
  const heap = new MinHeap();
  heap.push(5, 1);
  heap.push(3, 2);
  heap.replaceTop(10, 3);
  assert.equal(heap.peekId(), 1);
  assert.equal(heap.peekPriority(), 5);
});
