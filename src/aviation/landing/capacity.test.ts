import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { deriveCapacity } from './capacity.ts';
import { CROSSING, EGLL, end, notam, runway } from './fixtures.ts';

describe('derived arrival capacity', () => {
  test('two long paved runways: 30 + 50 % of 30', () => {
    const capacity = deriveCapacity(EGLL);
    assert.equal(capacity.arrivals_per_hour, 45);
    assert.deepEqual(capacity.runways.map((r) => [r.designators.join('/'), r.arrivals_per_hour, r.basis]), [
      ['09L/27R', 30, 'paved, 8,000 ft or more'],
      ['09R/27L', 30, 'paved, 8,000 ft or more'],
    ]);
  });

  test('three runways of different classes: 20 + 50 % of 20 + 25 % of 6', () => {
    const capacity = deriveCapacity(CROSSING);
    assert.deepEqual(capacity.runways.map((r) => r.arrivals_per_hour), [20, 20, 6]);
    assert.equal(capacity.arrivals_per_hour, 31);
  });

  test('small strips and heliports get small numbers', () => {
    const strip = { type: 'small_airport', runways: [runway('1', 2000, [end('09', 90), end('27', 270)], { paved: false, surface: 'TURF' })] };
    assert.equal(deriveCapacity(strip).arrivals_per_hour, 6);
    const heliport = { type: 'heliport', runways: [runway('H1', 60, [end('H1', null)]), runway('H2', 60, [end('H2', null)])] };
    assert.equal(deriveCapacity(heliport).arrivals_per_hour, 9);
    const paved = { type: 'small_airport', runways: [runway('1', 3200, [end('09', 90), end('27', 270)])] };
    assert.equal(deriveCapacity(paved).arrivals_per_hour, 12);
  });

  test('closed runways count for nothing; no usable runway, no capacity', () => {
    const closure = notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD');
    assert.equal(deriveCapacity(EGLL, [closure]).arrivals_per_hour, 30);
    assert.equal(deriveCapacity(EGLL, [closure]).runways[0]?.basis, 'closed');
    const allClosed = { type: 'small_airport', runways: [runway('1', 3000, [end('09', 90), end('27', 270)], { closed: true })] };
    const capacity = deriveCapacity(allClosed);
    assert.equal(capacity.arrivals_per_hour, 0);
    assert.equal(capacity.reasoning.at(-1), 'No usable runway: no arrival capacity.');
  });

  test('adding a runway never lowers the capacity, and it never exceeds the plain sum', () => {
    const runwayArb = fc.record({ length: fc.option(fc.integer({ min: 500, max: 14000 }), { nil: null }), paved: fc.boolean() })
      .map(({ length, paved }) => runway('r', length, [end('09', 90), end('27', 270)], { paved }));
    fc.assert(
      fc.property(fc.array(runwayArb, { maxLength: 6 }), runwayArb, (runways, extra) => {
        const before = deriveCapacity({ type: 'medium_airport', runways });
        const after = deriveCapacity({ type: 'medium_airport', runways: [...runways, extra] });
        assert.ok(after.arrivals_per_hour >= before.arrivals_per_hour);
        assert.ok(after.arrivals_per_hour <= after.runways.reduce((sum, r) => sum + r.arrivals_per_hour, 0));
      }),
    );
  });
});
