import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createBody, emptyForm, FIELDS_BY_TYPE, fieldValue, formFromVehicle, mapFieldErrors, patchBody, switchType, vehicleName, vehicleSummary,
  type FormValues, type Vehicle,
} from './vehicle-form.ts';

const aircraft: Vehicle = {
  id: 'veh_0123456789abcdef', vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320', home_base_icao: 'EGLL',
  operational_regions: ['EGTT', 'EGPX'], mmsi: null, imo: null, crosswind_limit_kt: 25, min_runway_m: null,
  created_at: '2026-11-21T20:00:00.000Z', updated_at: '2026-11-21T20:00:00.000Z',
};

const form = (over: Partial<FormValues>): FormValues => ({ ...emptyForm(over.vehicle_type ?? 'aircraft'), ...over });

describe('fields by type', () => {
  it('asks aircraft and helicopters for registration and type, vessels for an MMSI', () => {
    for (const type of ['aircraft', 'helicopter'] as const) {
      assert.deepEqual(FIELDS_BY_TYPE[type].filter((f) => f.required).map((f) => f.name), ['registration', 'icao_type']);
      assert.ok(!FIELDS_BY_TYPE[type].some((f) => f.name === 'mmsi'));
    }
    assert.deepEqual(FIELDS_BY_TYPE.vessel.filter((f) => f.required).map((f) => f.name), ['mmsi']);
    assert.ok(!FIELDS_BY_TYPE.vessel.some((f) => f.name === 'icao_type' || f.name === 'crosswind_limit_kt'));
  });
});

describe('switchType', () => {
  it('keeps what means the same for both types and empties the rest', () => {
    const switched = switchType(form({ registration: 'G-EUPT', icao_type: 'A320', operational_regions: 'EGTT' }), 'vessel');
    assert.deepEqual(switched, { ...emptyForm('vessel'), operational_regions: 'EGTT' });
    const back = switchType(form({ registration: 'G-EUPT', icao_type: 'A320', crosswind_limit_kt: '20' }), 'helicopter');
    assert.deepEqual(back, { ...emptyForm('helicopter'), registration: 'G-EUPT', icao_type: 'A320', crosswind_limit_kt: '20' });
  });
});

describe('fieldValue', () => {
  const spec = (name: string) => [...FIELDS_BY_TYPE.aircraft, ...FIELDS_BY_TYPE.vessel].find((f) => f.name === name)!;

  it('tidies what people type and leaves mistakes for the API to name', () => {
    assert.equal(fieldValue(spec('registration'), '  G-EUPT '), 'G-EUPT');
    assert.equal(fieldValue(spec('icao_type'), 'a320'), 'A320');
    assert.deepEqual(fieldValue(spec('operational_regions'), 'egtt, egpx;K  '), ['EGTT', 'EGPX', 'K']);
    assert.equal(fieldValue(spec('mmsi'), '235 012 345'), 235012345);
    assert.equal(fieldValue(spec('imo'), 'IMO 9074729'), 9074729);
    assert.equal(fieldValue(spec('crosswind_limit_kt'), '22.5'), 22.5);
    assert.equal(fieldValue(spec('min_runway_m'), '1800.5'), '1800.5');
    assert.equal(fieldValue(spec('mmsi'), 'twelve'), 'twelve');
    assert.equal(fieldValue(spec('home_base_icao'), '   '), null);
  });
});

describe('createBody', () => {
  it('sends the type and the fields of that type that are filled in', () => {
    assert.deepEqual(
      createBody(form({ registration: 'g-eupt', icao_type: 'a320', crosswind_limit_kt: '25', mmsi: '235012345' })),
      { vehicle_type: 'aircraft', registration: 'g-eupt', icao_type: 'A320', crosswind_limit_kt: 25 },
    );
    assert.deepEqual(
      createBody(form({ vehicle_type: 'vessel', mmsi: '235012345', icao_type: 'A320' })),
      { vehicle_type: 'vessel', mmsi: 235012345 },
    );
  });
});

describe('patchBody', () => {
  it('sends only what changed, null for what was emptied', () => {
    const values = formFromVehicle(aircraft);
    assert.equal(values.operational_regions, 'EGTT, EGPX');
    assert.deepEqual(patchBody(values, aircraft), {});
    assert.deepEqual(patchBody({ ...values, home_base_icao: '', crosswind_limit_kt: '27', operational_regions: 'egtt egpx' }, aircraft), {
      home_base_icao: null, crosswind_limit_kt: 27,
    });
    assert.deepEqual(patchBody({ ...values, operational_regions: '' }, aircraft), { operational_regions: null });
  });

  it('clears the fields the new type does not take', () => {
    const values = { ...formFromVehicle(aircraft), vehicle_type: 'vessel' as const, mmsi: '235012345' };
    assert.deepEqual(patchBody(values, aircraft), {
      vehicle_type: 'vessel', icao_type: null, home_base_icao: null, mmsi: 235012345, crosswind_limit_kt: null,
    });
  });
});

describe('mapFieldErrors', () => {
  it('puts each error under its input and names a region by what was typed', () => {
    const values = form({ registration: 'G_EUPT', operational_regions: 'EGTT, E1, EGPX' });
    const mapped = mapFieldErrors([
      { path: '/body/registration', message: 'must be 2 to 16 letters, digits and inner hyphens, e.g. G-EUPT' },
      { path: '/body/icao_type', message: 'is required for an aircraft' },
      { path: '/body/operational_regions/1', message: 'must be a FIR (4 letters, e.g. EGTT) or an ICAO region (1 or 2 letters, e.g. K, EG)' },
      { path: '/body/mmsi', message: 'is only taken for vessels' },
      { path: '/body/colour', message: 'is not a field here' },
    ], values);
    assert.deepEqual(mapped.fields, {
      registration: 'must be 2 to 16 letters, digits and inner hyphens, e.g. G-EUPT',
      icao_type: 'is required for an aircraft',
      operational_regions: 'E1: must be a FIR (4 letters, e.g. EGTT) or an ICAO region (1 or 2 letters, e.g. K, EG)',
    });
    assert.deepEqual(mapped.other, ['MMSI: is only taken for vessels', 'Colour: is not a field here']);
  });

  it('joins two messages for one field', () => {
    const mapped = mapFieldErrors([
      { path: '/body/operational_regions/0', message: 'is bad' },
      { path: '/body/operational_regions/2', message: 'is bad too' },
    ], form({ operational_regions: 'X1 EGTT Y2' }));
    assert.equal(mapped.fields.operational_regions, 'X1: is bad Y2: is bad too');
  });
});

describe('vehicle names', () => {
  it('names a vehicle by registration, else MMSI, and sums up its profile', () => {
    assert.equal(vehicleName(aircraft), 'G-EUPT');
    assert.equal(vehicleSummary(aircraft), 'A320 · home base EGLL · crosswind limit 25 kt · regions EGTT, EGPX');
    const vessel: Vehicle = { ...aircraft, vehicle_type: 'vessel', registration: null, icao_type: null, home_base_icao: null, crosswind_limit_kt: null, operational_regions: [], mmsi: 235012345, imo: 9074729 };
    assert.equal(vehicleName(vessel), 'MMSI 235012345');
    assert.equal(vehicleSummary(vessel), 'IMO 9074729');
  });
});
