// The planned-arrival routes in process (the fleet with aviation's airports, no socket): an
// arrival's life under a vehicle, the ETA window, and refusals by field.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { featureApp, type InProcess } from '../../test/support/in-process.ts';

let service: InProcess;
let aircraft: string;
let vessel: string;
before(async () => {
  // Arrival destinations are airport codes the aviation feature's reference data resolves.
  service = await featureApp(['aviation', 'fleet']);
  aircraft = (await service.call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-ARRV', icao_type: 'A320' })).body.id;
  vessel = (await service.call('POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi: 235012345 })).body.id;
});
after(() => service.close());

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

test('an arrival is planned, listed, moved and removed', async () => {
  const path = `/v3/fleet/vehicles/${aircraft}/arrivals`;
  const planned = await service.call('POST', path, { destination_icao: 'egll', eta_utc: inHours(2) });
  assert.equal(planned.status, 201, JSON.stringify(planned.body));
  assert.deepEqual([planned.body.destination_icao, planned.body.state, planned.headers.location], ['EGLL', 'watched', `${path}/${planned.body.id}`]);
  const one = `${path}/${planned.body.id}`;
  assert.deepEqual((await service.call('GET', path)).body.data.map((a: { id: string }) => a.id), [planned.body.id]);
  assert.deepEqual((await service.call('GET', `${path}?state=archived`)).body.data, []);
  const eta = inHours(5).replace(/\.\d+Z$/, 'Z');
  const moved = await service.call('PATCH', one, { eta_utc: eta });
  assert.deepEqual([moved.status, moved.body.eta_utc], [200, eta.replace('Z', '.000Z')]);
  assert.equal((await service.call('DELETE', one)).status, 204);
  const gone = await service.call('GET', one);
  assert.deepEqual([gone.status, gone.body.code], [404, 'arrival_not_found']);
});

test('the ETA is ISO UTC within the landing window', async () => {
  const path = `/v3/fleet/vehicles/${aircraft}/arrivals`;
  for (const eta_utc of [inHours(-0.5), inHours(367 * 24)]) {
    const answer = await service.call('POST', path, { destination_icao: 'EGLL', eta_utc });
    assert.deepEqual([answer.status, answer.body.code], [422, 'eta_out_of_range'], eta_utc);
  }
  for (const eta_utc of ['tomorrow', '2026-11-21T14:20:00+01:00']) {
    const answer = await service.call('POST', path, { destination_icao: 'EGLL', eta_utc });
    assert.deepEqual([answer.status, answer.body.errors?.[0]?.path], [400, '/body/eta_utc'], eta_utc);
  }
  const badCode = await service.call('POST', path, { destination_icao: 'EG-LL', eta_utc: inHours(1) });
  assert.deepEqual([badCode.status, badCode.body.errors?.[0]?.path], [400, '/body/destination_icao']);
  const extra = await service.call('POST', path, { destination_icao: 'EGLL', eta_utc: inHours(1), runway: '27L' });
  assert.deepEqual([extra.status, extra.body.errors?.[0]?.path], [400, '/body/runway']);
});

test('only aircraft and helicopters of the fleet have arrivals', async () => {
  const ship = await service.call('POST', `/v3/fleet/vehicles/${vessel}/arrivals`, { destination_icao: 'EGLL', eta_utc: inHours(1) });
  assert.deepEqual([ship.status, ship.body.code], [422, 'vehicle_cannot_land']);
  const none = await service.call('POST', '/v3/fleet/vehicles/veh_0000000000000000/arrivals', { destination_icao: 'EGLL', eta_utc: inHours(1) });
  assert.deepEqual([none.status, none.body.code], [404, 'vehicle_not_found']);
  const list = await service.call('GET', '/v3/fleet/vehicles/veh_0000000000000000/arrivals');
  assert.deepEqual([list.status, list.body.code], [404, 'vehicle_not_found']);
  const missing = await service.call('PATCH', '/v3/fleet/vehicles/veh_0000000000000000/arrivals/arr_0000000000000000', { eta_utc: inHours(1) });
  assert.deepEqual([missing.status, missing.body.code], [404, 'vehicle_not_found']);
});
