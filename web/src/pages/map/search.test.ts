import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMapQuery, vesselMatches } from './search.ts';

test('nine digits are an MMSI, seven an IMO number, other text a name', () => {
  assert.deepEqual(parseMapQuery(' 244123456 '), { kind: 'mmsi', mmsi: 244123456 });
  assert.deepEqual(parseMapQuery('IMO 9074729'), { kind: 'imo', imo: 9074729 });
  assert.deepEqual(parseMapQuery('imo9074729'), { kind: 'imo', imo: 9074729 });
  assert.deepEqual(parseMapQuery('9074729'), { kind: 'imo', imo: 9074729 });
  assert.deepEqual(parseMapQuery('Rotterdam  Express'), { kind: 'name', text: 'Rotterdam Express' });
  assert.deepEqual(parseMapQuery('ab'), { kind: 'none' });
  // Eight digits are neither: searched as a name.
  assert.deepEqual(parseMapQuery('12345678'), { kind: 'name', text: '12345678' });
});

test('a vessel matches by its MMSI, its IMO number, or every word of the name in any case', () => {
  const vessel = { mmsi: 244123456, imo: 9074729, name: 'ROTTERDAM EXPRESS' };
  assert.ok(vesselMatches(vessel, parseMapQuery('244123456')));
  assert.ok(vesselMatches(vessel, parseMapQuery('IMO 9074729')));
  assert.ok(vesselMatches(vessel, parseMapQuery('express rotter')));
  assert.ok(!vesselMatches(vessel, parseMapQuery('express antwerp')));
  assert.ok(!vesselMatches({ ...vessel, name: null }, parseMapQuery('express')));
  assert.ok(!vesselMatches(vessel, parseMapQuery('24')));
});
