// A fleet vehicle's landing figures: its type's, with the operator's overrides in place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aircraftType, CONSERVATIVE_DEFAULTS } from '../aviation/reference/aircraft-types.ts';
import { landingProfileFor } from './profile.ts';
import type { FleetVehicle } from './vehicles.ts';

function vehicle(fields: Partial<FleetVehicle>): FleetVehicle {
  return {
    id: 'veh_0123456789abcdef', vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320', home_base_icao: null,
    operational_regions: [], mmsi: null, imo: null, crosswind_limit_kt: null, min_runway_m: null,
    created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', ...fields,
  };
}

const figures = ['vehicle_category', 'approach_category', 'wake_category', 'crosswind_limit_kt', 'landing_distance_m', 'min_runway_m', 'confidence'] as const;
const pick = (profile: object) => Object.fromEntries(figures.map((key) => [key, (profile as Record<string, unknown>)[key]]));

test('a known type without overrides lands with the type\'s figures', () => {
  const profile = landingProfileFor(vehicle({}))!;
  assert.deepEqual(pick(profile), pick(aircraftType('A320')!));
  assert.equal(profile.designator, 'A320');
  assert.deepEqual(pick(landingProfileFor(vehicle({ vehicle_type: 'helicopter', icao_type: 'EC35' }))!), pick(aircraftType('EC35')!));
});

test('the operator\'s figures replace the type\'s; the landing distance follows the runway', () => {
  const profile = landingProfileFor(vehicle({ crosswind_limit_kt: 22, min_runway_m: 1800 }))!;
  assert.equal(profile.crosswind_limit_kt, 22);
  assert.equal(profile.min_runway_m, 1800);
  assert.equal(profile.landing_distance_m, 1080);
  assert.equal(profile.approach_category, 'C', 'the rest stays the type\'s');
  const crosswindOnly = landingProfileFor(vehicle({ crosswind_limit_kt: 18 }))!;
  assert.deepEqual([crosswindOnly.crosswind_limit_kt, crosswindOnly.min_runway_m, crosswindOnly.landing_distance_m], [18, 1500, 900]);
});

test('a type outside the table starts from the conservative defaults of its category', () => {
  const plane = landingProfileFor(vehicle({ icao_type: 'ZZ99', crosswind_limit_kt: 12, min_runway_m: 700 }))!;
  assert.deepEqual(pick(plane), { ...pick(CONSERVATIVE_DEFAULTS.aircraft), crosswind_limit_kt: 12, min_runway_m: 700, landing_distance_m: 420 });
  assert.equal(plane.designator, 'ZZ99');
  const helicopter = landingProfileFor(vehicle({ vehicle_type: 'helicopter', icao_type: 'ZZ98', crosswind_limit_kt: 17, min_runway_m: 100 }))!;
  assert.equal(helicopter.approach_category, 'H');
  assert.equal(helicopter.vehicle_category, 'helicopter');
});

test('vessels have no landing profile', () => {
  assert.equal(landingProfileFor(vehicle({ vehicle_type: 'vessel', registration: null, icao_type: null, mmsi: 235012345 })), null);
});
