// The airport routes in process (aviation alone, no socket): search, one airport, and refusals.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { featureApp, type InProcess } from '../../../test/support/in-process.ts';

let service: InProcess;
before(async () => {
  service = await featureApp(['aviation']);
});
after(() => service.close());

test('a search by name finds the airport, its code first', async () => {
  const { status, body } = await service.call('GET', '/v3/aviation/airports?q=heathrow&limit=3');
  assert.equal(status, 200);
  assert.equal(body.data[0].icao, 'EGLL');
  assert.ok(body.data[0].runway_count >= 2);
});

test('a search near a point answers nearest first, within the radius', async () => {
  const { status, body } = await service.call('GET', '/v3/aviation/airports?near=51.4706,-0.4619&radius_nm=15&limit=10');
  assert.equal(status, 200);
  assert.equal(body.data[0].icao, 'EGLL');
  const distances = body.data.map((airport: { distance_nm: number }) => airport.distance_nm);
  assert.deepEqual(distances, [...distances].sort((a, b) => a - b));
  assert.ok(distances.every((d: number) => d <= 15));
});

test('one airport with its runways and their attribution', async () => {
  const { status, body } = await service.call('GET', '/v3/aviation/airports/egll');
  assert.equal(status, 200);
  assert.equal(body.icao, 'EGLL');
  const ends = body.runways.flatMap((runway: { ends: { ident: string }[] }) => runway.ends.map((end) => end.ident));
  assert.ok(ends.includes('27L') && ends.includes('09R'), ends.join(' '));
  assert.match(body.attribution, /OurAirports/);
});

test('refusals: unknown and malformed codes, a bad limit, no key', async () => {
  const unknown = await service.call('GET', '/v3/aviation/airports/ZZZZ');
  assert.deepEqual([unknown.status, unknown.body.code], [404, 'airport_not_found']);
  const malformed = await service.call('GET', '/v3/aviation/airports/E!LL');
  assert.deepEqual([malformed.status, malformed.body.code], [400, 'validation_failed']);
  const limit = await service.call('GET', '/v3/aviation/airports?limit=1e309');
  assert.deepEqual([limit.status, limit.body.errors[0].path], [400, '/querystring/limit']);
  const keyless = await service.app.inject({ method: 'GET', url: '/v3/aviation/airports/EGLL' });
  assert.equal(keyless.statusCode, 401);
});

test('the airport labels: open large and medium airports as GeoJSON points, large ones first', async () => {
  const { status, body, headers } = await service.call('GET', '/v3/aviation/airports/labels');
  assert.equal(status, 200);
  assert.equal(body.type, 'FeatureCollection');
  assert.match(String(headers['cache-control']), /max-age=3600/);
  const heathrow = body.features.find((feature: any) => feature.properties.icao === 'EGLL');
  assert.deepEqual(heathrow.properties, { icao: 'EGLL', iata: 'LHR', name: heathrow.properties.name, size: 'large' });
  const [lon, lat] = heathrow.geometry.coordinates;
  assert.ok(Math.abs(lon + 0.4614) < 0.01 && Math.abs(lat - 51.4706) < 0.01, `${lon}, ${lat}`);
  const sizes: string[] = body.features.map((feature: any) => feature.properties.size);
  assert.ok(sizes.includes('medium'));
  assert.equal(sizes.indexOf('medium'), sizes.lastIndexOf('large') + 1, 'large airports first');
  // No heliports or small fields: a search for them finds some that the labels leave out.
  const small = await service.call('GET', '/v3/aviation/airports?type=small_airport&limit=5');
  const labelled = new Set(body.features.map((feature: any) => feature.properties.icao));
  assert.ok(small.body.data.length > 0 && small.body.data.every((airport: { icao: string }) => !labelled.has(airport.icao)));
});
