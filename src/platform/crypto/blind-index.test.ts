import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { blindIndex } from './blind-index.ts';

const master = randomBytes(32);
const registration = (value: string) => value.toUpperCase().replace(/[\s-]/g, '');
const same = (value: string) => value;

describe('blind index', () => {
  test('equal values give equal indexes; different values different ones', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => {
      const index = blindIndex(master, 'test', same);
      assert.equal(index(a), index(a));
      assert.equal(index(a) === index(b), a === b);
    }));
  });

  test('the index is 32 bytes of base64url and does not contain the value', () => {
    const index = blindIndex(master, 'fleet.registration', registration)('G-ABCD');
    assert.match(index, /^[\w-]{43}$/);
    assert.ok(!index.includes('GABCD'));
  });

  test('the normaliser decides which writings are one value', () => {
    const index = blindIndex(master, 'fleet.registration', registration);
    assert.equal(index('G-ABCD'), index('gabcd'));
    assert.equal(index('G-ABCD'), index(' g ab-cd '));
    assert.notEqual(index('G-ABCD'), index('G-ABCE'));
    assert.notEqual(blindIndex(master, 'fleet.registration', same)('g-abcd'), index('g-abcd'));
  });

  test('purposes are separate: one value indexes differently for each', () => {
    const a = blindIndex(master, 'fleet.registration', registration);
    const b = blindIndex(master, 'fleet.vin', registration);
    assert.notEqual(a('G-ABCD'), b('G-ABCD'));
  });

  test('the index depends on the master key', () => {
    const a = blindIndex(master, 'fleet.registration', registration);
    const b = blindIndex(randomBytes(32), 'fleet.registration', registration);
    assert.notEqual(a('G-ABCD'), b('G-ABCD'));
    // The same key gives the same indexes across instances, e.g. after a restart.
    assert.equal(a('G-ABCD'), blindIndex(Buffer.from(master), 'fleet.registration', registration)('G-ABCD'));
  });

  test('needs a 32-byte key and a purpose', () => {
    assert.throws(() => blindIndex(randomBytes(16), 'p', same), RangeError);
    assert.throws(() => blindIndex(master, '', same), TypeError);
  });
});
