import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryCode, isCountryCode, normaliseUnlocode } from './places.ts';

test('English country names, the WPI spellings among them, give alpha-2 codes', () => {
  const names: [string, string][] = [
    ['Netherlands', 'NL'], ['United Kingdom', 'GB'], ['Russia', 'RU'], ['Burma', 'MM'], ['Turkey', 'TR'],
    ['The Bahamas', 'BS'], ["Cote D'Ivoire", 'CI'], ['Congo (Kinshasa)', 'CD'], ['Bosnia and Herzegovina', 'BA'],
    ['Saint Kitts and Nevis', 'KN'], ['Curacao', 'CW'], ['Hong Kong', 'HK'], ['Wake Island', 'UM'],
  ];
  for (const [name, code] of names) assert.equal(countryCode(name), code, name);
  assert.equal(countryCode('Atlantis'), null);
});

test('only current ISO 3166 codes count as countries', () => {
  assert.ok(isCountryCode('NL'));
  assert.ok(isCountryCode('GB'));
  for (const code of ['UK', 'SU', 'EU', 'XA', 'ZZ', 'JB']) assert.equal(isCountryCode(code), false, code);
});

test('UN/LOCODEs lose spaces and case; malformed ones are null', () => {
  assert.equal(normaliseUnlocode('NL RTM'), 'NLRTM');
  assert.equal(normaliseUnlocode(' nlrtm '), 'NLRTM');
  assert.equal(normaliseUnlocode('US 9HA'), 'US9HA');
  for (const bad of ['NL', 'NL RT', 'NL RT1', 'JB HBI', 'GB ME""', '']) assert.equal(normaliseUnlocode(bad), null, bad);
});
