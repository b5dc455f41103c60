import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boxContains, boxOfBounds, longitudeSpan, sameBox } from './area.ts';

test('bounds across the antimeridian give a box with minLon > maxLon', () => {
  // MapLibre's bounds of a view centred on 180°: east runs on past it.
  const box = boxOfBounds({ west: 157.5, south: -25, east: 202.5, north: -9 })!;
  assert.deepEqual([box.minLon, box.maxLon], [157.5, -157.5]);
  assert.ok(boxContains(box, -17, 179.5) && boxContains(box, -17, -179.5));
  assert.ok(!boxContains(box, -17, 0) && !boxContains(box, 0, 179.5));
  // The same view from the other side of the world.
  assert.deepEqual(boxOfBounds({ west: -202.5, south: -25, east: -157.5, north: -9 }), box);
});

test('ordinary bounds give an ordinary box, widened by the margin', () => {
  const box = boxOfBounds({ west: 1.1875, south: 50.2, east: 6.8125, north: 53.7 })!;
  assert.deepEqual(box, { minLon: 1.1875, maxLon: 6.8125, minLat: 50.2, maxLat: 53.7 });
  const wider = boxOfBounds({ west: 1.1875, south: 50.2, east: 6.8125, north: 53.7 }, 0.25)!;
  assert.ok(wider.minLon < box.minLon && wider.maxLon > box.maxLon && wider.minLat < box.minLat && wider.maxLat > box.maxLat);
  assert.ok(!sameBox(box, wider) && sameBox(box, { ...box }));
});

test('the whole world needs no box, and a wide band keeps every longitude', () => {
  assert.equal(boxOfBounds({ west: -400, south: -85.0511, east: 400, north: 85.0511 }), null);
  const band = boxOfBounds({ west: -300, south: 30, east: 300, north: 70 })!;
  assert.deepEqual([band.minLon, band.maxLon, band.minLat, band.maxLat], [-180, 180, 30, 70]);
  // An eastern edge on the antimeridian is 180.
  assert.equal(boxOfBounds({ west: 170, south: 0, east: 180, north: 10 })!.maxLon, 180);
});

test('the longitudes a box spans, across the antimeridian too', () => {
  assert.equal(longitudeSpan({ minLat: 0, maxLat: 1, minLon: -180, maxLon: 180 }), 360);
  assert.equal(longitudeSpan({ minLat: 0, maxLat: 1, minLon: 1.5, maxLon: 7 }), 5.5);
  assert.equal(longitudeSpan({ minLat: 0, maxLat: 1, minLon: 157.5, maxLon: -157.5 }), 45);
});
