import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUtc } from './format.ts';

const AT = '2026-11-26T14:20:41Z';

test('times read in UTC, 24 hours, labelled', () => {
  assert.equal(formatUtc(AT), '26 Nov 2026 14:20 UTC');
  assert.equal(formatUtc(AT, { year: false }), '26 Nov 14:20 UTC');
  assert.equal(formatUtc(AT, { show: 'time' }), '14:20 UTC');
  assert.equal(formatUtc(AT, { show: 'date' }), '26 Nov 2026');
  assert.equal(formatUtc('2026-11-26T23:59:59.999Z', { show: 'time' }), '23:59 UTC', 'minutes are cut, never rounded into the next day');
  assert.equal(formatUtc('2026-11-27T00:05:00Z', { year: false }), '27 Nov 00:05 UTC', 'midnight is 00, not 24');
});

test('a port time is named by its zone, summer time included; an unknown zone reads as UTC', () => {
  assert.equal(formatUtc(AT, { zone: 'Europe/Amsterdam', year: false }), '26 Nov 15:20 CET');
  assert.equal(formatUtc('2026-07-01T00:05:00Z', { zone: 'Europe/Amsterdam', year: false }), '1 Jul 02:05 CEST');
  assert.equal(formatUtc(AT, { zone: 'Asia/Singapore', show: 'time' }), '22:20 GMT+8');
  assert.equal(formatUtc(AT, { zone: 'Not/AZone' }), '26 Nov 2026 14:20 UTC');
  assert.equal(formatUtc(AT, { zone: 'Etc/UTC' }), '26 Nov 2026 14:20 UTC');
});

test('no time reads as a dash', () => {
  assert.equal(formatUtc(null), '–');
  assert.equal(formatUtc(undefined), '–');
  assert.equal(formatUtc('not a time'), '–');
});
