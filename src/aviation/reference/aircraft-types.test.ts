import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AIRCRAFT_TYPES,
  CONSERVATIVE_DEFAULTS,
  aircraftType,
  approachCategoryForVat,
  minRunwayForLandingDistance,
} from './aircraft-types.ts';
import type { ApproachCategory, AircraftType, RecatEuCategory, WakeCategory } from './aircraft-types.ts';

const fixedWing = AIRCRAFT_TYPES.filter((t) => t.vehicle_category === 'aircraft');
const helicopters = AIRCRAFT_TYPES.filter((t) => t.vehicle_category === 'helicopter');
const transportCategory = fixedWing.filter((t) => t.recat_eu !== undefined && t.recat_eu !== 'F');

function get(designator: string): AircraftType {
  const entry = aircraftType(designator);
  assert.ok(entry, `${designator} is in the table`);
  return entry;
}

test('at least 150 types, each designator once', () => {
  const designators = AIRCRAFT_TYPES.map((t) => t.designator);
  assert.ok(designators.length >= 150, `${designators.length} types`);
  assert.equal(new Set(designators).size, designators.length);
  assert.ok(fixedWing.length >= 150, `${fixedWing.length} aeroplanes`);
  assert.ok(helicopters.length >= 25, `${helicopters.length} helicopters`);
});

test('designators and descriptions follow Doc 8643', () => {
  for (const t of AIRCRAFT_TYPES) {
    assert.match(t.designator, /^[A-Z][A-Z0-9]{1,3}$/, t.designator);
    assert.match(t.description, /^[LSAHGT][1-8C][JTPER]$/, `${t.designator} ${t.description}`);
    assert.ok(t.manufacturer.length > 0 && t.model.length > 0 && t.source.length > 0, t.designator);
  }
});

test('families the landing endpoint sees most are all present', () => {
  const required = [
    'A19N', 'A20N', 'A21N', 'A318', 'A319', 'A320', 'A321', 'A332', 'A333', 'A339', 'A343', 'A346',
    'A359', 'A35K', 'A388', 'BCS1', 'BCS3', 'B712', 'B733', 'B734', 'B735', 'B736', 'B737', 'B738',
    'B739', 'B37M', 'B38M', 'B39M', 'B744', 'B748', 'B752', 'B753', 'B762', 'B763', 'B764', 'B772',
    'B77L', 'B773', 'B77W', 'B788', 'B789', 'B78X', 'E135', 'E145', 'E170', 'E75L', 'E75S', 'E190',
    'E195', 'E290', 'E295', 'E50P', 'E55P', 'E545', 'E550', 'CRJ1', 'CRJ2', 'CRJ7', 'CRJ9', 'CRJX',
    'DH8A', 'DH8B', 'DH8C', 'DH8D', 'AT43', 'AT45', 'AT72', 'AT75', 'AT76', 'SF34', 'SB20', 'F100',
    'F70', 'F50', 'C25A', 'C25B', 'C25C', 'C510', 'C525', 'C550', 'C560', 'C56X', 'C680', 'C68A',
    'C700', 'C750', 'LJ35', 'LJ45', 'LJ60', 'CL30', 'CL35', 'CL60', 'GLEX', 'GL5T', 'GL7T', 'G150',
    'G280', 'GLF4', 'GLF5', 'GLF6', 'F2TH', 'F900', 'FA7X', 'FA8X', 'PC12', 'PC24', 'TBM9', 'C150',
    'C152', 'C172', 'C182', 'C206', 'C208', 'P28A', 'P28B', 'PA31', 'PA34', 'PA46', 'SR20', 'SR22',
    'DA40', 'DA42', 'BE20', 'BE35', 'BE36', 'BE58', 'B350', 'M20P', 'EC35', 'EC45', 'EC30', 'EC55',
    'AS50', 'AS65', 'A109', 'A139', 'A169', 'A189', 'B06', 'B407', 'B412', 'B429', 'S76', 'S92',
    'R22', 'R44', 'R66', 'H160',
  ];
  const missing = required.filter((d) => aircraftType(d) === undefined);
  assert.deepEqual(missing, []);
});

test('approach category bands of ICAO PANS-OPS', () => {
  const cases: Array<[number, string]> = [
    [50, 'A'], [90, 'A'], [90.9, 'A'], [91, 'B'], [120, 'B'], [120.5, 'B'], [121, 'C'], [140, 'C'],
    [141, 'D'], [165, 'D'], [166, 'E'], [210, 'E'], [250, 'E'],
  ];
  for (const [kt, category] of cases) assert.equal(approachCategoryForVat(kt), category, `${kt} kt`);
  for (const kt of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.equal(approachCategoryForVat(kt), undefined, String(kt));
  }
});

test('every aeroplane has a Vref and its approach category follows from it', () => {
  for (const t of fixedWing) {
    assert.ok(t.vref_kt !== undefined && t.vref_kt > 30 && t.vref_kt < 200, `${t.designator} vref ${t.vref_kt}`);
    assert.equal(t.approach_category, approachCategoryForVat(t.vref_kt), `${t.designator} at ${t.vref_kt} kt`);
  }
});

test('helicopters: category H, helicopter description, no Vref or RECAT-EU', () => {
  assert.ok(helicopters.length > 0);
  for (const t of AIRCRAFT_TYPES) {
    const isHelicopter = t.vehicle_category === 'helicopter';
    assert.equal(t.approach_category === 'H', isHelicopter, t.designator);
    assert.equal(t.description.startsWith('H'), isHelicopter, t.designator);
  }
  for (const t of helicopters) {
    assert.equal(t.vref_kt, undefined, t.designator);
    assert.equal(t.recat_eu, undefined, t.designator);
    assert.ok(t.crosswind_limit_kt >= 17, `${t.designator}: CS-27/29 require 17 kt`);
  }
});

test('wake category J only for the A380 (and the An-225 if ever listed)', () => {
  const super_ = AIRCRAFT_TYPES.filter((t) => t.wake_category === 'J').map((t) => t.designator);
  assert.ok(super_.length >= 1);
  for (const d of super_) assert.ok(d === 'A388' || d === 'A225', d);
});

test('RECAT-EU category agrees with the ICAO wake category', () => {
  const allowed: Record<WakeCategory, readonly RecatEuCategory[]> = {
    J: ['A'],
    H: ['B', 'C'],
    // C: the 757, medium by mass but a lower heavy by span in RECAT-EU.
    M: ['C', 'D', 'E', 'F'],
    L: ['F'],
  };
  for (const t of fixedWing) {
    assert.ok(t.recat_eu !== undefined, `${t.designator} has a RECAT-EU category`);
    assert.ok(allowed[t.wake_category].includes(t.recat_eu), `${t.designator} ${t.wake_category}/${t.recat_eu}`);
  }
  const mediumsAsHeavy = fixedWing.filter((t) => t.wake_category === 'M' && t.recat_eu === 'C');
  assert.deepEqual(mediumsAsHeavy.map((t) => t.designator).sort(), ['B752', 'B753']);
});

test('landing distance, runway and crosswind figures are sane and consistent', () => {
  for (const t of AIRCRAFT_TYPES) {
    assert.ok(Number.isInteger(t.landing_distance_m), t.designator);
    assert.ok(t.landing_distance_m >= 100 && t.landing_distance_m <= 1500, `${t.designator} ${t.landing_distance_m} m`);
    assert.equal(t.min_runway_m % 10, 0, t.designator);
    assert.ok(t.min_runway_m >= t.landing_distance_m / 0.6, t.designator);
    assert.ok(t.min_runway_m < t.landing_distance_m / 0.6 + 10, t.designator);
    assert.ok(Number.isInteger(t.crosswind_limit_kt), t.designator);
    assert.ok(t.crosswind_limit_kt >= 7 && t.crosswind_limit_kt <= 45, `${t.designator} ${t.crosswind_limit_kt} kt`);
    assert.ok(t.confidence === 'published' || t.confidence === 'estimated', t.designator);
  }
  // Everything from 15 t up (RECAT-EU A to E) is transport category, which had to demonstrate
  // at least 20 kt (CS/FAR 25.237).
  for (const t of transportCategory) {
    assert.ok(t.crosswind_limit_kt >= 20, `${t.designator} ${t.crosswind_limit_kt} kt`);
  }
  // Heavier types of a family never need less runway than lighter ones.
  const order = (ds: string[]) => ds.map((d) => get(d).landing_distance_m);
  for (const family of [
    ['B736', 'B737', 'B738', 'B739'],
    ['A318', 'A319', 'A320', 'A321'],
    ['B788', 'B789', 'B78X'],
    ['E170', 'E190', 'E195'],
    ['CRJ2', 'CRJ7', 'CRJ9'],
  ]) {
    const distances = order(family);
    assert.deepEqual(distances, [...distances].sort((a, b) => a - b), family.join(' < '));
  }
});

test('runway rule: landing distance over 0.6, up to the next 10 m', () => {
  assert.equal(minRunwayForLandingDistance(990), 1650);
  assert.equal(minRunwayForLandingDistance(991), 1660);
  assert.equal(minRunwayForLandingDistance(407), 680);
  assert.equal(minRunwayForLandingDistance(600), 1000);
});

test('spot checks of well-known figures', () => {
  const a320 = get('A320');
  assert.equal(a320.wake_category, 'M');
  assert.equal(a320.approach_category, 'C');
  assert.equal(a320.recat_eu, 'D');
  assert.equal(a320.crosswind_limit_kt, 29);

  const b77w = get('B77W');
  assert.equal(b77w.wake_category, 'H');
  assert.equal(b77w.approach_category, 'D');
  assert.equal(b77w.manufacturer, 'Boeing');

  const c172 = get('C172');
  assert.equal(c172.wake_category, 'L');
  assert.equal(c172.approach_category, 'A');
  assert.equal(c172.crosswind_limit_kt, 15);
  assert.equal(c172.description, 'L1P');
  assert.equal(c172.landing_distance_m, 407); // 1,335 ft over 50 ft
  assert.equal(c172.confidence, 'published');

  const a388 = get('A388');
  assert.equal(a388.wake_category, 'J');
  assert.equal(a388.approach_category, 'C');
  assert.equal(a388.recat_eu, 'A');
  assert.equal(a388.description, 'L4J');

  // An airliner's certified landing field length comes back as min_runway_m.
  const b738 = get('B738');
  assert.equal(b738.landing_distance_m, 990);
  assert.equal(b738.min_runway_m, 1650);
  assert.equal(b738.approach_category, 'D');
  assert.equal(b738.crosswind_limit_kt, 36);

  const ec35 = get('EC35');
  assert.equal(ec35.vehicle_category, 'helicopter');
  assert.equal(ec35.approach_category, 'H');
  assert.equal(ec35.description, 'H2T');
  assert.equal(get('R44').description, 'H1P');
  assert.equal(get('S92').wake_category, 'M');
  assert.equal(get('AT76').crosswind_limit_kt, 35);
  assert.equal(get('DH8D').crosswind_limit_kt, 32);
  assert.equal(get('PC12').description, 'L1T');
});

test('lookup is case-insensitive and undefined for unknown types', () => {
  assert.equal(aircraftType('b738'), get('B738'));
  assert.equal(aircraftType(' a20n '), get('A20N'));
  assert.equal(aircraftType('Ec45')?.model, 'H145 (EC145, BK117 C-2/D-2/D-3)');
  for (const unknown of ['', 'ZZZZ', 'B7388', '737', 'A32']) assert.equal(aircraftType(unknown), undefined, unknown);
});

test('conservative defaults are at least as demanding as the table', () => {
  const rank: Record<ApproachCategory, number> = { A: 0, B: 1, C: 2, D: 3, E: 4, H: 0 };
  const aircraft = CONSERVATIVE_DEFAULTS.aircraft;
  assert.equal(aircraft.vehicle_category, 'aircraft');
  assert.equal(aircraft.approach_category, 'D');
  assert.equal(aircraft.crosswind_limit_kt, 15);
  assert.equal(aircraft.confidence, 'estimated');
  assert.equal(aircraft.min_runway_m, minRunwayForLandingDistance(aircraft.landing_distance_m));
  for (const t of fixedWing) {
    assert.ok(rank[aircraft.approach_category] >= rank[t.approach_category], t.designator);
    assert.ok(aircraft.landing_distance_m >= t.landing_distance_m, t.designator);
  }
  assert.ok(transportCategory.every((t) => aircraft.crosswind_limit_kt <= t.crosswind_limit_kt));

  const helicopter = CONSERVATIVE_DEFAULTS.helicopter;
  assert.equal(helicopter.vehicle_category, 'helicopter');
  assert.equal(helicopter.approach_category, 'H');
  for (const t of helicopters) {
    assert.ok(helicopter.landing_distance_m >= t.landing_distance_m, t.designator);
    assert.ok(helicopter.crosswind_limit_kt <= t.crosswind_limit_kt, t.designator);
  }
});

test('the table and its entries cannot be changed by a caller', () => {
  assert.ok(Object.isFrozen(AIRCRAFT_TYPES));
  assert.ok(Object.isFrozen(get('A320')));
  assert.ok(Object.isFrozen(CONSERVATIVE_DEFAULTS.aircraft));
  assert.throws(() => {
    (get('A320') as { crosswind_limit_kt: number }).crosswind_limit_kt = 99;
  }, TypeError);
  assert.equal(get('A320').crosswind_limit_kt, 29);
});
