import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KT_PER_KMH, KT_PER_MPS, METRES_PER_NAUTICAL_MILE, METRES_PER_STATUTE_MILE, NM_PER_STATUTE_MILE, roundTo } from './units.ts';

test('conversion factors agree with each other', () => {
  assert.equal(roundTo(METRES_PER_STATUTE_MILE / METRES_PER_NAUTICAL_MILE, 6), NM_PER_STATUTE_MILE);
  assert.equal(roundTo(KT_PER_MPS, 4), 1.9438);
  assert.equal(roundTo(KT_PER_KMH, 4), 0.54);
});

test('roundTo', () => {
  assert.equal(roundTo(2.4856, 2), 2.49);
  assert.equal(roundTo(-0.04, 1), -0);
});
