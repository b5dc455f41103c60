import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoSeconds, referenceTime, resolveDayTime, resolveTimeOfDay } from './time.ts';

const at = (iso: string): Date => new Date(iso);
const resolved = (day: number, hour: number, minute: number, now: string): string | undefined =>
  resolveDayTime(day, hour, minute, at(now))?.toISOString();

test('a report from earlier this month', () => {
  assert.equal(resolved(27, 22, 25, '2025-01-27T23:00:00Z'), '2025-01-27T22:25:00.000Z');
  assert.equal(resolved(3, 6, 0, '2025-01-27T23:00:00Z'), '2025-01-03T06:00:00.000Z');
});

test('a report from last month, across the year', () => {
  assert.equal(resolved(31, 23, 50, '2025-01-01T00:10:00Z'), '2024-12-31T23:50:00.000Z');
});

test('up to one hour ahead counts as now (clock skew)', () => {
  assert.equal(resolved(1, 0, 20, '2025-01-31T23:50:00Z'), '2025-02-01T00:20:00.000Z');
});

test('a day more than 25 days back is taken as the near future when within 6 days', () => {
  // The reference is the file date 2025-01-27 00:00 while its reports run to 22:25.
  assert.equal(resolved(27, 22, 25, '2025-01-27T00:00:00Z'), '2025-01-27T22:25:00.000Z');
  assert.equal(resolved(30, 12, 0, '2025-01-27T00:00:00Z'), '2025-01-30T12:00:00.000Z');
});

test('otherwise the report is stale and dated in the past', () => {
  // February has no 31st: neither 31 March (21 days ahead) nor 31 January (38 days back) fits the window.
  assert.equal(resolved(31, 12, 0, '2025-03-10T00:00:00Z'), '2025-01-31T12:00:00.000Z');
});

test('months without the day are skipped', () => {
  assert.equal(resolved(31, 12, 0, '2025-05-01T00:00:00Z'), '2025-03-31T12:00:00.000Z');
  assert.equal(resolved(29, 12, 0, '2025-03-02T00:00:00Z'), '2025-01-29T12:00:00.000Z');
});

test('hour 24 is midnight at the end of the day', () => {
  assert.equal(resolved(28, 24, 0, '2025-01-27T18:00:00Z'), '2025-01-29T00:00:00.000Z');
  assert.equal(resolveDayTime(28, 24, 30, at('2025-01-27T18:00:00Z')), null);
});

test('impossible values give null', () => {
  for (const [day, hour, minute] of [[0, 1, 1], [32, 1, 1], [1, 25, 0], [1, 1, 60]] as const) {
    assert.equal(resolveDayTime(day, hour, minute, at('2025-01-27T00:00:00Z')), null);
  }
});

test('time of day only: the latest such time, one hour of slack', () => {
  assert.equal(resolveTimeOfDay(22, 10, at('2025-01-27T22:30:00Z'))?.toISOString(), '2025-01-27T22:10:00.000Z');
  assert.equal(resolveTimeOfDay(23, 50, at('2025-01-27T00:20:00Z'))?.toISOString(), '2025-01-26T23:50:00.000Z');
  assert.equal(resolveTimeOfDay(0, 40, at('2025-01-27T23:50:00Z'))?.toISOString(), '2025-01-28T00:40:00.000Z');
  assert.equal(resolveTimeOfDay(24, 0, at('2025-01-27T23:50:00Z')), null);
});

test('reference time: default now, invalid dates refused', () => {
  assert.ok(referenceTime(undefined) instanceof Date);
  assert.equal(referenceTime(new Date('nonsense')), null);
});

test('ISO output drops the milliseconds', () => {
  assert.equal(isoSeconds(at('2025-01-27T22:25:00Z')), '2025-01-27T22:25:00Z');
});
