// The fleet routes against a real server, with two API keys standing for two owners. The server's
// log lines are captured to show that no registration reaches them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { pino } from 'pino';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, TEST_API_KEY, type TestServer } from '../support/server.ts';

const SECOND_KEY = 'operator_second_key_0123456789';
const SECOND = { authorization: `Bearer ${SECOND_KEY}` };
/** Every registration sent in this file, to look for in the logs. */
const SENT = ['G-LOGA', 'G-LOGB', 'G-LOGC', 'G-LOGD', 'G-LOGE', 'G-LOGF', 'G-LOGG', 'G-LOGH', 'G-LOGI', 'G-LOGJ', 'G-LOGK', 'BAD*LOGX'];

let server: TestServer;
const logLines: string[] = [];

before(async () => {
  server = await startTestServer({
    config: { apiKeys: [TEST_API_KEY, SECOND_KEY] },
    logger: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }),
  });
});
after(() => server.close());

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH) =>
  fetch(server.url + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function problem(response: Response, status: number, code: string) {
  assert.equal(response.status, status, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.code, code);
  return body;
}

async function add(body: object, headers: Record<string, string> = AUTH) {
  const response = await call('POST', '/v3/fleet/vehicles', body, headers);
  assert.equal(response.status, 201, await response.clone().text());
  return json(response);
}

describe('vehicles', () => {
  test('need an API key', async () => {
    await problem(await call('GET', '/v3/fleet/vehicles', undefined, {}), 401, 'unauthorized');
  });

  test('a vehicle added is answered with its id and location, and reads back', async () => {
    const response = await call('POST', '/v3/fleet/vehicles', {
      vehicle_type: 'aircraft', registration: 'g-loga', icao_type: 'A320', home_base_icao: 'egll', operational_regions: ['EGTT', 'eg'],
    });
    assert.equal(response.status, 201);
    const vehicle = await json(response);
    assert.equal(response.headers.get('location'), `/v3/fleet/vehicles/${vehicle.id}`);
    assert.deepEqual({ ...vehicle, id: 'x', created_at: 'x', updated_at: 'x' }, {
      id: 'x', vehicle_type: 'aircraft', registration: 'G-LOGA', icao_type: 'A320', home_base_icao: 'EGLL',
      operational_regions: ['EGTT', 'EG'], mmsi: null, imo: null, crosswind_limit_kt: null, min_runway_m: null,
      created_at: 'x', updated_at: 'x',
    });
    assert.deepEqual(await json(await call('GET', `/v3/fleet/vehicles/${vehicle.id}`)), vehicle);
    await problem(await call('GET', '/v3/fleet/vehicles/veh_none'), 404, 'vehicle_not_found');
  });

  test('invalid fields are each named, without repeating the registration', async () => {
    const missing = await problem(await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'helicopter' }), 400, 'validation_failed');
    assert.deepEqual(missing.errors.map((e: { path: string }) => e.path), ['/body/registration', '/body/icao_type']);

    const bad = await problem(await call('POST', '/v3/fleet/vehicles', {
      vehicle_type: 'aircraft', registration: 'BAD*LOGX', icao_type: 'A320', mmsi: 235012345, operational_regions: ['EGTT', 'XYZ'],
    }), 400, 'validation_failed');
    assert.deepEqual(bad.errors.map((e: { path: string }) => e.path), ['/body/registration', '/body/operational_regions/1', '/body/mmsi']);
    assert.ok(!JSON.stringify(bad).includes('LOGX'));

    const unknown = await problem(await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi: 235012345, colour: 'red', flag: 'GB' }), 400, 'validation_failed');
    assert.deepEqual(unknown.errors.map((e: { path: string }) => e.path), ['/body/colour', '/body/flag']);

    const type = await problem(await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'submarine' }), 400, 'validation_failed');
    assert.ok(type.errors.some((e: { path: string }) => e.path === '/body/vehicle_type'));

    const vessel = await problem(await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi: 2320001, imo: 1234568 }), 400, 'validation_failed');
    assert.deepEqual(vessel.errors.map((e: { path: string }) => e.path), ['/body/mmsi', '/body/imo']);
  });

  test('a registration already in the fleet is a conflict, in any spelling', async () => {
    await add({ vehicle_type: 'aircraft', registration: 'G-LOGB', icao_type: 'B738' });
    await problem(await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'glogb', icao_type: 'A320' }), 409, 'duplicate_registration');
  });

  test('an Idempotency-Key makes retries return the first vehicle; another body under it is refused', async () => {
    const headers = { ...AUTH, 'idempotency-key': 'add-logc' };
    const body = { vehicle_type: 'aircraft', registration: 'G-LOGC', icao_type: 'C172' };
    const first = await call('POST', '/v3/fleet/vehicles', body, headers);
    assert.equal(first.status, 201);
    const again = await call('POST', '/v3/fleet/vehicles', body, headers);
    assert.equal(again.status, 200);
    assert.deepEqual(await json(again), await json(first));
    await problem(await call('POST', '/v3/fleet/vehicles', { ...body, icao_type: 'C152' }, headers), 422, 'vehicle_idempotency_key_reused');
    await problem(await call('POST', '/v3/fleet/vehicles', body, { ...AUTH, 'idempotency-key': '' }), 400, 'validation_failed');
  });

  test('the list pages with limit and cursor, narrowed by type', async () => {
    const made: string[] = [];
    for (const registration of ['G-LOGD', 'G-LOGE', 'G-LOGF']) {
      made.push((await add({ vehicle_type: 'helicopter', registration, icao_type: 'EC35' })).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string; vehicle_type: string }[]; next_cursor: string | null } =
        await json(await call('GET', `/v3/fleet/vehicles?vehicle_type=helicopter&limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      assert.ok(page.data.length <= 2 && page.data.every((v) => v.vehicle_type === 'helicopter'));
      seen.push(...page.data.map((v) => v.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    assert.deepEqual([...seen].sort(), [...made].sort());
    await problem(await call('GET', '/v3/fleet/vehicles?cursor=not-ours'), 400, 'invalid_cursor');
    await problem(await call('GET', '/v3/fleet/vehicles?limit=101'), 400, 'validation_failed');
  });

  test('PATCH changes the fields sent, null clears; DELETE removes', async () => {
    const vehicle = await add({ vehicle_type: 'aircraft', registration: 'G-LOGG', icao_type: 'A320', home_base_icao: 'EGKK' });
    const path = `/v3/fleet/vehicles/${vehicle.id}`;
    const patched = await call('PATCH', path, { crosswind_limit_kt: 24, home_base_icao: null });
    assert.equal(patched.status, 200);
    const body = await json(patched);
    assert.deepEqual([body.crosswind_limit_kt, body.home_base_icao, body.registration, body.icao_type], [24, null, 'G-LOGG', 'A320']);
    const invalid = await problem(await call('PATCH', path, { icao_type: null, wingspan: 30 }), 400, 'validation_failed');
    assert.deepEqual(invalid.errors.map((e: { path: string }) => e.path), ['/body/wingspan']);
    const cleared = await problem(await call('PATCH', path, { icao_type: null }), 400, 'validation_failed');
    assert.deepEqual(cleared.errors.map((e: { path: string }) => e.path), ['/body/icao_type']);
    await problem(await call('PATCH', path, { registration: 'G-LOGB' }), 409, 'duplicate_registration');

    const deleted = await call('DELETE', path);
    assert.equal(deleted.status, 204);
    await problem(await call('GET', path), 404, 'vehicle_not_found');
    await problem(await call('DELETE', path), 404, 'vehicle_not_found');
    await problem(await call('PATCH', path, { crosswind_limit_kt: 20 }), 404, 'vehicle_not_found');
  });
});

describe('notification settings', () => {
  test('organisation-wide and per vehicle, with what applies to the vehicle', async () => {
    assert.deepEqual(await json(await call('GET', '/v3/fleet/notification-settings', undefined, SECOND)),
      { vehicle_id: null, thresholds: {}, effective: {}, updated_at: null });
    const put = await call('PUT', '/v3/fleet/notification-settings', { thresholds: { safety_score_below: 55, weather_hold: true } });
    assert.equal(put.status, 200);
    assert.deepEqual((await json(put)).thresholds, { safety_score_below: 55, weather_hold: true });

    const vehicle = await add({ vehicle_type: 'aircraft', registration: 'G-LOGH', icao_type: 'A320' });
    const path = `/v3/fleet/vehicles/${vehicle.id}/notification-settings`;
    assert.deepEqual((await json(await call('GET', path))).effective, { safety_score_below: 55, weather_hold: true });
    const own = await json(await call('PUT', path, { thresholds: { safety_score_below: 70, wind_shear_at_least: 'HIGH' } }));
    assert.equal(own.vehicle_id, vehicle.id);
    assert.deepEqual(own.effective, { safety_score_below: 70, wind_shear_at_least: 'HIGH', weather_hold: true });
    assert.deepEqual(await json(await call('GET', path)), own);
    assert.deepEqual((await json(await call('GET', '/v3/fleet/notification-settings', undefined, SECOND))).thresholds, {}, 'each owner its own');
  });

  test('unknown and invalid thresholds are named', async () => {
    const unknown = await problem(await call('PUT', '/v3/fleet/notification-settings', { thresholds: { safety_score_below: 50, sms: true, noise_db_above: 80 } }), 400, 'validation_failed');
    assert.deepEqual(unknown.errors.map((e: { path: string }) => e.path), ['/body/thresholds/sms', '/body/thresholds/noise_db_above']);
    const invalid = await problem(await call('PUT', '/v3/fleet/notification-settings', { thresholds: { wind_shear_at_least: 'EXTREME' } }), 400, 'validation_failed');
    assert.deepEqual(invalid.errors.map((e: { path: string }) => e.path), ['/body/thresholds/wind_shear_at_least']);
    const extra = await problem(await call('PUT', '/v3/fleet/notification-settings', { thresholds: {}, email: 'ops@example.com' }), 400, 'validation_failed');
    assert.deepEqual(extra.errors.map((e: { path: string }) => e.path), ['/body/email']);
    assert.deepEqual((await json(await call('GET', '/v3/fleet/notification-settings'))).thresholds, { safety_score_below: 55, weather_hold: true }, 'unchanged');
  });
});

describe('another owner', () => {
  test('sees none of the vehicles, and every route on one answers 404 as if it did not exist', async () => {
    const vehicle = await add({ vehicle_type: 'aircraft', registration: 'G-LOGI', icao_type: 'A320' });
    const path = `/v3/fleet/vehicles/${vehicle.id}`;
    await call('PUT', `${path}/notification-settings`, { thresholds: { crosswind_kt_above: 20 } });

    const list = await json(await call('GET', '/v3/fleet/vehicles?limit=100', undefined, SECOND));
    assert.ok(!list.data.some((v: { id: string }) => v.id === vehicle.id));
    for (const [method, url, body] of [
      ['GET', path], ['PATCH', path, { crosswind_limit_kt: 5 }], ['DELETE', path],
      ['GET', `${path}/notification-settings`], ['PUT', `${path}/notification-settings`, { thresholds: {} }],
    ] as const) {
      const refused = await problem(await call(method, url, body, SECOND), 404, 'vehicle_not_found');
      const missing = await problem(await call(method, url.replace(vehicle.id, 'veh_0000000000000000'), body, SECOND), 404, 'vehicle_not_found');
      assert.equal(refused.detail.replace(vehicle.id, 'ID'), missing.detail.replace('veh_0000000000000000', 'ID'), `${method} ${url}`);
    }
    const untouched = await json(await call('GET', path));
    assert.deepEqual(untouched, vehicle);
    assert.deepEqual((await json(await call('GET', `${path}/notification-settings`))).thresholds, { crosswind_kt_above: 20 });

    const theirs = await add({ vehicle_type: 'aircraft', registration: 'G-LOGI', icao_type: 'A320' }, SECOND);
    assert.notEqual(theirs.id, vehicle.id);
    await problem(await call('GET', `/v3/fleet/vehicles/${theirs.id}`), 404, 'vehicle_not_found');
  });
});

describe('API description', () => {
  test('documents every fleet operation in valid OpenAPI 3.1', async () => {
    const document = await json(await call('GET', '/v3/openapi.json'));
    const paths = Object.keys(document.paths).filter((p) => p.startsWith('/v3/fleet/')).sort();
    assert.deepEqual(paths, [
      '/v3/fleet/feed', '/v3/fleet/notification-settings', '/v3/fleet/vehicles', '/v3/fleet/vehicles/{id}', '/v3/fleet/vehicles/{id}/arrivals',
      '/v3/fleet/vehicles/{id}/arrivals/{arrivalId}', '/v3/fleet/vehicles/{id}/notification-settings',
    ]);
    for (const p of paths) {
      for (const operation of Object.values(document.paths[p]) as { summary?: string; tags?: string[] }[]) {
        assert.ok(operation.summary && operation.tags?.includes('Fleet'), p);
      }
    }
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });
});

describe('logs', () => {
  test('hold the requests but none of the registrations sent', async () => {
    await add({ vehicle_type: 'aircraft', registration: 'G-LOGJ', icao_type: 'A320' });
    await problem(await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-LOGJ', icao_type: 'A320' }), 409, 'duplicate_registration');
    await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-LOGK' }); // 400: no icao_type
    const log = logLines.join('');
    assert.match(log, /"url":"\/v3\/fleet\/vehicles"/, 'request lines are captured');
    for (const registration of SENT) {
      for (const writing of [registration, registration.replace('-', ''), registration.toLowerCase()]) assert.ok(!log.includes(writing), writing);
    }
  });
});
