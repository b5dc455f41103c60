// The zone routes in process (zones alone, no socket): a zone's life, and refusals naming the field.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { featureApp, type InProcess } from '../../test/support/in-process.ts';

let service: InProcess;
before(async () => {
  service = await featureApp(['zones']);
});
after(() => service.close());

const ACROSS = { type: 'Polygon', coordinates: [[[179, -18], [-179, -18], [-179, -17], [179, -17], [179, -18]]] };

test('a zone is added, listed, read, changed and removed', async () => {
  const created = await service.call('POST', '/v3/zones', { name: 'Dateline', geometry: ACROSS, applies_to: { fleet: true, flags: ['FJ'] } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.deepEqual([created.body.geometry, created.body.applies_to, created.headers.location], [ACROSS, { fleet: true, flags: ['FJ'] }, `/v3/zones/${created.body.id}`]);
  const path = `/v3/zones/${created.body.id}`;
  assert.ok((await service.call('GET', '/v3/zones')).body.data.some((z: { id: string }) => z.id === created.body.id));
  assert.equal((await service.call('GET', path)).body.name, 'Dateline');
  const circle = { type: 'Circle', center: { lat: -17.7, lon: 178.1 }, radius_nm: 50 };
  const changed = await service.call('PATCH', path, { name: 'Suva', geometry: circle });
  assert.deepEqual([changed.status, changed.body.name, changed.body.geometry, changed.body.applies_to.flags], [200, 'Suva', circle, ['FJ']]);
  assert.equal((await service.call('DELETE', path)).status, 204);
  const gone = await service.call('GET', path);
  assert.deepEqual([gone.status, gone.body.code], [404, 'zone_not_found']);
  assert.equal((await service.call('PATCH', path, { name: 'Again' })).body.code, 'zone_not_found');
});

test('a broken geometry or field is named', async () => {
  const refused = async (body: unknown) => {
    const answer = await service.call('POST', '/v3/zones', body);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    return answer.body.errors.map((e: { path: string }) => e.path);
  };
  assert.deepEqual(await refused({ name: 'Open', geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] } }), ['/body/geometry/coordinates/0']);
  assert.deepEqual(await refused({ name: 'Wide', geometry: { type: 'Circle', center: { lat: 0, lon: 0 }, radius_nm: 501 } }), ['/body/geometry/radius_nm']);
  assert.deepEqual(await refused({ name: 'Point', geometry: { type: 'Point', coordinates: [0, 0] } }), ['/body/geometry/type']);
  assert.deepEqual(await refused({ name: 'Ships', geometry: ACROSS, applies_to: { fleet: true, categories: ['BARGE'] } }), ['/body/applies_to/categories/0']);
  assert.deepEqual(await refused({ name: ' ', geometry: ACROSS }), ['/body/name']);
  const patch = await service.call('PATCH', '/v3/zones/zon_0000000000000000', { geometry: { type: 'MultiPolygon', coordinates: [] } });
  assert.deepEqual([patch.status, patch.body.errors?.[0]?.path], [400, '/body/geometry/coordinates']);
});
