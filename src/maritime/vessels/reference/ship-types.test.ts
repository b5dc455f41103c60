import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { VESSEL_CATEGORIES, categoryForShipType, hazardCategoryForShipType, isVesselCategory } from './ship-types.ts';
import type { VesselCategory } from './ship-types.ts';

test('categories used by the stream subscription exist', () => {
  for (const name of ['TANKER', 'CARGO', 'PASSENGER', 'FISHING', 'TUG', 'HSC', 'PLEASURE', 'OTHER']) {
    assert.ok(isVesselCategory(name), name);
  }
  assert.equal(new Set(VESSEL_CATEGORIES).size, VESSEL_CATEGORIES.length);
  assert.equal(isVesselCategory('tanker'), false);
  assert.equal(isVesselCategory(80), false);
});

test('Table 53 mapping', () => {
  const expected: Array<[number[], VesselCategory]> = [
    [[0, 1, 10, 19], 'OTHER'],
    [[20, 21, 24, 29], 'WIG'],
    [[30], 'FISHING'],
    [[31, 32, 52], 'TUG'],
    [[33], 'DREDGING'],
    [[34], 'DIVING'],
    [[35], 'MILITARY'],
    [[36], 'SAILING'],
    [[37], 'PLEASURE'],
    [[38, 39], 'OTHER'],
    [[40, 45, 49], 'HSC'],
    [[50], 'PILOT'],
    [[51], 'SAR'],
    [[53, 54, 58, 59], 'SPECIAL'],
    [[55], 'LAW_ENFORCEMENT'],
    [[56, 57], 'OTHER'],
    [[60, 61, 69], 'PASSENGER'],
    [[70, 74, 79], 'CARGO'],
    [[80, 84, 89], 'TANKER'],
    [[90, 99], 'OTHER'],
  ];
  for (const [codes, category] of expected) {
    for (const code of codes) assert.equal(categoryForShipType(code), category, `code ${code}`);
  }
});

test('null, regional, reserved and malformed codes are OTHER', () => {
  for (const code of [null, undefined, 100, 199, 255, -1, 70.5, Number.NaN]) {
    assert.equal(categoryForShipType(code), 'OTHER', String(code));
  }
});

test('every category is reachable and every code maps to a listed one', () => {
  const reached = new Set<VesselCategory>();
  for (let code = 0; code <= 255; code++) {
    const category = categoryForShipType(code);
    assert.ok(VESSEL_CATEGORIES.includes(category));
    reached.add(category);
  }
  assert.deepEqual([...reached].sort(), [...VESSEL_CATEGORIES].sort());
});

test('hazard category from the second digit where Table 53 defines one', () => {
  assert.equal(hazardCategoryForShipType(81), 'A');
  assert.equal(hazardCategoryForShipType(72), 'B');
  assert.equal(hazardCategoryForShipType(63), 'C');
  assert.equal(hazardCategoryForShipType(24), 'D');
  assert.equal(hazardCategoryForShipType(41), 'A');
  assert.equal(hazardCategoryForShipType(94), 'D');
  for (const code of [80, 85, 89, 31, 32, 51, 54, 11, 0, null, 101, -1]) {
    assert.equal(hazardCategoryForShipType(code), null, String(code));
  }
});

test('category and hazard never throw', () => {
  fc.assert(
    fc.property(fc.oneof(fc.integer(), fc.double(), fc.constant(null)), (code) => {
      assert.ok(VESSEL_CATEGORIES.includes(categoryForShipType(code)));
      const hazard = hazardCategoryForShipType(code);
      assert.ok(hazard === null || ['A', 'B', 'C', 'D'].includes(hazard));
    }),
  );
});
