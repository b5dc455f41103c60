import assert from 'node:assert/strict';
import { test } from 'node:test';
import { circleFields, circleFromFields, EMPTY_ZONE_FORM, formFromZone, newZoneBody, zoneChanges } from './zone-form.ts';
import type { Zone } from './zone-geometry.ts';

const zone: Zone = {
  id: 'zon_0123456789abcdef', name: 'Maas approaches', description: null,
  geometry: { type: 'Circle', center: { lat: 52.05, lon: 3.8 }, radius_nm: 5 },
  applies_to: { fleet: true, categories: ['TANKER'] }, created_at: '2026-11-26T10:00:00Z', updated_at: '2026-11-26T10:00:00Z',
};

test('a new zone: trimmed, the fleet always watched, other vessels only when chosen', () => {
  const geometry = { type: 'Polygon' as const, coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] };
  assert.deepEqual(newZoneBody({ ...EMPTY_ZONE_FORM, name: ' Dock 7 ', geometry }), { name: 'Dock 7', geometry, applies_to: { fleet: true } });
  assert.deepEqual(newZoneBody({ ...EMPTY_ZONE_FORM, name: 'Dock 7', description: ' Inner ', geometry, categories: ['TANKER', 'CARGO'], flags: 'nl gb' }),
    { name: 'Dock 7', description: 'Inner', geometry, applies_to: { fleet: true, categories: ['CARGO', 'TANKER'], flags: ['NL', 'GB'] } });
});

test('a change sends only what differs', () => {
  const form = formFromZone(zone);
  assert.deepEqual(zoneChanges(form, zone), {});
  assert.deepEqual(zoneChanges({ ...form, name: 'Maas' }, zone), { name: 'Maas' });
  assert.deepEqual(zoneChanges({ ...form, description: 'Pilots board here' }, zone), { description: 'Pilots board here' });
  assert.deepEqual(zoneChanges({ ...form, categories: [] }, zone), { applies_to: { fleet: true } });
  assert.deepEqual(zoneChanges({ ...form, flags: 'NL' }, zone), { applies_to: { fleet: true, categories: ['TANKER'], flags: ['NL'] } });
  const moved = { type: 'Circle' as const, center: { lat: 52, lon: 3.8 }, radius_nm: 5 };
  assert.deepEqual(zoneChanges({ ...form, geometry: moved }, zone), { geometry: moved });
});

test('a circle typed: numbers where they are numbers, the rest left for the API to name', () => {
  assert.deepEqual(circleFields(zone.geometry), { lat: '52.05', lon: '3.8', radius: '5' });
  assert.deepEqual(circleFromFields({ lat: '52.05', lon: ' 3.8', radius: '5' }), zone.geometry);
  assert.deepEqual(circleFromFields({ lat: 'north', lon: '3.8', radius: '' }), { type: 'Circle', center: { lat: 'north', lon: 3.8 }, radius_nm: '' });
});
