// The aviation data endpoints against a real server: airports and runways, aircraft types, METAR
// and TAF pushed as raw text and read back decoded, NOTAMs, and arrival slots. The simulators are
// off (except in one test), so every report and NOTAM here is one the test pushed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DISCLAIMER } from '../../src/platform/disclaimer.ts';
import { AIRCRAFT_TYPES, aircraftType } from '../../src/aviation/reference/aircraft-types.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, TEST_API_KEY, type TestServer } from '../support/server.ts';

const OTHER_KEY = 'lamis_test_other_fedcba9876543210';
const OTHER = { authorization: `Bearer ${OTHER_KEY}` };
const HOUR = 3_600_000;

let server: TestServer;

before(async () => {
  server = await startTestServer({ config: { apiKeys: [TEST_API_KEY, OTHER_KEY] } });
});
after(() => server.close());

const get = (path: string, headers: Record<string, string> = AUTH) => fetch(server.url + path, { headers });
const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

async function problem(response: Response, status: number, code: string) {
  assert.equal(response.status, status, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.code, code);
  return body;
}

const two = (n: number) => String(n).padStart(2, '0');
/** METAR/TAF time group: DDHHMMZ. */
const dayTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}Z`;
};
/** TAF validity bound: DDHH. */
const dayHour = (ms: number) => `${two(new Date(ms).getUTCDate())}${two(new Date(ms).getUTCHours())}`;
/** NOTAM item B)/C) time: YYMMDDHHMM. */
const notamTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
};
const nextHour = () => Math.ceil(Date.now() / HOUR) * HOUR;

describe('airports', () => {
  test('search by name puts the airport itself first', async () => {
    const page = await json(await get('/v3/aviation/airports?q=heathrow'));
    const [first] = page.data;
    assert.equal(first.icao, 'EGLL');
    assert.equal(first.iata, 'LHR');
    assert.equal(first.country, 'GB');
    assert.equal(first.runway_count, 2);
    assert.equal(first.distance_nm, null);
    assert.equal(first.runways, undefined);
  });

  test('search by country and type pages through every match once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await json(await get(`/v3/aviation/airports?country=gb&type=large_airport&limit=3${cursor ? `&cursor=${cursor}` : ''}`));
      assert.ok(page.data.length <= 3);
      for (const airport of page.data) {
        assert.equal(airport.country, 'GB');
        assert.equal(airport.type, 'large_airport');
        seen.push(airport.icao);
      }
      cursor = page.next_cursor;
    } while (cursor !== null);
    assert.ok(seen.length > 3, 'more than one page');
    assert.ok(seen.includes('EGLL'));
    assert.equal(new Set(seen).size, seen.length);
    assert.deepEqual(seen, [...seen].sort());
  });

  test('search near a point lists the nearest first and continues by distance', async () => {
    const first = await json(await get('/v3/aviation/airports?near=51.47,-0.45&radius_nm=30&limit=2'));
    assert.equal(first.data[0].icao, 'EGLL');
    assert.ok(first.data[0].distance_nm < 1);
    assert.ok(first.data[0].distance_nm <= first.data[1].distance_nm);
    assert.ok(first.next_cursor);
    const second = await json(await get(`/v3/aviation/airports?near=51.47,-0.45&radius_nm=30&limit=2&cursor=${first.next_cursor}`));
    assert.ok(second.data.length > 0);
    assert.ok(second.data[0].distance_nm >= first.data[1].distance_nm);
    assert.ok(second.data.every((airport: any) => airport.distance_nm <= 30 && !first.data.some((seen: any) => seen.icao === airport.icao)));
  });

  test('a malformed near, a radius without near, or a foreign cursor is a 400', async () => {
    const near = await problem(await get('/v3/aviation/airports?near=91,0'), 400, 'validation_failed');
    assert.equal(near.errors[0].path, '/querystring/near');
    assert.equal((await problem(await get('/v3/aviation/airports?near=abc'), 400, 'validation_failed')).errors[0].path, '/querystring/near');
    assert.equal((await problem(await get('/v3/aviation/airports?radius_nm=10'), 400, 'validation_failed')).errors[0].path, '/querystring/radius_nm');
    await problem(await get('/v3/aviation/airports?cursor=garbage'), 400, 'invalid_cursor');
    const byDistance = await json(await get('/v3/aviation/airports?near=51.47,-0.45&limit=1'));
    await problem(await get(`/v3/aviation/airports?q=london&cursor=${byDistance.next_cursor}`), 400, 'invalid_cursor');
  });

  test('one airport with its runways and the data attribution', async () => {
    const airport = await json(await get('/v3/aviation/airports/egll'));
    assert.equal(airport.icao, 'EGLL');
    assert.equal(airport.name, 'London Heathrow Airport');
    assert.match(airport.attribution, /OurAirports.*Open Database License/s);
    assert.deepEqual(airport.runways.map((runway: any) => runway.designator).sort(), ['09L/27R', '09R/27L']);
    const end27L = airport.runways.flatMap((runway: any) => runway.ends).find((end: any) => end.ident === '27L');
    assert.ok(Math.abs(end27L.true_heading_deg - 270) < 5);
    assert.ok(end27L.lat !== null && end27L.lon !== null);
  });

  test('the runways alone', async () => {
    const runways = await json(await get('/v3/aviation/airports/EGLL/runways'));
    assert.deepEqual(runways.data.map((runway: any) => runway.ends.map((end: any) => end.ident)).sort(), [['09L', '27R'], ['09R', '27L']]);
    assert.ok(runways.data.every((runway: any) => runway.length_ft > 10_000));
  });

  test('a malformed code is a 400 naming the field; an unknown one is a 404', async () => {
    for (const code of ['EG-L', 'EGLLX', 'EG']) {
      const body = await problem(await get(`/v3/aviation/airports/${code}`), 400, 'validation_failed');
      assert.deepEqual(body.errors.map((error: any) => error.path), ['/params/icao']);
    }
    await problem(await get('/v3/aviation/airports/ZZZ9'), 404, 'airport_not_found');
    await problem(await get('/v3/aviation/airports/ZZZ9/runways'), 404, 'airport_not_found');
    await problem(await get('/v3/aviation/airports/ZZZ9/metar'), 404, 'airport_not_found');
  });

  test('needs an API key', async () => {
    await problem(await get('/v3/aviation/airports/EGLL', {}), 401, 'unauthorized');
  });
});

describe('aircraft types', () => {
  test('one type by designator, any case', async () => {
    const type = await json(await get('/v3/aviation/aircraft-types/b738'));
    const expected = aircraftType('B738')!;
    assert.equal(type.designator, 'B738');
    assert.equal(type.model, expected.model);
    assert.equal(type.approach_category, expected.approach_category);
    assert.equal(type.crosswind_limit_kt, expected.crosswind_limit_kt);
    assert.equal(type.min_runway_m, expected.min_runway_m);
  });

  test('an unknown type is a 404, a malformed one a 400', async () => {
    await problem(await get('/v3/aviation/aircraft-types/ZZZZ'), 404, 'unknown_aircraft_type');
    const body = await problem(await get('/v3/aviation/aircraft-types/B7-38'), 400, 'validation_failed');
    assert.equal(body.errors[0].path, '/params/designator');
  });

  test('the list pages through every type by designator', async () => {
    const designators: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await json(await get(`/v3/aviation/aircraft-types?limit=100${cursor ? `&cursor=${cursor}` : ''}`));
      designators.push(...page.data.map((type: any) => type.designator));
      cursor = page.next_cursor;
    } while (cursor !== null);
    assert.equal(designators.length, AIRCRAFT_TYPES.length);
    assert.deepEqual(designators, AIRCRAFT_TYPES.map((type) => type.designator).sort());
  });
});

describe('METAR and TAF', () => {
  const observed = Date.now() - 20 * 60_000;
  const metar = `EGLL ${dayTime(observed)} 27015G25KT 9999 FEW030 12/06 Q1012`;

  test('no report held: 404 no_report', async () => {
    await problem(await get('/v3/aviation/airports/EGKK/metar'), 404, 'no_report');
    await problem(await get('/v3/aviation/airports/EGKK/taf'), 404, 'no_report');
  });

  test('a pushed METAR is stored and served decoded, with what it means', async () => {
    const pushed = await send('POST', '/v3/aviation/airports/EGLL/metar', metar);
    assert.equal(pushed.status, 201, await pushed.clone().text());
    assert.equal(pushed.headers.get('location'), '/v3/aviation/airports/EGLL/metar');
    assert.equal((await json(pushed)).source, 'operator');

    const report = await json(await get('/v3/aviation/airports/EGLL/metar'));
    assert.equal(report.kind, 'metar');
    assert.equal(report.source, 'operator');
    assert.equal(report.raw, metar);
    assert.equal(Date.parse(report.observed_at), Math.floor(observed / 60_000) * 60_000);
    assert.ok(report.observation_age_s >= 20 * 60);
    assert.ok(['live', 'recent', 'stale'].includes(report.freshness));
    assert.equal(report.decoded.wind.speed_kt, 15);
    assert.equal(report.decoded.wind.gust_kt, 25);
    assert.equal(report.decoded.altimeter.hpa, 1012);
    assert.equal(report.decode_error, null);
    assert.equal(report.derived.flight_category, 'VFR');
    assert.deepEqual(report.derived.visibility_nm, { nm: report.decoded.visibility.nm, lower_bound: true, upper_bound: false });
    assert.deepEqual(report.derived.conditions, ['PARTLY_CLOUDY']);
    assert.equal(report.derived.wind_shear_risk.level, 'LOW');
    const wind27L = report.derived.runway_wind.find((runway: any) => runway.runway === '27L');
    assert.equal(wind27L.headwind_kt, 15);
    assert.equal(wind27L.crosswind_kt, 0);
    assert.equal(report.derived.runway_wind.find((runway: any) => runway.runway === '09R').headwind_kt, -15);
    assert.equal(report.disclaimer, DISCLAIMER);
  });

  test('a METAR for another station, a TAF, garbage or a future report is refused with the reason', async () => {
    const cases: [string, string][] = [
      [`EGKK ${dayTime(observed)} 27015KT 9999 FEW030 12/06 Q1012`, 'station_mismatch'],
      [`TAF EGLL ${dayTime(observed)} ${dayHour(observed)}/${dayHour(observed + 24 * HOUR)} 27010KT 9999 SCT030`, 'wrong_kind'],
      ['EGLL this is not a metar', 'invalid_report'],
      [`EGLL ${dayTime(Date.now() + 3 * HOUR)} 27015KT 9999 FEW030 12/06 Q1012`, 'in_future'],
    ];
    for (const [text, reason] of cases) {
      const body = await problem(await send('POST', '/v3/aviation/airports/EGLL/metar', text), 422, 'invalid_report');
      assert.equal(body.reason, reason, text);
    }
    const garbage = await json(await send('POST', '/v3/aviation/airports/EGLL/metar', 'EGLL 211420Z 27015KT 9999 FEW030 12/06 1012'));
    assert.equal(garbage.report_error.code, 'bad_pressure');
  });

  test('report text must come as text/plain', async () => {
    const response = await send('POST', '/v3/aviation/airports/EGLL/metar', { metar });
    await problem(response, 415, 'unsupported_media_type');
  });

  test('a pushed TAF is served with what is in force now', async () => {
    const issued = Date.now() - 30 * 60_000;
    const start = Math.floor(issued / HOUR) * HOUR;
    const taf = `TAF EGLL ${dayTime(issued)} ${dayHour(start)}/${dayHour(start + 24 * HOUR)} 24010KT 9999 SCT025 ` +
      `TEMPO ${dayHour(start)}/${dayHour(start + 6 * HOUR)} 4000 RA BKN012`;
    const pushed = await send('POST', '/v3/aviation/airports/EGLL/taf', taf);
    assert.equal(pushed.status, 201, await pushed.clone().text());
    const report = await json(await get('/v3/aviation/airports/EGLL/taf'));
    assert.equal(report.kind, 'taf');
    assert.equal(report.decoded.station, 'EGLL');
    assert.equal(report.decoded.forecasts.length, 2);
    assert.equal(report.derived.in_validity, true);
    assert.equal(report.derived.prevailing.flight_category, 'VFR');
    assert.equal(report.derived.prevailing.wind.direction_deg, 240);
    assert.equal(report.derived.changes[0].change, 'TEMPO');
    assert.equal(report.derived.changes[0].flight_category, 'IFR');
    assert.ok(report.derived.changes[0].conditions.includes('RAIN'));
  });

  test('with the simulators on, EGLL gets a simulated METAR', async () => {
    const simulated = await startTestServer({ config: { aviationSimulators: 'on' } });
    try {
      const report = await json(await fetch(`${simulated.url}/v3/aviation/airports/EGLL/metar`, { headers: AUTH }));
      assert.equal(report.source, 'simulated');
      assert.equal(report.decoded.station, 'EGLL');
      assert.ok(report.derived.conditions.length > 0);
    } finally {
      await simulated.close();
    }
  });
});

describe('NOTAMs', () => {
  const start = Date.now() - HOUR;
  const end = nextHour() + 30 * HOUR;
  const closure = `A0501/26 NOTAMN
Q) EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005
A) EGLL B) ${notamTime(start)} C) ${notamTime(end)}
E) RWY 09L/27R CLSD DUE TO MAINT`;

  test('a pushed NOTAM is stored once and its effects derived', async () => {
    const created = await send('POST', '/v3/aviation/notams', closure);
    assert.equal(created.status, 201, await created.clone().text());
    const body = await json(created);
    assert.equal(body.created, true);
    assert.equal(body.notam.id, 'A0501/26');
    assert.deepEqual(body.notam.location, ['EGLL']);
    assert.deepEqual(body.notam.effects, [{ kind: 'runway_closed', runways: ['09L', '27R'] }]);

    const again = await send('POST', '/v3/aviation/notams', closure);
    assert.equal(again.status, 200);
    assert.equal((await json(again)).created, false);
  });

  test('the NOTAMs in force now, then at an instant and in a window after it ends', async () => {
    const now = await json(await get('/v3/aviation/airports/EGLL/notams'));
    const notam = now.data.find((item: any) => item.id === 'A0501/26');
    assert.ok(notam, 'the closure is in force now');
    assert.equal(notam.source, 'operator');
    assert.equal(notam.q_code, 'QMRLC');
    assert.equal(notam.subject.code, 'MR');
    assert.equal(notam.text, 'RWY 09L/27R CLSD DUE TO MAINT');
    assert.ok(notam.received_at);
    assert.deepEqual(now.feeds, []);
    assert.equal(now.input_source, 'operator_only');
    assert.equal(now.disclaimer, DISCLAIMER);

    const later = new Date(end + HOUR).toISOString();
    assert.deepEqual((await json(await get(`/v3/aviation/airports/EGLL/notams?at=${later}`))).data, []);
    const window = await json(await get(`/v3/aviation/airports/EGLL/notams?from=${new Date(end - HOUR).toISOString()}&to=${later}`));
    assert.deepEqual(window.data.map((item: any) => item.id), ['A0501/26']);
    assert.deepEqual((await json(await get('/v3/aviation/airports/EGKK/notams'))).data, []);
  });

  test('a bad query is a 400 naming the field', async () => {
    const now = new Date().toISOString();
    assert.equal((await problem(await get(`/v3/aviation/airports/EGLL/notams?at=${now}&from=${now}`), 400, 'validation_failed')).errors[0].path, '/querystring/at');
    assert.equal((await problem(await get(`/v3/aviation/airports/EGLL/notams?from=${now}`), 400, 'validation_failed')).errors[0].path, '/querystring/to');
    assert.equal((await problem(await get(`/v3/aviation/airports/EGLL/notams?from=${now}&to=${now}`), 400, 'validation_failed')).errors[0].path, '/querystring/to');
    assert.equal((await problem(await get('/v3/aviation/airports/EGLL/notams?at=tomorrow'), 400, 'validation_failed')).errors[0].path, '/querystring/at');
  });

  test('refusals carry the reason', async () => {
    assert.equal((await problem(await send('POST', '/v3/aviation/notams', 'RWY 09L CLSD'), 422, 'invalid_notam')).reason, 'missing_q_line');
    const unnumbered = closure.split('\n').slice(1).join('\n');
    assert.equal((await problem(await send('POST', '/v3/aviation/notams', unnumbered), 422, 'invalid_notam')).reason, 'missing_number');
    const changed = closure.replace('DUE TO MAINT', 'DUE TO WIP');
    assert.equal((await problem(await send('POST', '/v3/aviation/notams', changed), 422, 'invalid_notam')).reason, 'duplicate');
  });

  test('a runway closure lowers the derived slot capacity while it is in force', async () => {
    const from = new Date(end - 2 * HOUR).toISOString();
    const to = new Date(end + 2 * HOUR).toISOString();
    const slots = await json(await get(`/v3/aviation/airports/EGLL/slots?from=${from}&to=${to}`));
    assert.equal(slots.data.length, 4);
    const [during, , after1] = slots.data;
    assert.ok(during.derived_capacity < after1.derived_capacity, JSON.stringify(slots.data));
    assert.ok(during.reasoning.some((line: string) => /09L\/27R: closed/.test(line)));
    assert.ok(!after1.reasoning.some((line: string) => /closed/.test(line)));
  });
});

describe('slots', () => {
  const path = '/v3/aviation/airports/EGKK/slots';
  // Ten minutes into the next hour; a test takes it once, so crossing an hour mid-test keeps its slot.
  const eta = () => new Date(nextHour() + 10 * 60_000).toISOString();
  const book = (key: string | null, body: unknown, headers: Record<string, string> = {}) =>
    send('POST', `${path}/bookings`, body, { ...(key === null ? {} : { 'idempotency-key': key }), ...headers });

  test('the next 24 whole hours by default, capacity derived from the runways', async () => {
    const earliest = nextHour();
    const slots = await json(await get(path));
    assert.equal(slots.data.length, 24);
    assert.ok([earliest, nextHour()].includes(Date.parse(slots.from)), slots.from);
    assert.equal(Date.parse(slots.to) - Date.parse(slots.from), 24 * HOUR);
    const [first] = slots.data;
    assert.equal(first.hour, slots.from);
    assert.equal(first.capacity_source, 'derived');
    assert.ok(first.capacity > 0);
    assert.equal(first.capacity, first.derived_capacity);
    assert.equal(first.remaining, first.capacity - first.booked);
    assert.ok(first.reasoning.length > 1);
    assert.equal(slots.disclaimer, DISCLAIMER);
  });

  test('a window over 48 hours or ending before it starts is a 400', async () => {
    const from = new Date(nextHour()).toISOString();
    const far = new Date(nextHour() + 49 * HOUR).toISOString();
    assert.equal((await problem(await get(`${path}?from=${from}&to=${far}`), 400, 'validation_failed')).errors[0].path, '/querystring/to');
    assert.equal((await problem(await get(`${path}?from=${far}&to=${from}`), 400, 'validation_failed')).errors[0].path, '/querystring/to');
  });

  test('an admin sets the capacity; booking is idempotent, stops when full, and a cancellation frees a place', async () => {
    const etaUtc = eta();
    const slotHour = new Date(Math.floor(Date.parse(etaUtc) / HOUR) * HOUR).toISOString();
    const set = await send('PUT', `${path}/capacity`, { arrivals_per_hour: 2 });
    assert.equal(set.status, 200, await set.clone().text());
    const capacity = await json(set);
    assert.equal(capacity.override, 2);
    assert.ok(capacity.derived.arrivals_per_hour > 0);
    assert.ok(capacity.derived.reasoning.length > 0);

    const first = await book('key-1', { eta_utc: etaUtc, registration: 'g-eupt' });
    assert.equal(first.status, 201, await first.clone().text());
    const booking = await json(first);
    assert.equal(booking.icao, 'EGKK');
    assert.equal(booking.registration, 'G-EUPT');
    assert.equal(booking.hour, slotHour);
    assert.equal(booking.status, 'booked');
    assert.deepEqual(booking.slot, { hour: booking.hour, capacity: 2, capacity_source: 'override', booked: 1, remaining: 1, available: true });

    const replay = await book('key-1', { eta_utc: etaUtc, registration: 'G-EUPT' });
    assert.equal(replay.status, 200);
    const replayed = await json(replay);
    assert.equal(replayed.id, booking.id);
    assert.equal(replayed.slot.booked, 1);

    await problem(await book('key-1', { eta_utc: etaUtc, registration: 'G-EUPU' }), 422, 'idempotency_key_reused');
    assert.equal((await book('key-2', { eta_utc: etaUtc, registration: 'G-EUPU' })).status, 201);
    const full = await problem(await book('key-3', { eta_utc: etaUtc, registration: 'G-EUPV' }), 409, 'slot_full');
    assert.equal(full.slot.remaining, 0);

    const hour = (await json(await get(`${path}?from=${booking.hour}&to=${new Date(Date.parse(booking.hour) + HOUR).toISOString()}`))).data;
    assert.equal(hour.length, 1);
    assert.equal(hour[0].booked, 2);
    assert.equal(hour[0].available, false);
    assert.match(hour[0].reasoning[0], /Set by an admin: 2 arrivals\/h/);

    await problem(await send('DELETE', `${path}/bookings/${booking.id}`, undefined, OTHER), 404, 'booking_not_found');
    assert.equal((await send('DELETE', `${path}/bookings/${booking.id}`, undefined)).status, 204);
    assert.equal((await send('DELETE', `${path}/bookings/${booking.id}`, undefined)).status, 204);
    const freed = await book('key-3', { eta_utc: etaUtc, registration: 'G-EUPV' });
    assert.equal(freed.status, 201);
    assert.equal((await json(freed)).slot.booked, 2);

    const cleared = await json(await send('PUT', `${path}/capacity`, { arrivals_per_hour: null }));
    assert.equal(cleared.override, null);
    const derived = (await json(await get(path))).data[0];
    assert.equal(derived.capacity_source, 'derived');
  });

  test('each API key outside an organisation keeps its own bookings and keys', async () => {
    const etaUtc = eta();
    const mine = await json(await book('shared-key', { eta_utc: etaUtc, registration: 'D-AIBL' }));
    const theirs = await book('shared-key', { eta_utc: etaUtc, registration: 'D-AIBM' }, OTHER);
    assert.equal(theirs.status, 201);
    assert.notEqual((await json(theirs)).id, mine.id);
  });

  test('missing Idempotency-Key, a past ETA or a bad body is a 400 naming the field', async () => {
    const missing = await problem(await book(null, { eta_utc: eta(), registration: 'G-EUPT' }), 400, 'validation_failed');
    assert.deepEqual(missing.errors.map((error: any) => error.path), ['/headers/idempotency-key']);
    const past = await problem(await book('key-past', { eta_utc: new Date(Date.now() - 2 * HOUR).toISOString(), registration: 'G-EUPT' }), 400, 'validation_failed');
    assert.equal(past.errors[0].path, '/body/eta_utc');
    const badRegistration = await problem(await book('key-bad', { eta_utc: eta(), registration: 'G EUPT!' }), 400, 'validation_failed');
    assert.equal(badRegistration.errors[0].path, '/body/registration');
    await problem(await send('PUT', `${path}/capacity`, { arrivals_per_hour: -1 }), 400, 'validation_failed');
    await problem(await send('DELETE', `${path}/bookings/not-a-uuid`, undefined), 400, 'validation_failed');
  });
});
