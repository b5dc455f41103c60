import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { createCanvas } from '@napi-rs/canvas';
import { BASEMAP_STYLE, drawBasemap, graticuleStep, landFromTopology, landScaleFor, type PathContext } from './basemap.ts';
import { toScreen, viewAt, worldX, worldY } from './projection.ts';

const require = createRequire(import.meta.url);
const land50 = landFromTopology(JSON.parse(readFileSync(require.resolve('world-atlas/land-50m.json'), 'utf8')));

function hex(colour: string): number[] {
  return [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16));
}

test('the land of Natural Earth is projected into rings', () => {
  assert.ok(land50.rings.length > 1000);
  assert.ok(land50.pointCount > 50_000);
  for (const ring of land50.rings) {
    assert.ok(ring.minY >= 0 && ring.maxY <= 1 + 1e-9);
    // Rings across the antimeridian run on past it instead of jumping round the world.
    assert.ok(ring.maxX - ring.minX <= 1 + 1e-9 && ring.minX >= 0 && ring.minX < 1, `a ring from ${ring.minX} to ${ring.maxX}`);
  }
});

test('land is land and sea is sea around the Netherlands', () => {
  const view = viewAt(52.5, 4.5, 6, 400, 300);
  const surface = createCanvas(400, 300);
  const ctx = surface.getContext('2d');
  drawBasemap(ctx as unknown as PathContext, view, land50);
  const at = (lat: number, lon: number) => {
    const [x, y] = toScreen(view, worldX(lon), worldY(lat));
    return [...ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data].slice(0, 3);
  };
  assert.deepEqual(at(52.1, 5.5), hex(BASEMAP_STYLE.land), 'Utrecht');
  assert.deepEqual(at(53.5, 3.5), hex(BASEMAP_STYLE.water), 'the North Sea');
  assert.deepEqual(at(51.3, 2.0), hex(BASEMAP_STYLE.water), 'the Channel approaches');
});

test('no land band runs round the world: Chukotka and Fiji are drawn across the antimeridian', () => {
  const view = viewAt(25, 10, 1, 850, 662);
  const surface = createCanvas(850, 662);
  const ctx = surface.getContext('2d');
  drawBasemap(ctx as unknown as PathContext, view, land50);
  const at = (lat: number, lon: number) => {
    const [x, y] = toScreen(view, worldX(lon), worldY(lat));
    return [...ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data].slice(0, 3);
  };
  assert.deepEqual(at(74, 5), hex(BASEMAP_STYLE.water), 'the Greenland Sea');
  assert.deepEqual(at(72, -165), hex(BASEMAP_STYLE.water), 'the Chukchi Sea');
  assert.deepEqual(at(-17, -125), hex(BASEMAP_STYLE.water), 'the Pacific at the latitude of Fiji');
  assert.deepEqual(at(66, 175), hex(BASEMAP_STYLE.land), 'Chukotka west of 180°');
  assert.deepEqual(at(66.5, -176), hex(BASEMAP_STYLE.land), 'Chukotka east of 180°');
});

test('rings off screen are skipped and tiny steps left out', () => {
  let points = 0;
  const counting: PathContext = {
    beginPath() {}, moveTo() { points++; }, lineTo() { points++; }, closePath() {}, fill() {}, stroke() {}, fillRect() {},
    fillStyle: '', strokeStyle: '', lineWidth: 1,
  };
  const world = drawBasemap(counting, viewAt(0, 0, 0, 256, 256), land50);
  assert.ok(world < land50.pointCount / 3, `the whole world drew ${world} of ${land50.pointCount} points`);
  points = 0;
  const harbour = drawBasemap(counting, viewAt(51.95, 4.1, 10, 800, 600), land50);
  assert.ok(harbour < world, `a harbour view drew ${harbour}`);
});

test('the level of detail and graticule follow the zoom', () => {
  assert.equal(landScaleFor(1), '110m');
  assert.equal(landScaleFor(4), '50m');
  assert.equal(landScaleFor(9), '10m');
  assert.equal(graticuleStep(viewAt(0, 0, 1, 800, 600)), 30);
  assert.equal(graticuleStep(viewAt(0, 0, 8, 800, 600)), 1);
  assert.equal(graticuleStep(viewAt(0, 0, 10, 800, 600)), 0.25);
});
