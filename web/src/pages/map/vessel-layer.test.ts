import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCanvas } from '@napi-rs/canvas';
import { CATEGORIES, categoryIndex } from './categories.ts';
import { toScreen, viewAt, worldX, worldY } from './projection.ts';
import { drawnDirection, drawTrack, drawVessels, hitTest, type VesselContext } from './vessel-layer.ts';
import type { VesselRecord } from './vessel-store.ts';

function vessel(mmsi: number, lat: number, lon: number, overrides: Partial<VesselRecord> = {}): VesselRecord {
  return {
    mmsi, name: null, imo: null, flag: null, category: 'CARGO', categoryIndex: categoryIndex('CARGO'),
    lat, lon, x: worldX(lon), y: worldY(lat), sog: 12, cog: 45, heading: 45, navStatus: 0, time: 0, source: 'simulated', destination: null,
    ...overrides,
  };
}

function canvas(width: number, height: number) {
  const surface = createCanvas(width, height);
  const ctx = surface.getContext('2d');
  return { ctx, asLayer: ctx as unknown as VesselContext, pixel: (x: number, y: number) => [...ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data] };
}

function hex(colour: string): number[] {
  return [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16));
}

/** Colours equal but for antialiasing at the edge of a shape. */
function assertColour(actual: number[], colour: string): void {
  const wanted = hex(colour);
  assert.ok(actual.slice(0, 3).every((value, index) => Math.abs(value - wanted[index]!) <= 3), `${actual} is not ${colour}`);
}

test('vessels are drawn in their category colour where they are, and hit testing finds them', () => {
  const view = viewAt(52, 4, 8, 400, 300);
  const { asLayer, pixel } = canvas(400, 300);
  const tanker = vessel(1, 52.01, 4.02, { category: 'TANKER', categoryIndex: categoryIndex('TANKER'), sog: 0, heading: null });
  const cargo = vessel(2, 51.98, 3.95);
  const drawn = drawVessels(asLayer, view, [tanker, cargo]);
  assert.equal(drawn.count, 2);
  const [tx, ty] = toScreen(view, tanker.x, tanker.y);
  assertColour(pixel(tx, ty), CATEGORIES.find((style) => style.category === 'TANKER')!.colour);
  const [cx, cy] = toScreen(view, cargo.x, cargo.y);
  assertColour(pixel(cx, cy), CATEGORIES.find((style) => style.category === 'CARGO')!.colour);
  assert.equal(hitTest(drawn, tx + 3, ty - 2), 1);
  assert.equal(hitTest(drawn, cx - 1, cy + 1), 2);
  assert.equal(hitTest(drawn, 5, 5), null);
});

test('an arrow points along the heading', () => {
  const view = viewAt(0, 0, 10, 200, 200);
  const { asLayer, pixel } = canvas(200, 200);
  const east = vessel(1, 0, 0, { heading: 90 });
  drawVessels(asLayer, view, [east]);
  const [x, y] = toScreen(view, east.x, east.y);
  // The tip reaches further ahead (east) than the tail goes back (west).
  assert.notEqual(pixel(x + 6, y)[3], 0);
  assert.equal(pixel(x - 7, y)[3], 0);
  assert.equal(pixel(x, y - 7)[3], 0);
});

test('vessels off screen are not drawn; a vessel near 180° shows across the antimeridian', () => {
  const view = viewAt(-17, 180, 6, 600, 400);
  const { asLayer } = canvas(600, 400);
  const drawn = drawVessels(asLayer, view, [vessel(1, -17, 179.8), vessel(2, -17, -179.8), vessel(3, 51, 4)]);
  assert.equal(drawn.count, 2);
  const [westX] = [drawn.xs[0]!, drawn.xs[1]!].sort((a, b) => a - b);
  assert.ok(westX! < 300, 'the vessel at 179.8°E is west of the centre');
});

test('thousands of vessels take few canvas calls: one path per category', () => {
  let fills = 0;
  let moves = 0;
  const counting: VesselContext = {
    beginPath() {}, moveTo() { moves++; }, lineTo() {}, arc() {}, closePath() {}, fill() { fills++; }, stroke() {},
    fillStyle: '', strokeStyle: '', lineWidth: 1,
  };
  const vessels: VesselRecord[] = [];
  for (let index = 0; index < 5000; index++) {
    const style = CATEGORIES[index % CATEGORIES.length]!;
    vessels.push(vessel(100_000 + index, -60 + (index % 120), -170 + ((index * 7) % 340), { category: style.category, categoryIndex: index % CATEGORIES.length }));
  }
  const drawn = drawVessels(counting, viewAt(0, 0, 2.2, 1200, 800), vessels);
  assert.equal(drawn.count, 5000);
  assert.equal(fills, CATEGORIES.length);
  assert.equal(moves, 5000);
});

test('the direction drawn is the heading, else the course, and none at rest', () => {
  assert.equal(drawnDirection({ sog: 10, cog: 80, heading: 85 }), 85);
  assert.equal(drawnDirection({ sog: 10, cog: 80, heading: null }), 80);
  assert.equal(drawnDirection({ sog: 0.2, cog: 80, heading: 85 }), null);
  assert.equal(drawnDirection({ sog: null, cog: 80, heading: 85 }), null);
});

test('a track across the antimeridian stays a short line', () => {
  const view = viewAt(-17, 180, 7, 400, 400);
  const { asLayer, pixel } = canvas(400, 400);
  drawTrack(asLayer, view, [{ lat: -17, lon: 179.7 }, { lat: -17, lon: -179.7 }]);
  const [x, y] = toScreen(view, worldX(-180), worldY(-17));
  assert.notEqual(pixel(x, y)[3], 0, 'the line crosses 180° in the middle of the view');
  assert.equal(pixel(20, y)[3], 0);
});
