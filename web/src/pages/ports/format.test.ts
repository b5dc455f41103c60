import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, formatFactor, harbourSizeText, neededTideHeight, words } from './format.ts';

test('durations', () => {
  assert.equal(formatDuration(45), '45 min');
  assert.equal(formatDuration(430), '7 h 10 min');
  assert.equal(formatDuration(120), '2 h');
  assert.equal(formatDuration(3060), '2 d 3 h');
});

test('labels and values', () => {
  assert.equal(harbourSizeText('very_small'), 'Very small');
  assert.equal(harbourSizeText(null), 'Unknown');
  assert.equal(words('coastal_natural'), 'Coastal natural');
  assert.equal(formatFactor('visibility', 350, 'm'), '350 m');
  assert.equal(formatFactor('waves', 5.24, 'm'), '5.2 m');
  assert.equal(neededTideHeight(8.8, 8), 0.8);
  assert.equal(neededTideHeight(13.2, 15), -1.8);
});
