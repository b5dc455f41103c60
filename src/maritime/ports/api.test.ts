// The port routes over a real loopback server, on a small index of hand-made entries.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { json } from '../../../test/support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../../../test/support/server.ts';
import { registerPortRoutes } from './api.ts';
import { seaPortEntry, wpiEntry } from './fixtures.ts';
import { mergePorts } from './merge.ts';
import { createPortIndex } from './port-index.ts';

const ports = mergePorts({
  seaPorts: [
    seaPortEntry('NLRTM', { name: 'Rotterdam', lat: 51.92, lon: 4.5, timezone: 'Europe/Amsterdam' }),
    seaPortEntry('BEANR', { name: 'Antwerp', alternate_names: ['Antwerpen'], lat: 51.23, lon: 4.4 }),
  ],
  unlocode: [],
  wpi: [
    wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', lat: 51.9, lon: 4.4833, harbour_size: 'large', channel_depth_m: 11 }),
    wpiEntry(31150, { name: 'Rotterdam Botlek', country: 'NL', lat: 51.88, lon: 4.29, harbour_size: 'medium' }),
    wpiEntry(31170, { name: 'Maassluis', country: 'NL', lat: 51.92, lon: 4.25 }),
  ],
});
const index = createPortIndex(ports, { sea_ports: { package: 'sea-ports', version: '0.0.0', entries: 2 }, wpi: null, unlocode: null, ports: ports.length });

let server: TestServer;
before(async () => {
  server = await startTestServer({ beforeListen: (app) => registerPortRoutes(app, { index }) });
});
after(() => server.close());

const get = (path: string) => fetch(`${server.url}${path}`, { headers: AUTH });

async function problem(response: Response, status: number, code: string): Promise<any> {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.code, code);
  return body;
}

test('one port by UN/LOCODE, with every field and its sources', async () => {
  const response = await get('/v3/maritime/ports/nlrtm');
  assert.equal(response.status, 200);
  const port = await json(response);
  assert.equal(port.id, 'NLRTM');
  assert.equal(port.wpi_number, 31140);
  assert.equal(port.channel_depth_m, 11);
  assert.equal(port.anchorage_depth_m, null);
  assert.equal(port.timezone, 'Europe/Amsterdam');
  assert.deepEqual(port.approach_area, { kind: 'circle', radius_nm: 10 });
  assert.deepEqual(port.sources, {
    unlocode: 'sea-ports', wpi_number: 'wpi', name: 'wpi', country: 'sea-ports', lat: 'wpi', lon: 'wpi', timezone: 'sea-ports',
    harbour_size: 'wpi', channel_depth_m: 'wpi', entrance_restrictions: 'wpi',
  });
  assert.deepEqual(Object.keys(port).sort(), Object.keys(index.get('NLRTM')!).sort());
});

test('one port by WPI number, also when it has a UN/LOCODE id', async () => {
  assert.equal((await json(await get('/v3/maritime/ports/WPI-31150'))).name, 'Rotterdam Botlek');
  assert.equal((await json(await get('/v3/maritime/ports/wpi-31140'))).id, 'NLRTM');
});

test('a malformed id is a 400 naming the parameter; an unknown one a 404 port_not_found', async () => {
  const malformed = await problem(await get('/v3/maritime/ports/rotterdam'), 400, 'validation_failed');
  assert.deepEqual(malformed.errors.map((error: { path: string }) => error.path), ['/params/id']);
  await problem(await get('/v3/maritime/ports/WPI-12x'), 400, 'validation_failed');
  const unknown = await problem(await get('/v3/maritime/ports/NLXXX'), 404, 'port_not_found');
  assert.match(unknown.detail, /NLXXX/);
  await problem(await get('/v3/maritime/ports/WPI-999'), 404, 'port_not_found');
});

test('search by words, country and distance', async () => {
  const ids = async (query: string) => (await json(await get(`/v3/maritime/ports?${query}`))).data.map((port: { id: string }) => port.id);
  assert.deepEqual(await ids('q=rotterdam'), ['NLRTM', 'WPI-31150']);
  assert.deepEqual(await ids('q=antwerpen'), ['BEANR']);
  assert.deepEqual(await ids('country=nl'), ['NLRTM', 'WPI-31150', 'WPI-31170']);
  const near = await json(await get('/v3/maritime/ports?near=51.9,4.48&radius_nm=15'));
  assert.deepEqual(near.data.map((port: { id: string; distance_nm: number }) => [port.id, port.distance_nm]), [
    ['NLRTM', 0.1], ['WPI-31150', 7.1], ['WPI-31170', 8.6],
  ]);
  assert.equal(near.next_cursor, null);
  assert.equal((await json(await get('/v3/maritime/ports?q=antwerp'))).data[0].distance_nm, null);
});

test('pages follow next_cursor; a cursor only works in the order it came from', async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: { id: string }[]; next_cursor: string | null } = await json(await get(`/v3/maritime/ports?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
    seen.push(...page.data.map((port) => port.id));
    cursor = page.next_cursor;
  } while (cursor !== null);
  assert.deepEqual(seen, index.ports.map((port) => port.id));

  const first = await json(await get('/v3/maritime/ports?limit=1'));
  await problem(await get(`/v3/maritime/ports?q=rotterdam&cursor=${first.next_cursor}`), 400, 'invalid_cursor');
  await problem(await get('/v3/maritime/ports?cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_cursor');
});

test('bad search parameters are 400s naming the parameter', async () => {
  const path = async (query: string) => (await problem(await get(`/v3/maritime/ports?${query}`), 400, 'validation_failed')).errors[0].path;
  assert.equal(await path('radius_nm=5'), '/querystring/radius_nm');
  assert.equal(await path('near=91,4'), '/querystring/near');
  assert.equal(await path('near=north'), '/querystring/near');
  assert.match(await path('country=NLD'), /country/);
  assert.match(await path('limit=0'), /limit/);
});
