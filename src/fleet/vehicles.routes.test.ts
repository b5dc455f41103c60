// The fleet routes in process (the fleet alone, no socket): a vehicle's life, and refusals.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { featureApp, type InProcess } from '../../test/support/in-process.ts';

let service: InProcess;
before(async () => {
  service = await featureApp(['fleet']);
});
after(() => service.close());

test('a vehicle is added, read, changed and removed', async () => {
  const created = await service.call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'g-eupt', icao_type: 'A320', home_base_icao: 'egll' });
  assert.equal(created.status, 201);
  assert.deepEqual([created.body.registration, created.body.home_base_icao], ['G-EUPT', 'EGLL']);
  const path = `/v3/fleet/vehicles/${created.body.id}`;
  assert.equal((await service.call('GET', path)).body.icao_type, 'A320');
  const changed = await service.call('PATCH', path, { icao_type: 'A321' });
  assert.deepEqual([changed.status, changed.body.icao_type], [200, 'A321']);
  assert.equal((await service.call('DELETE', path)).status, 204);
  assert.deepEqual([(await service.call('GET', path)).status, (await service.call('GET', path)).body.code], [404, 'vehicle_not_found']);
});

test('each invalid field is named, and a registration is one per fleet', async () => {
  const invalid = await service.call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'BAD*REG', icao_type: 'A320' });
  assert.deepEqual([invalid.status, invalid.body.errors.map((e: { path: string }) => e.path)], [400, ['/body/registration']]);
  await service.call('POST', '/v3/fleet/vehicles', { vehicle_type: 'helicopter', registration: 'G-HELI', icao_type: 'EC35' });
  const twice = await service.call('POST', '/v3/fleet/vehicles', { vehicle_type: 'helicopter', registration: 'g heli', icao_type: 'EC35' });
  assert.deepEqual([twice.status, twice.body.code], [409, 'duplicate_registration']);
});
