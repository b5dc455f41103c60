// Sea routes over HTTP against a real server: ports by id and points by lat,lon, the passages with
// their limits, avoid and vessel dimensions, the antimeridian, and the problem documents.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { routeBetween } from '../../src/maritime/sea-routes/index.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const get = (url: string, headers: Record<string, string> = AUTH) => fetch(server.url + url, { headers });

async function ok(query: string): Promise<any> {
  const response = await get(`/v3/maritime/routes?${query}`);
  assert.equal(response.status, 200, await response.clone().text());
  return json(response);
}

async function problem(query: string, status: number, code: string): Promise<any> {
  const response = await get(`/v3/maritime/routes?${query}`);
  assert.equal(response.status, status, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.code, code);
  return body;
}

describe('GET /v3/maritime/routes', () => {
  test('between two ports: distance, passages with limits, duration at the default speed, GeoJSON', async () => {
    const body = await ok('from=NLRTM&to=SGSIN');
    assert.equal(body.from.port.id, 'NLRTM');
    assert.equal(body.to.port.id, 'SGSIN');
    assert.ok(Math.abs(body.distance_nm - 8300) < 0.05 * 8300, String(body.distance_nm));
    assert.deepEqual(body.passages.map((passage: any) => passage.id), ['dover', 'gibraltar', 'suez', 'bab_el_mandeb', 'malacca']);
    const suez = body.passages.find((passage: any) => passage.id === 'suez');
    assert.deepEqual(suez.limits, { length_m: 400, beam_m: 77.5, draught_m: 20.1, air_draft_m: 68 });
    assert.equal(body.speed_kn, 14);
    assert.equal(body.speed_source, 'default');
    assert.equal(body.duration_hours, Math.round((body.distance_nm / 14) * 100) / 100);
    assert.equal(body.route.type, 'Feature');
    assert.equal(body.route.geometry.type, 'LineString');
    assert.equal(body.route.properties.crosses_antimeridian, false);
    // The same route the module gives (the ETA uses it too).
    const direct = routeBetween({ lat: body.from.lat, lon: body.from.lon }, { lat: body.to.lat, lon: body.to.lon });
    assert.ok(direct.ok && Math.abs(direct.distance_nm - body.distance_nm) < 0.1);
  });

  test('avoid and dimensions change the route and say why', async () => {
    const cape = await ok('from=NLRTM&to=SGSIN&avoid=suez&speed_kn=12.5');
    assert.ok(Math.abs(cape.distance_nm - 11700) < 0.05 * 11700, String(cape.distance_nm));
    assert.deepEqual(cape.avoided, ['suez']);
    assert.equal(cape.speed_source, 'given');
    const vlcc = await ok('from=NLRTM&to=SGSIN&draught_m=22');
    assert.deepEqual(vlcc.refused.map((refused: any) => refused.passage.id), ['suez', 'malacca']);
    assert.deepEqual(vlcc.refused[0].exceeded, [{ dimension: 'draught_m', vessel: 22, limit: 20.1 }]);
    assert.equal(vlcc.vessel.draught_m, 22);
    const canal = await ok('from=DEBRV&to=DEKEL&draught_m=9');
    const round = await ok('from=DEBRV&to=DEKEL&avoid=kiel');
    assert.deepEqual(canal.passages.map((passage: any) => passage.id), ['kiel']);
    assert.ok(round.distance_nm > canal.distance_nm + 400);
  });

  test('lat,lon ends and a route across the antimeridian as a MultiLineString', async () => {
    const body = await ok('from=35.45,139.65&to=USLAX');
    assert.equal(body.from.port, null);
    assert.equal(body.route.geometry.type, 'MultiLineString');
    assert.equal(body.route.properties.crosses_antimeridian, true);
    for (const line of body.route.geometry.coordinates) {
      for (let i = 1; i < line.length; i++) assert.ok(Math.abs(line[i][0] - line[i - 1][0]) < 180);
    }
  });

  test('bad input: problem documents naming the field', async () => {
    const unknown = await problem('from=XXZZZ&to=NLRTM', 404, 'port_not_found');
    assert.equal(unknown.errors[0].path, '/querystring/from');
    const badPoint = await problem('from=NLRTM&to=91,0', 400, 'validation_failed');
    assert.equal(badPoint.errors[0].path, '/querystring/to');
    const notPoint = await problem('from=12,abc&to=NLRTM', 400, 'validation_failed');
    assert.equal(notPoint.errors[0].path, '/querystring/from');
    const badAvoid = await problem('from=NLRTM&to=SGSIN&avoid=suez,atlantis', 400, 'validation_failed');
    assert.equal(badAvoid.errors[0].path, '/querystring/avoid');
    await problem('from=NLRTM&to=SGSIN&draught_m=-1', 400, 'validation_failed');
    // 16 m draught into the Baltic: every way in is too shallow.
    const blocked = await problem('from=DEHAM&to=PLGDN&draught_m=16', 422, 'sea_route_blocked');
    assert.deepEqual(blocked.refused.map((refused: any) => refused.passage.id).sort(), ['great_belt', 'kiel', 'oresund']);
    assert.ok(blocked.errors.every((error: any) => error.path === '/querystring/draught_m'));
    assert.match(blocked.errors.map((error: any) => error.message).join(' '), /Kiel Canal .* takes at most 9.5 m/);
    const unauthorised = await get('/v3/maritime/routes?from=NLRTM&to=SGSIN', {});
    assert.equal(unauthorised.status, 401);
  });
});
