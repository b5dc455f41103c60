import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ceilingFt, ceilingUncertain, decodeSection } from './section.ts';
import type { CloudLayer } from './types.ts';

const layer = (cover: CloudLayer['cover'], base: number | null): CloudLayer => ({ cover, base_ft: base, type: null, raw: '' });

test('ceiling: lowest BKN/OVC with a known base, or the vertical visibility', () => {
  assert.equal(ceilingFt([layer('FEW', 500), layer('BKN', 1200), layer('OVC', 800)], null), 800);
  assert.equal(ceilingFt([layer('SCT', 500), layer('BKN', null)], null), null);
  assert.equal(ceilingFt([layer('OVC', 3000)], 200), 200);
  assert.equal(ceilingFt([], null), null);
});

test('ceiling uncertain: a BKN/OVC layer or VV of unknown height', () => {
  assert.equal(ceilingUncertain([layer('BKN', null)], false, null), true);
  assert.equal(ceilingUncertain([layer('FEW', null), layer(null, null)], false, null), false);
  assert.equal(ceilingUncertain([], true, null), true);
  assert.equal(ceilingUncertain([], true, 200), false);
});

const decode = (text: string, mode: 'metar' | 'taf', lenient = false) => decodeSection(text.split(' '), { mode, lenient });

test('the wind variation joins the wind', () => {
  const result = decode('19015KT 140V220 6000', 'metar');
  assert.ok(result.ok);
  assert.deepEqual([result.section.conditions.wind?.variable_from_deg, result.section.conditions.wind?.variable_to_deg], [140, 220]);
});

test('METAR: unknown groups reject before the temperature and are kept after it', () => {
  assert.equal(decode('19015KT 6000 FOO 16/14 Q1006', 'metar').ok, false);
  const after = decode('19015KT 6000 16/14 Q1006 FOO', 'metar');
  assert.ok(after.ok);
  assert.deepEqual(after.section.unparsed_groups, ['FOO']);
});

test('TAF: unknown groups are kept unless they look like a broken wind or visibility', () => {
  const kept = decode('19015KT 6000 FOO 620304', 'taf');
  assert.ok(kept.ok);
  assert.deepEqual(kept.section.unparsed_groups, ['FOO', '620304']);
  const broken = decode('19015KTS 6000', 'taf');
  assert.equal(broken.ok ? '' : broken.error.code, 'bad_wind');
});

test('lenient mode skips only groups that cannot change visibility or ceiling', () => {
  const skipped = decode('1915KT 6000 BKN010 16/4 Q10', 'metar', true);
  assert.ok(skipped.ok);
  assert.deepEqual(skipped.section.invalid_groups.map((error) => error.code), ['bad_wind', 'bad_temperature', 'bad_pressure']);
  assert.equal(skipped.section.conditions.ceiling_ft, 1000);
  assert.equal(decode('19015KT 6000 BKN01 16/14', 'metar', true).ok, false);
});

test('the first of two altimeter groups is kept', () => {
  const result = decode('19015KT 9999 16/14 Q1015 A2997', 'metar');
  assert.ok(result.ok);
  assert.equal(result.section.altimeter?.hpa, 1015);
});
