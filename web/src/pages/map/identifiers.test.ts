import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidImo, parseFlags, parseIdentifiers } from './identifiers.ts';

test('IMO check digits', () => {
  assert.ok(isValidImo(9_074_729));
  assert.ok(isValidImo(9_811_000));
  assert.ok(!isValidImo(9_074_728));
  assert.ok(!isValidImo(907_472));
});

test('MMSIs and IMO numbers are told apart, and mistakes are named', () => {
  assert.deepEqual(parseIdentifiers('244123456, 9074729'), { mmsi: [244_123_456], imo: [9_074_729], errors: [] });
  assert.deepEqual(parseIdentifiers('IMO 9811000 mmsi:2442000 244123456 244123456'), { mmsi: [2_442_000, 244_123_456], imo: [9_811_000], errors: [] });
  const wrong = parseIdentifiers('1234568 IMO9074728 abc');
  assert.deepEqual([wrong.mmsi, wrong.imo], [[], []]);
  assert.equal(wrong.errors.length, 3);
  assert.match(wrong.errors[1]!, /check digit/);
  assert.deepEqual(parseIdentifiers('  '), { mmsi: [], imo: [], errors: [] });
});

test('flags are two-letter codes in upper case', () => {
  assert.deepEqual(parseFlags('nl, PA pa'), { flags: ['NL', 'PA'], errors: [] });
  assert.equal(parseFlags('NLD').errors.length, 1);
});
