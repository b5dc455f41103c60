import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as weather from './index.ts';

test('the public API is exported', () => {
  for (const name of ['parseMetar', 'parseTaf', 'tafConditionsAt', 'deriveWeather', 'flightCategory', 'visibilityNm', 'conditions', 'windShearRisk', 'windComponents'] as const) {
    assert.equal(typeof weather[name], 'function', name);
  }
  assert.ok(weather.CONDITION_ORDER.includes('CLEAR'));
});

test('end to end: METAR and TAF into the derived values', () => {
  const now = new Date('2025-01-27T23:00:00Z');
  const metar = weather.parseMetar('KJFK 271651Z 27015G35KT 10SM BKN025 10/05 A2992', { now });
  const taf = weather.parseTaf('TAF KJFK 271130Z 2712/2818 27015KT P6SM SCT050 WS020/27045KT', { now });
  assert.ok(metar.ok && taf.ok);
  const derived = weather.deriveWeather(metar.metar, { taf: taf.taf, runway: { designator: '31L', true_heading_deg: 302 } });
  assert.equal(derived.flight_category, 'MVFR');
  assert.equal(derived.wind_shear_risk.level, 'HIGH');
  assert.deepEqual(derived.wind_shear_risk.reasons.map((reason) => reason.rule), ['gust_spread', 'taf_wind_shear']);
  assert.equal(derived.wind_components?.crosswind_from, 'left');
});
