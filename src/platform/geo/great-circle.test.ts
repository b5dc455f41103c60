import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EARTH_RADIUS_NM, haversineNm } from './great-circle.ts';

const close = (actual: number, expected: number, tolerance: number) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} not within ${tolerance} of ${expected}`);

test('a minute of arc is about a nautical mile; a quarter meridian is a quarter of the circumference', () => {
  close(haversineNm(10, 20, 10 + 1 / 60, 20), 1, 0.001);
  close(haversineNm(0, 0, 90, 0), (EARTH_RADIUS_NM * Math.PI) / 2, 1e-9);
  assert.equal(haversineNm(51.47, -0.46, 51.47, -0.46), 0);
});

test('takes the short way across the antimeridian and over a pole', () => {
  close(haversineNm(0, 179.5, 0, -179.5), haversineNm(0, -0.5, 0, 0.5), 1e-9);
  close(haversineNm(89, 0, 89, 180), haversineNm(0, 0, 2, 0), 1e-9);
  close(haversineNm(-90, 0, -90, 123), 0, 1e-9);
});
