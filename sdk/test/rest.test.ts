// The REST client against a real LAMIS server: landing intelligence on the simulated aviation
// inputs, vessels from uploaded NMEA, an organisation's zones and events, the typed errors with their problem documents, rate-limit
// information from a real plan budget, and timeouts and aborts against a loopback server that
// never answers.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  LamisApiError,
  LamisClient,
  LamisConnectionError,
  LamisForbiddenError,
  LamisNotFoundError,
  LamisRateLimitError,
  LamisTimeoutError,
  LamisUnauthorizedError,
  type VesselSummary,
} from '../src/index.ts';
import { EventStore } from '../../src/events/index.ts';
import { openBus } from '../../src/platform/bus/index.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { zoneEntered } from '../../test/support/events.ts';
import { organisationKey as organisationKeyIn } from '../../test/support/organisations.ts';
import { organisationKey, positionLines, startTestServer, staticLines, TEST_API_KEY, validImo, type TestServer } from './support.ts';

let server: TestServer;
let lamis: LamisClient;

const NORDIC = 244_123_456;
const NORDIC_IMO = validImo(907_472);
const THAMES = 235_009_876;
const PACIFIC = 520_123_000;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');

before(async () => {
  server = await startTestServer({ config: { aviationSimulators: 'on' } });
  lamis = new LamisClient({ apiKey: TEST_API_KEY, url: server.url });
  const upload = await lamis.vessels.uploadNmea([
    ...staticLines(NORDIC, { imo: NORDIC_IMO, shipname: 'NORDIC SPIRIT', shiptype: 70 }, 1),
    ...positionLines(NORDIC, 51.95, 4.05),
    ...staticLines(THAMES, { imo: validImo(931_234), shipname: 'THAMES PRIDE', shiptype: 80 }, 2),
    ...positionLines(THAMES, 50.5, -1.0),
    ...positionLines(PACIFIC, -17.0, 179.9),
  ].join('\r\n'));
  assert.equal(upload.data.messages, 5);
});
after(() => server.close());

describe('landing', () => {
  test('answers the typed bundle with its request id', async () => {
    const response = await lamis.landing({ destination_icao: 'EGLL', vehicle_type: 'aircraft', eta_utc: inAnHour(), registration: 'G-EUPT', aircraft_type: 'A320' });
    assert.equal(response.status, 200);
    const bundle = response.data;
    assert.equal(bundle.destination.icao, 'EGLL');
    assert.match(bundle.weather.metar ?? '', /EGLL \d{6}Z/);
    assert.ok(bundle.safety_score >= 0 && bundle.safety_score <= 100);
    assert.equal(bundle.aircraft.profile_source, 'aircraft_type');
    assert.match(bundle.disclaimer, /sole source/);
    assert.match(response.requestId ?? '', /\S/);
    // The instance's operator keys are not counted.
    assert.equal(response.rateLimit?.unlimited, true);
    assert.equal(response.rateLimit?.remaining, null);
  });

  test('a refusal is a LamisApiError carrying the problem document', async () => {
    const error = await lamis.landing({ destination_icao: 'EGLL', vehicle_type: 'vessel', eta_utc: inAnHour(), registration: 'PHXY' }).catch((e) => e);
    assert.ok(error instanceof LamisApiError);
    assert.equal(error.status, 422);
    assert.equal(error.code, 'vehicle_cannot_land');
    assert.equal(error.problem.type, '/problems/vehicle_cannot_land');
    assert.equal(error.problem.instance, '/v3/intelligence/landing');
    assert.equal(error.title, error.problem.title);
    assert.equal(error.detail, error.problem.detail);
    assert.equal(error.requestId, error.problem.request_id);
  });

  test('an unknown airport is a LamisNotFoundError', async () => {
    const error = await lamis.landing({ destination_icao: 'ZZZZ', vehicle_type: 'aircraft', eta_utc: inAnHour(), registration: 'G-EUPT' }).catch((e) => e);
    assert.ok(error instanceof LamisNotFoundError);
    assert.equal(error.code, 'airport_not_found');
  });
});

describe('vessels', () => {
  test('one vessel by MMSI', async () => {
    const { data: vessel } = await lamis.vessels.get(NORDIC);
    assert.equal(vessel.mmsi, NORDIC);
    assert.equal(vessel.name, 'NORDIC SPIRIT');
    assert.equal(vessel.imo, NORDIC_IMO);
    assert.equal(vessel.flag?.alpha2, 'NL');
    assert.equal(vessel.position?.lat, 51.95);
  });

  test('an MMSI nothing was heard from is a LamisNotFoundError', async () => {
    const error = await lamis.vessels.get(211_000_999).catch((e) => e);
    assert.ok(error instanceof LamisNotFoundError);
    assert.equal(error.status, 404);
    assert.equal(error.code, 'vessel_not_found');
    assert.equal(error.problem.instance, '/v3/maritime/vessels/211000999');
  });

  test('search: filters, pages with cursors, and every page in turn', async () => {
    const { data: byName } = await lamis.vessels.search({ name: 'thames' });
    assert.deepEqual(byName.data.map((v) => v.mmsi), [THAMES]);
    // A box across 180° finds the Fijian ship only.
    const { data: pacific } = await lamis.vessels.search({ bbox: '179,-18,-179,-16' });
    assert.deepEqual(pacific.data.map((v) => v.mmsi), [PACIFIC]);

    const first = await lamis.vessels.search({ limit: 2 });
    assert.equal(first.data.data.length, 2);
    assert.ok(first.data.next_cursor);
    const all: VesselSummary[] = [];
    for await (const vessel of lamis.vessels.searchAll({ limit: 1 })) all.push(vessel);
    assert.deepEqual(all.map((v) => v.mmsi), [THAMES, NORDIC, PACIFIC].sort((a, b) => a - b));
  });

  test('a malformed query is a 400 naming the field', async () => {
    const error = await lamis.vessels.search({ imo: '1234568' }).catch((e) => e);
    assert.ok(error instanceof LamisApiError);
    assert.equal(error.status, 400);
    assert.ok(error.fieldErrors.length > 0 || /imo/i.test(error.detail), JSON.stringify(error.problem));
  });

  test('a track as points and as a GeoJSON Feature', async () => {
    const track = await lamis.vessels.track(NORDIC);
    assert.equal(track.data.mmsi, NORDIC);
    assert.ok(track.data.points.length >= 1);
    assert.equal(track.data.points[0]!.lat, 51.95);
    const feature = await lamis.vessels.trackFeature(NORDIC, { from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' });
    assert.equal(feature.data.type, 'Feature');
    assert.equal(feature.data.geometry, null);
    assert.equal(feature.data.properties.mmsi, NORDIC);
  });

  test('any operation through request(), typed by its METHOD /path', async () => {
    const { data: airport } = await lamis.request('GET /v3/aviation/airports/{icao}', { path: { icao: 'EGLL' } });
    assert.match(airport.name, /Heathrow/);
    // Header parameters and a body, and an answer without content (204).
    const booking = { path: { icao: 'EGLL' }, headers: { 'idempotency-key': 'sdk-booking-1' }, body: { eta_utc: inAnHour(), registration: 'G-EUPT' } };
    const booked = await lamis.request('POST /v3/aviation/airports/{icao}/slots/bookings', booking);
    assert.equal(booked.status, 201);
    assert.equal(booked.data.status, 'booked');
    assert.equal((await lamis.request('POST /v3/aviation/airports/{icao}/slots/bookings', booking)).data.id, booked.data.id);
    const cancelled = await lamis.request('DELETE /v3/aviation/airports/{icao}/slots/bookings/{id}', { path: { icao: 'EGLL', id: booked.data.id } });
    assert.equal(cancelled.status, 204);
    assert.equal(cancelled.data, undefined);
    const { data: flags } = await lamis.vessels.flags();
    assert.deepEqual(flags.data.find((flag) => flag.mid === 244), { mid: 244, alpha2: 'NL', country: 'Netherlands' });
  });
});

describe('events and zones', () => {
  test('zones are made, read page by page, changed and removed', async () => {
    const key = await organisationKeyIn(server.config, 'pro');
    const client = new LamisClient({ apiKey: key.secret, url: server.url });
    const circle = { type: 'Circle' as const, center: { lat: 50.8, lon: -1.3 }, radius_nm: 5 };
    const made = [];
    for (const name of ['Solent', 'Nab', 'Needles']) made.push((await client.zones.create({ name, geometry: circle })).data);
    assert.equal((await client.zones.get(made[0]!.id)).data.name, 'Solent');
    const listed = [];
    for await (const zone of client.zones.listAll({ limit: 1 })) listed.push(zone.id);
    assert.deepEqual(listed.sort(), made.map((zone) => zone.id).sort());
    assert.equal((await client.zones.update(made[1]!.id, { name: 'Nab Tower' })).data.name, 'Nab Tower');
    assert.equal((await client.zones.delete(made[2]!.id)).status, 204);
    const gone = await client.zones.get(made[2]!.id).catch((error) => error);
    assert.ok(gone instanceof LamisNotFoundError);
    assert.equal(gone.code, 'zone_not_found');
  });

  test('events are listed, filtered, read and acknowledged', async () => {
    const key = await organisationKeyIn(server.config, 'pro');
    const database = openDatabase(server.config);
    const bus = await openBus({ redisUrl: undefined }, (error) => assert.fail(String(error)));
    try {
      const store = new EventStore(database, bus);
      const opened = [];
      for (const mmsi of [235_300_001, 235_300_002, 235_300_003]) opened.push((await store.open(key.orgId, zoneEntered(mmsi))).event);
      await store.clear(key.orgId, opened[0]!.id);
      const client = new LamisClient({ apiKey: key.secret, url: server.url });
      const all = [];
      for await (const event of client.events.listAll({ limit: 2 })) all.push(event.id);
      assert.deepEqual(all.sort(), opened.map((event) => event.id).sort());
      const open = await client.events.list({ state: 'open', kind: 'vessel.zone_entered' });
      assert.equal(open.data.data.length, 2);
      const acknowledged = await client.events.acknowledge(opened[1]!.id);
      assert.match(acknowledged.data.acknowledged_at ?? '', /^\d{4}-/);
      assert.equal((await client.events.get(opened[1]!.id)).data.acknowledged_at, acknowledged.data.acknowledged_at);
      // Another organisation's event is not found, exactly as one that does not exist.
      const other = await lamis.events.get(opened[1]!.id).catch((error) => error);
      assert.ok(other instanceof LamisNotFoundError);
    } finally {
      await bus.close();
      await database.close();
    }
  });
});

describe('errors and rate limits', () => {
  test('a refused key is a LamisUnauthorizedError with the reason', async () => {
    const stranger = new LamisClient({ apiKey: 'lamis_live_00000000000000000000000000000000abcdef', url: server.url });
    const error = await stranger.vessels.get(NORDIC).catch((e) => e);
    assert.ok(error instanceof LamisUnauthorizedError);
    assert.equal(error.status, 401);
    assert.equal(error.code, 'unauthorized');
    assert.equal(error.reason, 'malformed');
  });

  test('an operator route with an organisation key is a LamisForbiddenError', async () => {
    const organisation = new LamisClient({ apiKey: await organisationKey(server, 'enterprise'), url: server.url });
    const error = await organisation
      .request('PUT /v3/aviation/airports/{icao}/slots/capacity', { path: { icao: 'EGLL' }, body: { arrivals_per_hour: 10 } })
      .catch((e) => e);
    assert.ok(error instanceof LamisForbiddenError, String(error));
    assert.equal(error.code, 'forbidden');
  });

  test('every answer reports the rate limit; over the budget a LamisRateLimitError says when to retry', { timeout: 60_000 }, async () => {
    // A Starter production key: 100 requests a minute for the organisation. (A development key
    // would need fewer requests, but is the first to be shed when the machine is loaded.)
    const limited = new LamisClient({ apiKey: await organisationKey(server, 'starter'), url: server.url });
    const first = await limited.vessels.get(NORDIC);
    assert.deepEqual({ ...first.rateLimit, resetSec: undefined }, {
      policy: 'organisation', unlimited: false, limit: 100, windowSec: 60, remaining: 99, resetSec: undefined, retryAfterSec: null,
    });
    assert.ok(first.rateLimit!.resetSec! > 0 && first.rateLimit!.resetSec! <= 60);
    for (let i = 2; i <= 100; i++) assert.equal((await limited.vessels.get(NORDIC)).rateLimit?.remaining, 100 - i);

    const error = await limited.vessels.get(NORDIC).catch((e) => e);
    assert.ok(error instanceof LamisRateLimitError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'rate_limited');
    assert.ok(error.retryAfterSec! > 0 && error.retryAfterSec! <= 60);
    assert.equal(error.rateLimit?.remaining, 0);
    assert.equal(error.rateLimit?.retryAfterSec, error.retryAfterSec);
    assert.equal(error.problem.retry_after, error.retryAfterSec);
  });
});

describe('timeouts, aborts and unreachable servers', () => {
  // A loopback server that takes requests and never answers them.
  let silent: http.Server;
  let silentUrl: string;
  before(async () => {
    silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  after(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  test('a request that takes longer than its timeout is a LamisTimeoutError', async () => {
    const client = new LamisClient({ apiKey: TEST_API_KEY, url: silentUrl, timeoutMs: 150 });
    const started = Date.now();
    const error = await client.vessels.get(NORDIC).catch((e) => e);
    assert.ok(error instanceof LamisTimeoutError, String(error));
    assert.equal(error.timeoutMs, 150);
    assert.ok(Date.now() - started < 2000);
    // The timeout of one call can be set apart from the client's.
    const longer = await client.vessels.get(NORDIC, { timeoutMs: 300 }).catch((e) => e);
    assert.equal(longer.timeoutMs, 300);
  });

  test('aborting the signal rejects with its reason', async () => {
    const client = new LamisClient({ apiKey: TEST_API_KEY, url: silentUrl });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await client.vessels.get(NORDIC, { signal: controller.signal }).catch((e) => e);
    assert.equal(error.name, 'AbortError');
    const reason = new Error('the user went away');
    const error2 = await client.vessels.get(NORDIC, { signal: AbortSignal.abort(reason) }).catch((e) => e);
    assert.equal(error2, reason);
  });

  test('a server that is not there is a LamisConnectionError', async () => {
    const gone = http.createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
    await new Promise((resolve) => gone.close(resolve));
    const error = await new LamisClient({ apiKey: TEST_API_KEY, url }).vessels.get(NORDIC).catch((e) => e);
    assert.ok(error instanceof LamisConnectionError, String(error));
    assert.match(error.message, /ECONNREFUSED/);
  });

  test('an error page that is not a problem document still becomes a LamisApiError', async () => {
    const proxy = http.createServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const error = await new LamisClient({ apiKey: TEST_API_KEY, url }).vessels.get(NORDIC).catch((e) => e);
      assert.ok(error instanceof LamisApiError);
      assert.equal(error.status, 502);
      assert.equal(error.code, 'http_502');
      assert.equal(error.problem.type, 'about:blank');
      assert.match(error.detail, /Bad Gateway/);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
