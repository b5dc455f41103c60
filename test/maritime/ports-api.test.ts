// The port routes over a real loopback server, on the built-in sea-ports data merged with a small
// World Port Index import saved in the server's data folder, as `lamis import wpi` would.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { loadPorts, type PortIndex } from '../../src/maritime/ports/ports.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';

let server: TestServer;
/** The same data the server serves, loaded here to compare orders and counts with. */
let index: PortIndex;
before(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-ports-'));
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', lat: 51.9, lon: 4.4833, harbour_size: 'large', channel_depth_m: 11 }),
    wpiEntry(31150, { name: 'Rotterdam Botlek', country: 'NL', lat: 51.88, lon: 4.29, harbour_size: 'medium' }),
  ]);
  index = await loadPorts({ dataDir });
  server = await startTestServer({ config: { dataDir } });
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
    unlocode: 'sea-ports', wpi_number: 'wpi', name: 'sea-ports', country: 'sea-ports', lat: 'wpi', lon: 'wpi', timezone: 'sea-ports',
    harbour_size: 'wpi', channel_depth_m: 'wpi', entrance_restrictions: 'wpi',
  });
  assert.deepEqual(Object.keys(port).sort(), [...Object.keys(index.get('NLRTM')!), 'area'].sort());
  // No type in these rows and no AIS evidence yet: the base circle by size, said so.
  assert.deepEqual([port.area.derivation.method, port.area.derivation.base_radius_nm, port.area.anchorages, port.area.berth_clusters], ['base', 10, [], []]);
  assert.match(port.area.derivation.reasoning, /No AIS evidence/);
  assert.equal(port.area.polygon.type, 'Polygon');
  assert.ok(port.area.polygon.coordinates[0].length > 30);
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
  const rotterdam = await ids('q=rotterdam');
  assert.equal(rotterdam[0], 'NLRTM', 'the large harbour first');
  assert.ok(rotterdam.includes('WPI-31150'), 'the imported port without a UN/LOCODE is found by name');
  assert.ok((await ids('q=antwerpen')).includes('BEANR'), 'alternate names are searched');
  const dutch = await ids('country=nl&limit=100');
  assert.ok(dutch.length > 2 && dutch.includes('WPI-31150') && dutch.every((id: string) => id === 'WPI-31150' || id.startsWith('NL')));

  const near = (await json(await get('/v3/maritime/ports?near=51.9,4.48&radius_nm=15'))).data as { id: string; distance_nm: number }[];
  assert.deepEqual(near[0], { ...near[0], id: 'NLRTM', distance_nm: 0.1 });
  assert.ok(near.some((port) => port.id === 'WPI-31150' && port.distance_nm === 7.1));
  assert.ok(near.every((port, i) => port.distance_nm <= 15 && (i === 0 || near[i - 1]!.distance_nm <= port.distance_nm)), 'nearest first, within the radius');
  assert.equal((await json(await get('/v3/maritime/ports?q=antwerp'))).data[0].distance_nm, null);
});

test('pages follow next_cursor; a cursor only works in the order it came from', async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: { id: string }[]; next_cursor: string | null } = await json(await get(`/v3/maritime/ports?country=NL&limit=7${cursor ? `&cursor=${cursor}` : ''}`));
    seen.push(...page.data.map((port) => port.id));
    cursor = page.next_cursor;
  } while (cursor !== null);
  assert.deepEqual(seen, index.ports.filter((port) => port.country === 'NL').map((port) => port.id));

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
