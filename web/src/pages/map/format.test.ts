import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDegrees, formatPosition, navStatusText } from './format.ts';

test('positions read in degrees and decimal minutes', () => {
  assert.equal(formatPosition(51.92, 4.5), '51°55.20′N 004°30.00′E');
  assert.equal(formatPosition(-33.8568, -151.2153), '33°51.41′S 151°12.92′W');
  assert.equal(formatPosition(10.999999, 0), '11°00.00′N 000°00.00′E');
});

test('navigational status and courses', () => {
  assert.equal(navStatusText(5), 'Moored');
  assert.equal(navStatusText(9), 'Reserved (9)');
  assert.equal(navStatusText(null), '–');
  assert.equal(formatDegrees(359.7), '0°');
});
