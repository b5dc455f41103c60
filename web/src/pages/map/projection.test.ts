import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  boxContains,
  latitudeOf,
  longitudeOf,
  minZoom,
  panBy,
  toScreen,
  viewAt,
  visibleBox,
  worldCopies,
  worldX,
  worldY,
  zoomAround,
} from './projection.ts';

test('world coordinates round-trip through Web Mercator', () => {
  for (const [lat, lon] of [[0, 0], [51.92, 4.5], [-33.86, 151.2], [60, -179.9], [-85, 179.99]]) {
    assert.ok(Math.abs(latitudeOf(worldY(lat!)) - lat!) < 1e-9);
    assert.ok(Math.abs(longitudeOf(worldX(lon!)) - lon!) < 1e-9);
  }
  assert.equal(worldY(0), 0.5);
  assert.equal(worldY(90), worldY(85.05112878), 'latitudes beyond the square world are clamped');
});

test('a view centred on a position draws it in the middle', () => {
  const view = viewAt(51.92, 4.5, 8, 800, 600);
  const [x, y] = toScreen(view, worldX(4.5), worldY(51.92));
  assert.ok(Math.abs(x - 400) < 1e-6 && Math.abs(y - 300) < 1e-6);
});

test('zooming keeps the point under the pointer in place', () => {
  const view = viewAt(40, -20, 4, 1000, 700);
  const before = [worldX(-10), worldY(45)] as const;
  const [sx, sy] = toScreen(view, before[0], before[1]);
  const zoomed = zoomAround(view, 1.5, sx, sy);
  const [ax, ay] = toScreen(zoomed, before[0], before[1]);
  assert.ok(Math.abs(ax - sx) < 1e-6 && Math.abs(ay - sy) < 1e-6);
  assert.equal(zoomed.zoom, 5.5);
});

test('the zoom never lets the world get shorter than the view', () => {
  const view = viewAt(0, 0, 0, 1200, 800);
  assert.equal(view.zoom, minZoom(view));
  assert.ok(Math.abs(256 * 2 ** view.zoom - 800) < 1e-9);
  const out = zoomAround(view, -3);
  assert.equal(out.zoom, view.zoom);
});

test('panning east across the antimeridian wraps the centre', () => {
  const view = viewAt(0, 179, 6, 800, 600);
  const moved = panBy(view, -2000, 0);
  assert.ok(moved.centerX >= 0 && moved.centerX < 1);
  // 2000 px at zoom 6 (16,384 px round the world) is 43.95°: from 179°E to 137.05°W.
  assert.ok(Math.abs(longitudeOf(moved.centerX) + 137.0547) < 1e-3, `centre at ${longitudeOf(moved.centerX)}`);
});

test('the visible box of a view across the antimeridian has minLon > maxLon', () => {
  const view = viewAt(-17, 180, 5, 1024, 512);
  const box = visibleBox(view)!;
  assert.ok(box.minLon > box.maxLon, JSON.stringify(box));
  // 1024 px of the 8192 px world at zoom 5 are 45°.
  assert.deepEqual([box.minLon, box.maxLon], [157.5, -157.5]);
  assert.ok(boxContains(box, -17, 179.5) && boxContains(box, -17, -179.5));
  assert.ok(!boxContains(box, -17, 0));
  assert.ok(box.minLat < -17 && box.maxLat > -17);
});

test('a view of an ordinary area gives an ordinary box, widened by the margin', () => {
  const view = viewAt(52, 4, 8, 1024, 768);
  const box = visibleBox(view)!;
  // 1024 px of the 65,536 px world at zoom 8 are 5.625°.
  assert.deepEqual([box.minLon, box.maxLon], [1.1875, 6.8125]);
  const wider = visibleBox(view, 0.25)!;
  assert.ok(wider.minLon < box.minLon && wider.maxLon > box.maxLon && wider.minLat < box.minLat && wider.maxLat > box.maxLat);
});

test('a view of the whole world needs no box, and a wide one keeps every longitude', () => {
  assert.equal(visibleBox(viewAt(0, 0, 0, 2000, 256)), null);
  const band = visibleBox(viewAt(50, 0, 2.5, 3000, 400))!;
  assert.deepEqual([band.minLon, band.maxLon], [-180, 180]);
  assert.ok(band.minLat > 0 && band.maxLat < 85.1);
});

test('world copies cover a view wider than the world', () => {
  assert.deepEqual(worldCopies(viewAt(0, 0, 2, 800, 600)), [0]);
  // A 512 px world in a 1600 px view: 1.56 worlds each side of the centre.
  assert.deepEqual(worldCopies(viewAt(0, 0, 1, 1600, 512)), [-2, -1, 0, 1, 2]);
  assert.deepEqual(worldCopies(viewAt(0, 179, 6, 800, 600)), [0, 1]);
});
