import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { imoCheckDigit, imoFromPrefix, isValidImo } from './imo.ts';

test('real IMO numbers validate, a wrong check digit does not', () => {
  assert.equal(isValidImo(9074729), true); // 9*7+0*6+7*5+4*4+7*3+2*2 = 139 -> 9
  assert.equal(isValidImo(9074728), false);
  assert.equal(isValidImo(9176187), true);
  assert.equal(imoCheckDigit(907472), 9);
});

test('isValidImo accepts text forms and rejects the rest', () => {
  assert.equal(isValidImo('9074729'), true);
  assert.equal(isValidImo('IMO 9074729'), true);
  assert.equal(isValidImo('imo9074729'), true);
  for (const bad of [0, 907472, 90747290, 9074729.5, -9074729, Number.NaN, '', '0907472', '90747290', 'IMO', 'IMO 907472X', null, undefined, 9074729n]) {
    assert.equal(isValidImo(bad), false, String(bad));
  }
});

test('imoCheckDigit rejects prefixes that are not six digits', () => {
  for (const bad of [-1, 1_000_000, 1.5, Number.NaN]) assert.throws(() => imoCheckDigit(bad), RangeError);
  assert.throws(() => imoFromPrefix(99_999), RangeError);
  assert.equal(imoCheckDigit(0), 0);
});

test('imoFromPrefix builds only valid IMO numbers', () => {
  fc.assert(
    fc.property(fc.integer({ min: 100_000, max: 999_999 }), (first6) => {
      const imo = imoFromPrefix(first6);
      assert.equal(Math.floor(imo / 10), first6);
      assert.equal(imo % 10, imoCheckDigit(first6));
      assert.ok(isValidImo(imo));
      assert.ok(isValidImo(String(imo)));
    }),
  );
});

test('any other last digit is rejected', () => {
  fc.assert(
    fc.property(fc.integer({ min: 100_000, max: 999_999 }), fc.integer({ min: 1, max: 9 }), (first6, shift) => {
      const wrong = first6 * 10 + ((imoCheckDigit(first6) + shift) % 10);
      assert.equal(isValidImo(wrong), false);
    }),
  );
});
