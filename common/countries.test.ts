import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryName } from './countries.ts';

test('assigned ISO 3166-1 codes have a name', () => {
  assert.equal(countryName('GB'), 'United Kingdom');
  assert.equal(countryName('SE'), 'Sweden');
  assert.equal(countryName('NO'), 'Norway');
  assert.equal(countryName('SS'), 'South Sudan');
});

test('user-assigned, reserved, withdrawn and malformed codes have none', () => {
  for (const code of ['AA', 'QO', 'XK', 'XA', 'ZZ', 'EU', 'UN', 'UK', 'AC', 'YU', 'CS', 'AN', 'AB', 'gb', 'GBR', '', 'G1']) {
    assert.equal(countryName(code), null, code);
  }
});

test('exactly the 249 codes of ISO 3166-1 pass', () => {
  let count = 0;
  for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) if (countryName(String.fromCharCode(a, b)) !== null) count++;
  assert.equal(count, 249);
});
