import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoTime, timeOf } from './iso-time.ts';

test('isoTime and timeOf answer as Date does, whatever came before', () => {
  const times = [0, 1_764_250_000_000, 1_764_250_000_000, 1_764_250_000_001, -1, 1_764_250_000_001, 253_402_300_799_999];
  for (const ms of times) {
    assert.equal(isoTime(ms), new Date(ms).toISOString());
    assert.equal(timeOf(isoTime(ms)), ms);
  }
  for (const iso of ['2026-11-27T15:00:00.000Z', '2026-11-27T15:00:00Z', '2026-11-27T15:00:00.000Z', 'not a time', '']) {
    assert.deepEqual(timeOf(iso), Date.parse(iso));
  }
  assert.throws(() => isoTime(Number.NaN), RangeError);
});
