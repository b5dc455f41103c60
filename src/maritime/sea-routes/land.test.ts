import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Position } from './geo.ts';
import { buildLandIndex, isOnLand, landBeyondNm, landRunsAlong, loadLand } from './land.ts';
import type { LandIndex } from './land.ts';

function land(): LandIndex {
  const loaded = loadLand();
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.message);
  return loaded.land;
}

test('the Natural Earth land loads once and tells land from sea', (t) => {
  const index = land();
  t.diagnostic(`land: ${index.stats.rings} rings, ${index.stats.edges} edges, indexed in ${index.stats.buildMs.toFixed(0)} ms`);
  assert.ok(index.stats.edges > 300_000);
  assert.equal(loadLand(), loadLand());
  for (const [name, point, expected] of [
    ['Munich', [11.58, 48.14], true],
    ['the North Sea', [3, 55], false],
    ['the Istrian interior', [13.9, 45.2], true],
    ['the Kvarner', [14.35, 45.2], false],
    ['Antarctica', [0, -80], true],
    ['the Southern Ocean', [0, -60], false],
    ['Chukotka, west of the antimeridian', [178, 66.5], true],
    ['the Pacific at the antimeridian', [-179.5, 0], false],
  ] as const) {
    assert.equal(isOnLand(index, [...point]), expected, name);
  }
});

test('land runs along a segment: across Istria, across the antimeridian, open sea', () => {
  const index = land();
  // Trieste to Rijeka crosses the neck of Istria: most of the 32 nm is land.
  const istria = landRunsAlong(index, [13.7768, 45.6495], [14.4, 45.33]);
  const istrianLand = istria.reduce((sum, [start, end]) => sum + end - start, 0);
  assert.ok(istrianLand > 20 && istrianLand < 32, String(istrianLand));
  // Across Chukotka and the antimeridian, then the open Pacific on the same track far south.
  const chukotka = landRunsAlong(index, [178, 66.5], [-178, 66.5]);
  assert.ok(chukotka.reduce((sum, [start, end]) => sum + end - start, 0) > 80);
  assert.deepEqual(landRunsAlong(index, [178, 0], [-178, 0]), []);
  assert.deepEqual(landRunsAlong(index, [3, 55], [3, 55]), []);
});

test('a small square island: runs, the allowance at each end, the ray test', () => {
  const island: Position[] = [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]];
  const index = buildLandIndex([island]);
  assert.equal(isOnLand(index, [0.5, 0.5]), true);
  assert.equal(isOnLand(index, [1.5, 0.5]), false);
  assert.equal(isOnLand(index, [0.5, -0.5]), false);
  // Through a vertex of the square and along the diagonal: one run, from corner to corner.
  const diagonal = landRunsAlong(index, [-0.5, -0.5], [1.5, 1.5]);
  assert.equal(diagonal.length, 1);
  // Straight across, from sea to sea: about 60 nm of land at the equator.
  const across = landRunsAlong(index, [-0.5, 0.5], [1.5, 0.5]);
  assert.equal(across.length, 1);
  assert.ok(Math.abs(across[0]![1] - across[0]![0] - 60) < 0.2, JSON.stringify(across));
  // Starting ashore: the run touching the start is forgiven up to the allowance, an inner one is not.
  const ashore = landRunsAlong(index, [0.9, 0.5], [3, 0.5]);
  assert.equal(ashore[0]![0], 0);
  assert.ok(Math.abs(landBeyondNm(ashore, 126, 2, 2) - (ashore[0]![1] - 2)) < 1e-9);
  assert.equal(landBeyondNm(ashore, 126, 10, 0), 0);
  assert.equal(landBeyondNm([[10, 20]], 30, 100, 100), 10);
  assert.equal(landBeyondNm([[10, 30]], 30, 0, 4), 16);
});
