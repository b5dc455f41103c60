// Zone geometry: what is refused and where, containment on both sides of the antimeridian (as a
// ring that jumps across and as RFC 7946's split pair), holes, circles by great-circle distance,
// crossings, and the box that holds a zone (what the zone watch files it under).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { haversineNm } from '../platform/geo/great-circle.ts';
import { compileGeometry, contains, crossing, GeometryError, MAX_VERTICES, parseGeometry, type ZoneGeometry } from './geometry.ts';

const box = (west: number, south: number, east: number, north: number) => [[west, south], [east, south], [east, north], [west, north], [west, south]];

/** The fields a broken geometry is refused for. */
function refusedAt(input: unknown): string[] {
  try {
    parseGeometry(input);
  } catch (error) {
    assert.ok(error instanceof GeometryError, String(error));
    return error.issues.map((issue) => issue.field);
  }
  return assert.fail('accepted');
}

test('broken geometry is refused naming the part', () => {
  assert.deepEqual(refusedAt({ type: 'Point', coordinates: [0, 0] }), ['type']);
  assert.deepEqual(refusedAt({ type: 'Polygon', coordinates: [] }), ['coordinates']);
  assert.deepEqual(refusedAt({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] }), ['coordinates/0']);
  assert.deepEqual(refusedAt({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }), ['coordinates/0']);
  assert.deepEqual(refusedAt({ type: 'Polygon', coordinates: [box(0, 0, 1, 1), [[0, 0], [1, 0], 'x', [0, 0]]] }), ['coordinates/1/2']);
  // Latitude first is the usual mistake: 51.5, -181 is not a place.
  assert.deepEqual(refusedAt({ type: 'Polygon', coordinates: [[[51, -181], [52, -1], [52, 0], [51, -181]]] }), ['coordinates/0/0/1', 'coordinates/0/3/1']);
  assert.deepEqual(refusedAt({ type: 'MultiPolygon', coordinates: [[box(0, 0, 1, 1)], [[[0, 0]]]] }), ['coordinates/1/0']);
  // Round the pole: every step east, back where it started after a full turn.
  assert.deepEqual(refusedAt({ type: 'Polygon', coordinates: [[[0, 80], [120, 80], [-120, 80], [0, 80]]] }), ['coordinates/0']);
  assert.deepEqual(refusedAt({ type: 'Circle', center: { lat: 91, lon: 0 }, radius_nm: 0 }), ['center/lat', 'radius_nm']);
  assert.deepEqual(refusedAt({ type: 'Circle', center: { lat: 0, lon: 0 }, radius_nm: 500.1 }), ['radius_nm']);
  const many = Array.from({ length: MAX_VERTICES }, (_, i) => [i / MAX_VERTICES, Math.sin(i)]);
  assert.deepEqual(refusedAt({ type: 'Polygon', coordinates: [[...many, many[0]]] }), ['coordinates']);
});

test('a polygon with a hole, and a circle', () => {
  const frame = parseGeometry({ type: 'Polygon', coordinates: [box(0, 0, 10, 10), box(4, 4, 6, 6)] });
  assert.equal(contains(frame, { lat: 2, lon: 2 }), true);
  assert.equal(contains(frame, { lat: 5, lon: 5 }), false);
  assert.equal(contains(frame, { lat: 5, lon: 11 }), false);
  const circle = parseGeometry({ type: 'Circle', center: { lat: 50, lon: -1.4 }, radius_nm: 10 });
  assert.equal(contains(circle, { lat: 50.1, lon: -1.4 }), true); // 6 nm north
  assert.equal(contains(circle, { lat: 50.2, lon: -1.4 }), false); // 12 nm
});

// A box of 2w° by 2h° around a centre on the antimeridian, and points inside or outside it.
const sizes = fc.record({ w: fc.double({ min: 0.1, max: 20, noNaN: true }), h: fc.double({ min: 0.1, max: 20, noNaN: true }), lat: fc.double({ min: -60, max: 60, noNaN: true }) });
const wrap = (lon: number) => (lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon);
const shapes = ({ w, h, lat }: { w: number; h: number; lat: number }): ZoneGeometry[] => [
  // The ring jumps across: 180-w → -(180-w).
  parseGeometry({ type: 'Polygon', coordinates: [box(180 - w, lat - h, -180 + w, lat + h)] }),
  // The same, drawn from the west side and the other way round.
  parseGeometry({ type: 'Polygon', coordinates: [[[-180 + w, lat - h], [180 - w, lat - h], [180 - w, lat + h], [-180 + w, lat + h], [-180 + w, lat - h]]] }),
  // RFC 7946: split at the antimeridian.
  parseGeometry({ type: 'MultiPolygon', coordinates: [[box(180 - w, lat - h, 180, lat + h)], [box(-180, lat - h, -180 + w, lat + h)]] }),
];

test('points inside a box across the antimeridian are contained, on both sides', () => {
  fc.assert(fc.property(sizes, fc.double({ min: -0.99, max: 0.99, noNaN: true }), fc.double({ min: -0.99, max: 0.99, noNaN: true }), (size, u, v) => {
    const point = { lat: size.lat + v * size.h, lon: wrap(180 + u * size.w) };
    for (const shape of shapes(size)) assert.equal(contains(shape, point), true, JSON.stringify({ shape, point }));
  }));
});

test('points outside a box across the antimeridian are not', () => {
  fc.assert(fc.property(sizes, fc.double({ min: 1.01, max: 8, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), fc.boolean(), (size, far, v, east) => {
    // Beyond the east or west edge, anywhere in latitude; or beyond the top or bottom.
    const beside = { lat: size.lat + v * size.h, lon: wrap(180 + (east ? far : -far) * size.w) };
    const above = { lat: size.lat + (east ? far : -far) * size.h, lon: wrap(180 + (v / 3) * size.w) };
    for (const shape of shapes(size)) {
      for (const point of [beside, above]) {
        if (Math.abs(point.lat) > 90 || Math.abs(180 - Math.abs(point.lon)) >= 180) continue;
        assert.equal(contains(shape, point), false, JSON.stringify({ shape, point }));
      }
    }
  }));
});

test('a circle holds what is within its radius, across the antimeridian too', () => {
  const point = fc.record({ lat: fc.double({ min: -80, max: 80, noNaN: true }), lon: fc.double({ min: -180, max: 180, noNaN: true }) });
  fc.assert(fc.property(point, point, fc.double({ min: 1, max: 500, noNaN: true }), (center, other, radius) => {
    const circle = parseGeometry({ type: 'Circle', center, radius_nm: radius });
    assert.equal(contains(circle, other), haversineNm(center.lat, center.lon, other.lat, other.lon) <= radius);
  }));
  const dateline = parseGeometry({ type: 'Circle', center: { lat: 0, lon: 179.9 }, radius_nm: 30 });
  assert.equal(contains(dateline, { lat: 0, lon: -179.9 }), true); // 12 nm east, across
});

test('a move enters, leaves, or does neither', () => {
  const zone = parseGeometry({ type: 'Polygon', coordinates: [box(179, -1, -179, 1)] });
  const west = { lat: 0, lon: 178 };
  const inside = { lat: 0, lon: -179.5 };
  const east = { lat: 0, lon: -178 };
  assert.equal(crossing(zone, west, inside), 'entered');
  assert.equal(crossing(zone, inside, east), 'exited');
  assert.equal(crossing(zone, west, east), 'none');
  assert.equal(crossing(zone, inside, { lat: 0.5, lon: 179.5 }), 'none');
});

test('the bounds of a zone hold every point it contains, in one longitude range or two across the antimeridian', () => {
  const plain = compileGeometry(parseGeometry({ type: 'Polygon', coordinates: [box(3, 52, 4, 53)] }));
  assert.deepEqual(plain.bounds, { minLat: 52, maxLat: 53, lonRanges: [[3, 4]] });
  const jumping = compileGeometry({ type: 'Polygon', coordinates: [[[179, -1], [-179, -1], [-179, 1], [179, 1], [179, -1]]] });
  assert.deepEqual(jumping.bounds, { minLat: -1, maxLat: 1, lonRanges: [[179, 180], [-180, -179]] });
  const polar = compileGeometry({ type: 'Circle', center: { lat: 89.5, lon: 0 }, radius_nm: 60 });
  assert.deepEqual(polar.bounds.lonRanges, [[-180, 180]]);
  fc.assert(fc.property(
    fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: 1, max: 500, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
    (lat, lon, radius, north, east) => {
      // Points round the centre, out to a little past the radius; longitudes wrapped to ±180.
      const pointLat = lat + (north * radius) / 55;
      const pointLon = ((lon + (east * radius) / (55 * Math.cos((pointLat * Math.PI) / 180)) + 540) % 360) - 180;
      const circle = compileGeometry({ type: 'Circle', center: { lat, lon }, radius_nm: radius });
      if (!circle.contains({ lat: pointLat, lon: pointLon })) return true;
      const { minLat, maxLat, lonRanges } = circle.bounds;
      return pointLat >= minLat - 1e-9 && pointLat <= maxLat + 1e-9 && lonRanges.some(([from, to]) => pointLon >= from - 1e-9 && pointLon <= to + 1e-9);
    },
  ));
});
