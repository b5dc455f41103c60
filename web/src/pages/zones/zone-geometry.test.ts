import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appliesToSummary, circleFromDrawn, circleRing, parseFlags, polygonFromDrawn, shapeSummary, zoneBounds } from './zone-geometry.ts';

const EARTH_RADIUS_NM = 3440.065;
/** Haversine, written again here so the ring is checked against an independent measure. */
function distanceNm(a: number[], b: number[]): number {
  const rad = Math.PI / 180;
  const s = Math.sin(((b[1]! - a[1]!) * rad) / 2) ** 2 + Math.cos(a[1]! * rad) * Math.cos(b[1]! * rad) * Math.sin(((b[0]! - a[0]!) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_NM * Math.asin(Math.sqrt(s));
}

test('a circle\'s ring is closed and every point is the radius away on the ground', () => {
  const ring = circleRing({ lat: 60, lon: 179.9 }, 25, 48);
  assert.equal(ring.length, 49);
  assert.deepEqual(ring[0], ring.at(-1));
  for (const point of ring) assert.ok(Math.abs(distanceNm([179.9, 60], point) - 25) < 1e-6, `${point} is ${distanceNm([179.9, 60], point)} nm away`);
  // Longitudes stay continuous past 180° rather than jumping to -180.
  assert.ok(Math.max(...ring.map(([lon]) => lon!)) > 180);
});

test('a circle drawn flat on the map comes back as its centre and radius', () => {
  // A ring as a Web Mercator drawing tool makes it: a true circle in projected coordinates.
  const centre = { lat: 52.05, lon: 3.8 };
  const y0 = Math.log(Math.tan(Math.PI / 4 + (centre.lat * Math.PI) / 360));
  const r = 0.002;
  const ring = Array.from({ length: 65 }, (_, i) => {
    const angle = ((i % 64) / 64) * 2 * Math.PI;
    const x = centre.lon + (r * Math.cos(angle) * 180) / Math.PI;
    const y = y0 + r * Math.sin(angle);
    return [x, (2 * Math.atan(Math.exp(y)) - Math.PI / 2) * (180 / Math.PI)];
  });
  assert.deepEqual(circleFromDrawn(ring, 9.26), { type: 'Circle', center: centre, radius_nm: 5 });
  assert.deepEqual(circleFromDrawn(ring.map(([lon, lat]) => [lon! + 360, lat!]), 9.26).center, centre, 'a longitude past 180° comes back in range');
});

test('a drawn polygon keeps its ring to 6 decimals; bounds hold the whole zone', () => {
  const ring = [[3.1234567, 52.1], [3.5, 52.1], [3.5, 52.4], [3.1234567, 52.1]];
  assert.deepEqual(polygonFromDrawn(ring).coordinates, [[[3.123457, 52.1], [3.5, 52.1], [3.5, 52.4], [3.123457, 52.1]]]);
  assert.deepEqual(zoneBounds(polygonFromDrawn(ring)), [[3.123457, 52.1], [3.5, 52.4]]);
  const [[west, south], [east, north]] = zoneBounds({ type: 'Circle', center: { lat: 0, lon: 0 }, radius_nm: 60 });
  assert.ok(Math.abs(north - 1) < 0.01 && Math.abs(south + 1) < 0.01 && Math.abs(east - 1) < 0.01 && Math.abs(west + 1) < 0.01, `${[west, south, east, north]}`);
});

test('a zone\'s shape and watch in words; flags as typed', () => {
  assert.equal(shapeSummary({ type: 'Circle', center: { lat: 1, lon: 2 }, radius_nm: 2.5 }), 'Circle, 2.5 nm radius');
  assert.equal(shapeSummary(polygonFromDrawn([[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]])), 'Polygon, 4 corners');
  assert.equal(appliesToSummary({ fleet: true }), 'Your fleet');
  assert.equal(appliesToSummary({ fleet: true, categories: ['TANKER', 'CARGO'], flags: ['NL'] }), 'Your fleet; also other vessels of type tanker or cargo under the flag of Netherlands');
  assert.equal(appliesToSummary({ fleet: true, flags: ['GB', 'NO'] }), 'Your fleet; also other vessels under the flag of United Kingdom or Norway');
  assert.deepEqual(parseFlags(' gb, nl;NL  no '), ['GB', 'NL', 'NO']);
});
