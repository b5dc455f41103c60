import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMetar } from 'metar-taf-parser';
import { findLowLevelWindShear, remarksOfInterest } from './remarks.ts';

test('LLWS remarks with their runway words', () => {
  assert.equal(findLowLevelWindShear('AO2 LLWS RWY 27 SLP123'), 'LLWS RWY 27');
  assert.equal(findLowLevelWindShear('LLWS ALL RWY'), 'LLWS ALL RWY');
  assert.equal(findLowLevelWindShear('NXT FCST BY 00Z LLWS'), 'LLWS');
  assert.equal(findLowLevelWindShear('AO2 SLP123'), null);
  assert.equal(findLowLevelWindShear('XLLWS'), null);
  assert.equal(findLowLevelWindShear(null), null);
});

test('peak wind and wind shift from the library decode; a missing hour is the observation hour', () => {
  const library = parseMetar('KXYZ 271756Z 27010KT 10SM CLR 10/05 A2992 RMK AO2 PK WND 28045/17 WSHFT 1745');
  const remarks = remarksOfInterest('AO2 PK WND 28045/17 WSHFT 1745', library.remarks, 17);
  assert.deepEqual(remarks.peak_wind, { direction_deg: 280, speed_kt: 45, time: '17:17', raw: 'PK WND 28045/17' });
  assert.deepEqual(remarks.wind_shift, { time: '17:45', frontal_passage: false, raw: 'WSHFT 1745' });
  assert.equal(remarks.low_level_wind_shear, null);
  assert.ok(remarks.decoded.length >= 2);
});

test('no remarks', () => {
  assert.deepEqual(remarksOfInterest(null, [], 0), { raw: null, peak_wind: null, wind_shift: null, low_level_wind_shear: null, decoded: [] });
});
