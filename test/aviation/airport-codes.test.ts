// Airport codes as callers give them, against a real server: an IATA code works wherever an ICAO
// code does (airport routes, the landing endpoint, planned arrivals, the watch list) and the answer
// says which was asked; an IATA code no airport has is a problem naming the field. Also what the
// OurAirports data adds to an airport: frequencies, navaids, and surfaces that are unknown, not unpaved.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const call = (method: string, path: string, body?: unknown) =>
  fetch(server.url + path, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function ok(response: Response, status = 200) {
  assert.equal(response.status, status, await response.clone().text());
  return json(response);
}

async function problem(response: Response, status: number, code: string) {
  assert.equal(response.status, status, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.code, code);
  return body;
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');

describe('the airport routes', () => {
  test('LHR answers as EGLL, says what was asked, and names the ICAO path', async () => {
    const response = await call('GET', '/v3/aviation/airports/lhr');
    const airport = await ok(response);
    assert.deepEqual([airport.icao, airport.iata, airport.requested_code], ['EGLL', 'LHR', 'LHR']);
    assert.equal(response.headers.get('content-location'), '/v3/aviation/airports/EGLL');
    assert.deepEqual(await json(await call('GET', '/v3/aviation/airports/EGLL')), { ...airport, requested_code: 'EGLL' });

    const runways = await call('GET', '/v3/aviation/airports/LHR/runways');
    assert.equal(runways.headers.get('content-location'), '/v3/aviation/airports/EGLL/runways');
    assert.equal((await ok(runways)).data.length, 2);
    const notams = await call('GET', '/v3/aviation/airports/LHR/notams');
    assert.equal((await ok(notams)).icao, 'EGLL');
    assert.equal(notams.headers.get('content-location'), '/v3/aviation/airports/EGLL/notams');
    assert.equal((await call('GET', '/v3/aviation/airports/EGLL/runways')).headers.get('content-location'), null);
  });

  test('an IATA code no airport has is a 404 naming the path parameter', async () => {
    const body = await problem(await call('GET', '/v3/aviation/airports/QQQ'), 404, 'airport_not_found');
    assert.deepEqual(body.errors, [{ path: '/params/icao', message: 'no airport has the IATA code QQQ in the airport data' }]);
    await problem(await call('GET', '/v3/aviation/airports/QQQ/slots'), 404, 'airport_not_found');
  });

  test('Heathrow: paved runways with placed ends, its frequencies and navaids, both sources credited', async () => {
    const airport = await ok(await call('GET', '/v3/aviation/airports/EGLL'));
    for (const runway of airport.runways) assert.deepEqual([runway.surface, runway.paved], ['ASPHALT', true], runway.designator);
    const ends = new Map<string, any>(airport.runways.flatMap((runway: any) => runway.ends).map((end: any) => [end.ident, end]));
    assert.equal(ends.get('09L').displaced_threshold_ft, 1007);
    assert.ok(ends.get('27R').lat !== null && ends.get('27R').lon !== null);
    assert.ok(airport.frequencies.some((f: any) => f.type === 'TWR' && f.description === 'Heathrow Tower' && f.frequency_mhz === 118.5));
    assert.ok(airport.frequencies.some((f: any) => f.type === 'ATIS'));
    assert.deepEqual(airport.navaids.find((navaid: any) => navaid.ident === 'LON'), {
      ident: 'LON', name: 'London', type: 'VOR-DME', frequency_khz: 113600, lat: 51.487202, lon: -0.466667, elevation_ft: 110, associated_airport: 'EGLL',
    });
    assert.match(airport.attribution, /OurAirports.*public domain.*Open Database License/s);
  });

  test('a runway whose surface the data does not give is unknown, and capacity says so rather than unpaved', async () => {
    // OurAirports gives Aasiaat's runway the surface "UNK".
    const airport = await ok(await call('GET', '/v3/aviation/airports/BGAA'));
    assert.deepEqual(airport.runways.map((runway: any) => [runway.surface, runway.paved]), [['UNKNOWN', null]]);
    const slots = await ok(await call('GET', '/v3/aviation/airports/BGAA/slots'));
    const reasoning = slots.data[0].reasoning.join('\n');
    assert.match(reasoning, /surface unknown/);
    assert.doesNotMatch(reasoning, /unpaved/);
  });
});

describe('the landing endpoint', () => {
  test('LHR as destination_icao is Heathrow, and the destination gives both codes and the one asked', async () => {
    const body = { destination_icao: 'LHR', vehicle_type: 'aircraft', eta_utc: inAnHour(), registration: 'G-EUPT', aircraft_type: 'A320' };
    const byIata = await ok(await call('POST', '/v3/intelligence/landing', body));
    assert.equal(byIata.destination.icao, 'EGLL');
    assert.equal(byIata.destination.iata, 'LHR');
    assert.equal(byIata.destination.requested_code, 'LHR');
    const byIcao = await ok(await call('POST', '/v3/intelligence/landing', { ...body, destination_icao: 'egll' }));
    assert.equal(byIcao.destination.requested_code, 'EGLL');
    assert.deepEqual({ ...byIata.destination, requested_code: 'EGLL' }, byIcao.destination);
    assert.deepEqual(byIata.runway, byIcao.runway);
  });

  test('an IATA code no airport has is a 404 naming destination_icao', async () => {
    const body = { destination_icao: 'QQQ', vehicle_type: 'aircraft', eta_utc: inAnHour(), registration: 'G-EUPT' };
    const problemBody = await problem(await call('POST', '/v3/intelligence/landing', body), 404, 'airport_not_found');
    assert.deepEqual(problemBody.errors.map((error: any) => error.path), ['/body/destination_icao']);
    const malformed = await problem(await call('POST', '/v3/intelligence/landing', { ...body, destination_icao: 'LH' }), 400, 'validation_failed');
    assert.deepEqual(malformed.errors.map((error: any) => error.path), ['/body/destination_icao']);
  });
});

describe('fleet arrivals and the watch list', () => {
  test('a planned arrival to LHR is stored for EGLL; an unknown IATA code is refused by field', async () => {
    const vehicle = await ok(await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-CODE', icao_type: 'A320' }), 201);
    const arrival = await ok(await call('POST', `/v3/fleet/vehicles/${vehicle.id}/arrivals`, { destination_icao: 'lhr', eta_utc: inAnHour() }), 201);
    assert.equal(arrival.destination_icao, 'EGLL');
    const refused = await problem(await call('POST', `/v3/fleet/vehicles/${vehicle.id}/arrivals`, { destination_icao: 'QQQ', eta_utc: inAnHour() }), 400, 'validation_failed');
    assert.deepEqual(refused.errors, [{ path: '/body/destination_icao', message: 'no airport has the IATA code QQQ' }]);
  });

  test('watching LHR watches EGLL', async () => {
    const entry = await ok(await call('POST', '/v3/watch-list', { type: 'airport', icao: 'LHR' }), 201);
    assert.equal(entry.icao, 'EGLL');
    const refused = await problem(await call('POST', '/v3/watch-list', { type: 'airport', icao: 'QQQ' }), 422, 'watch_target_unknown');
    assert.equal(refused.errors[0].path, '/body/icao');
  });
});
