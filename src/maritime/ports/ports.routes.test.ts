// The port routes in process (maritime alone, no socket, no simulator): search, one port, refusals.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { featureApp, type InProcess } from '../../../test/support/in-process.ts';

let service: InProcess;
before(async () => {
  service = await featureApp(['maritime']);
});
after(() => service.close());

test('a search by name finds the port', async () => {
  const { status, body } = await service.call('GET', '/v3/maritime/ports?q=rotterdam&limit=5');
  assert.equal(status, 200);
  assert.ok(body.data.some((port: { id: string }) => port.id === 'NLRTM'), JSON.stringify(body.data.map((p: { id: string }) => p.id)));
});

test('one port by its UN/LOCODE, in any case', async () => {
  const { status, body } = await service.call('GET', '/v3/maritime/ports/nlrtm');
  assert.deepEqual([status, body.id, body.name], [200, 'NLRTM', 'Rotterdam']);
});

test('refusals: an unknown and a malformed port id', async () => {
  const unknown = await service.call('GET', '/v3/maritime/ports/ZZZZZ');
  assert.deepEqual([unknown.status, unknown.body.code], [404, 'port_not_found']);
  const malformed = await service.call('GET', '/v3/maritime/ports/rotterdam');
  assert.deepEqual([malformed.status, malformed.body.code], [400, 'validation_failed']);
});

test('the port labels: every port as a GeoJSON point with name and harbour size, larger harbours first', async () => {
  const { status, body, headers } = await service.call('GET', '/v3/maritime/ports/labels');
  assert.equal(status, 200);
  assert.equal(body.type, 'FeatureCollection');
  assert.match(String(headers['cache-control']), /max-age=3600/);
  assert.ok(body.features.length > 1000);
  const rotterdam = body.features.find((feature: any) => feature.properties.id === 'NLRTM');
  assert.deepEqual(rotterdam.properties, { id: 'NLRTM', name: 'Rotterdam', size: 'large' });
  const [lon, lat] = rotterdam.geometry.coordinates;
  assert.ok(Math.abs(lon - 4.3) < 0.5 && Math.abs(lat - 51.9) < 0.3, `${lon}, ${lat}`);
  const order = ['large', 'medium', 'small', 'very_small', null];
  const ranks = body.features.map((feature: any) => order.indexOf(feature.properties.size));
  assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));
  assert.ok(body.features.every((feature: any) => Math.abs(feature.geometry.coordinates[0]) <= 180));
});
