import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MID_TABLE } from './mid.ts';
import { MMSI_KINDS, classifyMmsi, formatMmsi, isValidMmsi } from './mmsi.ts';

const GB = { alpha2: 'GB', country: 'United Kingdom' };

test('ship stations take their flag from the first three digits', () => {
  assert.deepEqual(classifyMmsi(232_123_456), { kind: 'ship', mid: 232, flag: GB });
  assert.deepEqual(classifyMmsi(366_999_001), { kind: 'ship', mid: 366, flag: { alpha2: 'US', country: 'United States' } });
  assert.deepEqual(classifyMmsi(477_123_400), { kind: 'ship', mid: 477, flag: { alpha2: 'HK', country: 'Hong Kong' } });
  assert.equal(classifyMmsi(538_001_234).flag?.alpha2, 'MH');
});

test('MIDs are read at the offset of each format', () => {
  assert.deepEqual(classifyMmsi(2_320_001), { kind: 'coast_station', mid: 232, flag: GB }); // 002320001
  assert.deepEqual(classifyMmsi(23_212_345), { kind: 'group', mid: 232, flag: GB }); // 023212345
  assert.deepEqual(classifyMmsi(3_699_999), { kind: 'coast_station', mid: 369, flag: { alpha2: 'US', country: 'United States' } });
  assert.deepEqual(classifyMmsi(992_351_234), { kind: 'aid_to_navigation', mid: 235, flag: GB });
  assert.deepEqual(classifyMmsi(982_321_234), { kind: 'auxiliary_craft', mid: 232, flag: GB });
  assert.deepEqual(classifyMmsi(111_232_001), { kind: 'sar_aircraft', mid: 232, flag: GB });
  assert.deepEqual(classifyMmsi(823_212_345), { kind: 'handheld_vhf', mid: 232, flag: GB });
});

test('free-form devices carry no MID', () => {
  assert.deepEqual(classifyMmsi(970_012_345), { kind: 'sart', mid: null, flag: null });
  assert.deepEqual(classifyMmsi(972_012_345), { kind: 'mob', mid: null, flag: null });
  assert.deepEqual(classifyMmsi(974_012_345), { kind: 'epirb', mid: null, flag: null });
});

test('invalid: out of range, non-integers, unknown prefixes, unallocated MIDs', () => {
  const invalid = [
    0, -1, 1_000_000_000, 2.5, Number.NaN, Number.POSITIVE_INFINITY, // not an MMSI at all
    123_456_789, 100_000_000, 110_232_001, // 1xx other than 111
    971_012_345, 975_000_000, 960_000_000, // 9xx outside 970/972/974/98/99
    217_000_000, 999_999_999, 980_001_234, 111_999_001, 899_912_345, // MID not allocated
    12_345, 1_000_000, 19_999_999, // 000012345, 001000000, 019999999: no MID where one belongs
  ];
  for (const n of invalid) assert.deepEqual(classifyMmsi(n), { kind: 'invalid', mid: null, flag: null }, String(n));
});

test('classifyMmsi never throws and keeps its invariants on any number', () => {
  const anyNumber = fc.oneof(fc.integer(), fc.double(), fc.integer({ min: 0, max: 999_999_999 }));
  fc.assert(
    fc.property(anyNumber, (n) => {
      const c = classifyMmsi(n);
      assert.ok(MMSI_KINDS.includes(c.kind));
      // A flag comes with its MID, and only kinds that carry one have it.
      assert.equal(c.flag === null, c.mid === null);
      if (c.kind === 'invalid' || c.kind === 'sart' || c.kind === 'mob' || c.kind === 'epirb') assert.equal(c.mid, null);
      else assert.ok(c.mid !== null && c.flag !== null);
      if (c.kind !== 'invalid') assert.ok(isValidMmsi(n));
    }),
    { numRuns: 5000 },
  );
});

test('every allocated MID classifies back to itself in every MID-bearing format', () => {
  fc.assert(
    fc.property(fc.constantFrom(...MID_TABLE), fc.integer({ min: 0, max: 999 }), (info, tail) => {
      const flag = { alpha2: info.alpha2, country: info.country };
      const m = info.mid;
      assert.deepEqual(classifyMmsi(m * 1_000_000 + tail), { kind: 'ship', mid: m, flag });
      assert.deepEqual(classifyMmsi(m * 100_000 + tail), { kind: 'group', mid: m, flag });
      assert.deepEqual(classifyMmsi(m * 10_000 + tail), { kind: 'coast_station', mid: m, flag });
      assert.deepEqual(classifyMmsi(111_000_000 + m * 1_000 + tail), { kind: 'sar_aircraft', mid: m, flag });
      assert.deepEqual(classifyMmsi(990_000_000 + m * 10_000 + tail), { kind: 'aid_to_navigation', mid: m, flag });
      assert.deepEqual(classifyMmsi(980_000_000 + m * 10_000 + tail), { kind: 'auxiliary_craft', mid: m, flag });
      assert.deepEqual(classifyMmsi(800_000_000 + m * 100_000 + tail), { kind: 'handheld_vhf', mid: m, flag });
    }),
  );
});

test('isValidMmsi: integers 1..999999999 or nine-digit strings', () => {
  for (const ok of [1, 2_320_001, 232_123_456, 999_999_999, '002320001', '232123456']) assert.equal(isValidMmsi(ok), true, String(ok));
  for (const bad of [0, -5, 1_000_000_000, 1.5, Number.NaN, '2320001', '0000000000', '000000000', '23212345a', ' 232123456', null, undefined, 232123456n, {}]) {
    assert.equal(isValidMmsi(bad), false, String(bad));
  }
});

test('formatMmsi restores leading zeros', () => {
  assert.equal(formatMmsi(2_320_001), '002320001');
  assert.equal(formatMmsi(232_123_456), '232123456');
  assert.throws(() => formatMmsi(0), RangeError);
  assert.throws(() => formatMmsi(1_000_000_000), RangeError);
});
