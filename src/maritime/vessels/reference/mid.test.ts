import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MID_TABLE, midInfo, midsForFlag } from './mid.ts';

const regionName = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

test('table sanity: MIDs unique, ascending, within 201..775', () => {
  assert.equal(MID_TABLE.length, 292);
  for (let i = 0; i < MID_TABLE.length; i++) {
    const { mid } = MID_TABLE[i]!;
    assert.ok(Number.isInteger(mid) && mid >= 201 && mid <= 775, `MID ${mid} out of range`);
    if (i > 0) assert.ok(mid > MID_TABLE[i - 1]!.mid, `MID ${mid} duplicated or out of order`);
  }
});

test('table sanity: every alpha2 is a known ISO region, one name per code', () => {
  const names = new Map<string, string>();
  for (const { mid, alpha2, country, area } of MID_TABLE) {
    assert.match(alpha2, /^[A-Z]{2}$/, `MID ${mid}`);
    assert.ok(regionName.of(alpha2), `MID ${mid}: ${alpha2} is not a region ICU knows`);
    assert.ok(country.length > 0);
    if (area !== undefined) assert.ok(area.length > 0);
    const seen = names.get(alpha2);
    if (seen === undefined) names.set(alpha2, country);
    else assert.equal(country, seen, `MID ${mid}: ${alpha2} named two ways`);
  }
});

test('MID digit blocks follow the ITU regions', () => {
  // 2 Europe, 3 North America/Caribbean, 4 Asia, 5 Oceania/SE Asia, 6 Africa, 7 South America.
  assert.equal(midInfo(211)?.alpha2, 'DE');
  assert.equal(midInfo(316)?.alpha2, 'CA');
  assert.equal(midInfo(431)?.alpha2, 'JP');
  assert.equal(midInfo(503)?.alpha2, 'AU');
  assert.equal(midInfo(601)?.alpha2, 'ZA');
  assert.equal(midInfo(710)?.alpha2, 'BR');
});

test('known allocations', () => {
  for (const mid of [232, 233, 234, 235]) assert.equal(midInfo(mid)?.alpha2, 'GB');
  assert.deepEqual(midInfo(366), { mid: 366, alpha2: 'US', country: 'United States' });
  assert.equal(midInfo(477)?.alpha2, 'HK');
  assert.equal(midInfo(236)?.alpha2, 'GI');
  assert.equal(midInfo(310)?.alpha2, 'BM');
  assert.equal(midInfo(231)?.alpha2, 'FO');
  assert.equal(midInfo(331)?.alpha2, 'GL');
  assert.equal(midInfo(358)?.alpha2, 'PR');
  assert.equal(midInfo(329)?.alpha2, 'GP');
  assert.equal(midInfo(550)?.alpha2, 'TL');
  assert.equal(midInfo(638)?.alpha2, 'SS');
  assert.deepEqual(midInfo(204), { mid: 204, alpha2: 'PT', country: 'Portugal', area: 'Azores' });
  assert.equal(midInfo(303)?.area, 'Alaska');
});

test('unallocated and malformed MIDs are undefined', () => {
  for (const mid of [0, 100, 200, 217, 260, 280, 302, 999, 776, -1, 232.5, Number.NaN]) {
    assert.equal(midInfo(mid), undefined, String(mid));
  }
});

test('midsForFlag lists every MID of a flag', () => {
  assert.deepEqual(midsForFlag('US'), [303, 338, 366, 367, 368, 369]);
  assert.deepEqual(midsForFlag('gb'), [232, 233, 234, 235]);
  assert.deepEqual(midsForFlag('PA'), [351, 352, 353, 354, 355, 356, 357, 370, 371, 372, 373, 374]);
  assert.deepEqual(midsForFlag('MT'), [215, 229, 248, 249, 256]);
  assert.deepEqual(midsForFlag('TF'), [501, 607, 618, 635]);
  assert.deepEqual(midsForFlag('XX'), []);
  for (const { alpha2, mid } of MID_TABLE) assert.ok(midsForFlag(alpha2).includes(mid));
});

test('table entries cannot be mutated', () => {
  assert.ok(Object.isFrozen(MID_TABLE));
  assert.ok(Object.isFrozen(MID_TABLE[0]));
  assert.ok(Object.isFrozen(midsForFlag('US')));
});
