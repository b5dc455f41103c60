import { test } from 'node:test';
import assert from 'node:assert/strict';
import { angleBetweenDeg, distanceNm, initialBearingDeg, normaliseHeadingDeg } from './geo.ts';

const HEATHROW = { lat: 51.4706, lon: -0.461941 };
const KENNEDY = { lat: 40.639801, lon: -73.7789 };

test('London Heathrow to New York JFK: about 2,999 nm, leaving on 288° true', () => {
  const distance = distanceNm(HEATHROW, KENNEDY);
  assert.ok(Math.abs(distance - 2999) / 2999 < 0.01, `distance ${distance}`);
  assert.equal(distanceNm(KENNEDY, HEATHROW), distance);
  assert.ok(Math.abs(initialBearingDeg(HEATHROW, KENNEDY) - 288) < 0.5);
});

test('one minute of latitude is one nautical mile', () => {
  const distance = distanceNm({ lat: 10, lon: 20 }, { lat: 10 + 1 / 60, lon: 20 });
  assert.ok(Math.abs(distance - 1) < 0.001, `distance ${distance}`);
  assert.equal(distanceNm(HEATHROW, HEATHROW), 0);
});

test('bearings along the axes, in [0, 360)', () => {
  const origin = { lat: 0, lon: 0 };
  assert.equal(initialBearingDeg(origin, { lat: 1, lon: 0 }), 0);
  assert.ok(Math.abs(initialBearingDeg(origin, { lat: 0, lon: 1 }) - 90) < 1e-9);
  assert.ok(Math.abs(initialBearingDeg(origin, { lat: -1, lon: 0 }) - 180) < 1e-9);
  assert.ok(Math.abs(initialBearingDeg(origin, { lat: 0, lon: -1 }) - 270) < 1e-9);
  // Across the antimeridian the short way is east.
  assert.ok(Math.abs(initialBearingDeg({ lat: 0, lon: 179.5 }, { lat: 0, lon: -179.5 }) - 90) < 1e-9);
});

test('headings are written in (0, 360], values already in range untouched', () => {
  assert.equal(normaliseHeadingDeg(0), 360);
  assert.equal(normaliseHeadingDeg(360), 360);
  assert.equal(normaliseHeadingDeg(720), 360);
  assert.equal(normaliseHeadingDeg(-90), 270);
  assert.equal(normaliseHeadingDeg(450), 90);
  assert.equal(normaliseHeadingDeg(89.6), 89.6);
});

test('angle between two directions takes the short way round', () => {
  assert.equal(angleBetweenDeg(350, 10), 20);
  assert.equal(angleBetweenDeg(10, 350), 20);
  assert.equal(angleBetweenDeg(0, 180), 180);
  assert.equal(angleBetweenDeg(360, 0), 0);
  assert.equal(angleBetweenDeg(90, 271), 179);
});
