import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countWords, fleetGlance, focusOf, shortcutsFor, type GlanceVehicle } from './home-model.ts';

const vehicle = (id: string, vehicle_type: GlanceVehicle['vehicle_type'], home_base_icao: string | null = null): GlanceVehicle =>
  ({ id, vehicle_type, home_base_icao, created_at: '2026-11-21T20:00:00Z' });

describe('focus', () => {
  it('puts landing first for aircraft and helicopters, the map and ports for vessels', () => {
    assert.equal(focusOf('aircraft'), 'aviation');
    assert.equal(focusOf('helicopter'), 'aviation');
    assert.equal(focusOf('vessel'), 'maritime');
    assert.equal(focusOf(null), 'both');
    assert.deepEqual(shortcutsFor('aviation').map((s) => s.href), ['/landing', '/map', '/ports']);
    assert.deepEqual(shortcutsFor('maritime').map((s) => s.href), ['/map', '/ports', '/landing']);
  });
});

describe('fleet at a glance', () => {
  it('counts by type and ranks the aircraft home bases', () => {
    const glance = fleetGlance([
      vehicle('a', 'aircraft', 'EGLL'), vehicle('b', 'aircraft', 'EGKK'), vehicle('c', 'helicopter', 'EGKK'),
      vehicle('d', 'vessel'), vehicle('e', 'vessel'), vehicle('f', 'aircraft'),
    ], false);
    assert.deepEqual(glance.counts, { aircraft: 3, helicopter: 1, vessel: 2 });
    assert.equal(glance.total, 6);
    assert.deepEqual(glance.bases, ['EGKK', 'EGLL']);
    assert.equal(countWords(glance), '3 aircraft, 1 helicopter and 2 vessels');
  });

  it('says when the fleet is empty or larger than the page read', () => {
    assert.equal(countWords(fleetGlance([], false)), 'no vehicles');
    assert.equal(countWords(fleetGlance([vehicle('a', 'vessel')], true)), '1 vessel, and more');
  });
});
