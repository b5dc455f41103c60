// Threshold crossings with dead bands: edges only, and no flapping at the threshold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clearingLine, crossing, crossingFor, DEAD_BANDS, type Edge, type ThresholdKind } from './hysteresis.ts';

/** Feeds the values through a kind's rule as the engine would: the edges, in order. */
function edges(kind: ThresholdKind, threshold: number, values: readonly number[]): Edge[] {
  let open = false;
  const seen: Edge[] = [];
  for (const value of values) {
    const edge = crossingFor(kind, { value, threshold, wasOpen: open });
    if (edge === 'hold') continue;
    seen.push(edge);
    open = edge === 'open';
  }
  return seen;
}

test('a crosswind hovering at the limit opens once and never flaps', () => {
  const hovering = [19.5, 20, 20.5, 19.5, 20.4, 19.1, 20.9, 18.5, 20.2, 18];
  assert.deepEqual(edges('landing.crosswind_above', 20, hovering), ['open']);
  assert.deepEqual(edges('landing.crosswind_above', 20, [...hovering, 17.9, 19.9, 20]), ['open', 'clear'], 'clears below 18 kt; reopens only above 20');
  assert.deepEqual(edges('landing.crosswind_above', 20, [20, 20, 20]), [], 'at the limit is not above it');
});

test('a safety score clears only 5 points above the threshold; visibility 20 % above it', () => {
  assert.deepEqual(edges('landing.safety_score_below', 60, [61, 59, 61, 64, 59, 65, 66, 59]), ['open', 'clear', 'open']);
  assert.deepEqual(edges('landing.visibility_below', 1500, [1600, 1400, 1700, 1500, 1800, 1801, 1499]), ['open', 'clear', 'open']);
});

test('the clearing line of each band, and a closed event in the dead band stays closed', () => {
  assert.equal(clearingLine(20, 'above', { amount: 2 }), 18);
  assert.equal(clearingLine(60, 'below', { amount: 5 }), 65);
  assert.equal(clearingLine(1500, 'below', { factor: 1.2 }), 1800);
  assert.equal(clearingLine(120, 'above', { factor: 1.2 }), 100);
  assert.equal(crossing({ value: 19, threshold: 20, direction: 'above', deadBand: { amount: 2 }, wasOpen: false }), 'hold');
  assert.equal(crossing({ value: 19, threshold: 20, direction: 'above', deadBand: { amount: 2 }, wasOpen: true }), 'hold');
  assert.equal(crossing({ value: 21, threshold: 20, direction: 'above', deadBand: { amount: 2 }, wasOpen: true }), 'hold', 'open stays open');
  assert.deepEqual(Object.keys(DEAD_BANDS).sort(), ['landing.crosswind_above', 'landing.safety_score_below', 'landing.visibility_below', 'vessel.eta_delayed']);
});
