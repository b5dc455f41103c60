// The AIS stream over real WebSockets against a real server: connecting and authenticating both
// ways, plans and caps, every filter kind and their combinations, the antimeridian, pacing,
// resubscribing, errors, heartbeats and idle connections, shutdown, and the AsyncAPI document.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Parser } from '@asyncapi/parser';
import { pino } from 'pino';
import { openDatabase } from '../../src/platform/db/database.ts';
import { listUsage, utcDay } from '../../src/accounts/keys/usage.ts';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { positionReport, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { imoFromPrefix } from '../../src/maritime/vessels/reference/index.ts';
import { CLOSE_CODES } from '../../src/maritime/stream/protocol.ts';
import { AuthMessageSchema, PositionFrame, SubscribeMessageSchema } from '../../src/maritime/stream/stream.schemas.ts';
import { json } from '../support/http.ts';
import { AUTH, TEST_API_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { organisationKey } from '../support/organisations.ts';
import { TestStream, metric, refusedUpgrade, sleep, upload } from './stream-support.ts';

// Six vessels: a Dutch tanker in the North Sea, a British cargo ship in the Channel, a Panamanian
// cargo ship off Singapore (no IMO number), two Fijian vessels either side of 180°, a US tug off New York.
const A = { mmsi: 244_123_456, imo: imoFromPrefix(907_472), name: 'NORDIC SPIRIT', type: 80, lat: 51.9, lon: 4.0 };
const B = { mmsi: 235_009_876, imo: imoFromPrefix(931_234), name: 'THAMES PRIDE', type: 70, lat: 50.5, lon: -1.0 };
const C = { mmsi: 352_001_234, imo: 0, name: 'LION CITY', type: 70, lat: 1.2, lon: 103.8 };
const D = { mmsi: 520_123_001, imo: imoFromPrefix(950_001), name: 'BULA EAST', type: 60, lat: -17.0, lon: 179.9 };
const E = { mmsi: 520_123_002, imo: imoFromPrefix(950_002), name: 'BULA WEST', type: 30, lat: -17.2, lon: -179.9 };
const F = { mmsi: 366_998_877, imo: imoFromPrefix(960_003), name: 'HUDSON TUG', type: 52, lat: 40.6, lon: -74.0 };
const FLEET = [A, B, C, D, E, F];

const statics = (destination = 'NLRTM') =>
  FLEET.map((v, i) => staticVoyage(v.mmsi, { imo: v.imo, shipname: v.name, shiptype: v.type, callsign: `CALL${i}`, destination }));
const positions = (shift = 0) => FLEET.map((v) => positionReport(v.mmsi, v.lat + shift, v.lon));

const SECRETS = new Set<string>([TEST_API_KEY]);
/** The streams are served on the serving thread, or by stream processes when stream-in-processes.test.ts runs this suite. */
const STREAM_PROCESSES = Number(process.env.LAMIS_TEST_STREAM_PROCESSES ?? 0);
let logs = '';
let server: TestServer;

before(async () => {
  const capture = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk;
      done();
    },
  });
  server = await startTestServer({ logger: pino({ level: 'debug' }, capture), config: { streamProcesses: STREAM_PROCESSES } });
  await upload(server.url, statics());
});
after(() => server.close());

describe('connecting', () => {
  test('a plain GET answers 426 with a problem document', async () => {
    const response = await fetch(`${server.url}/v3/stream/ais`, { headers: AUTH });
    assert.equal(response.status, 426);
    const problem = await json(response);
    assert.equal(problem.code, 'upgrade_required');
    assert.match(problem.detail, /asyncapi\.json/);
  });

  test('with the key in the header the stream is ready at once, and sends nothing before a subscribe', async () => {
    const stream = await TestStream.ready(server.url);
    const ready = stream.of('ready')[0]!.data;
    assert.deepEqual(ready, {
      organisation: null, plan: null, max_streams: null,
      limits: { min_update_interval_sec: 1, default_update_interval_sec: 5, max_update_interval_sec: 3600, max_bboxes: 16, max_list_items: 1000 },
      heartbeat_interval_sec: 30,
    });
    await upload(server.url, positions());
    await sleep(300);
    assert.deepEqual(stream.frames.map((f) => f.event), ['ready']);
    assert.deepEqual(await stream.close(), { code: 1000, reason: '' });
  });

  test('an open stream is not counted as a request in flight (overload shedding counts those)', async () => {
    const streams = await Promise.all([1, 2, 3].map(() => TestStream.ready(server.url)));
    assert.equal(server.app.access.rateLimits.shedder?.inFlight, 0);
    await Promise.all(streams.map((s) => s.close()));
  });

  test('without a header the first message authenticates, and what follows it at once is kept', async () => {
    const stream = new TestStream(server.url);
    await new Promise((resolve) => stream.ws.once('open', resolve));
    stream.send({ type: 'auth', api_key: TEST_API_KEY });
    stream.send({ type: 'subscribe', mmsi: [A.mmsi] });
    await stream.next('ready');
    assert.deepEqual((await stream.next('subscribed')).data.mmsi, [A.mmsi]);
    await upload(server.url, [positionReport(A.mmsi, A.lat, A.lon)]);
    assert.equal((await stream.next('position')).data.mmsi, A.mmsi);
    stream.send({ type: 'auth', api_key: TEST_API_KEY });
    assert.equal((await stream.next('error')).data.code, 'already_authenticated');
    await stream.close();
  });

  test('a bad key in the auth message closes with 4401 and the reason; so does any other first message', async () => {
    const unknown = new TestStream(server.url);
    await new Promise((resolve) => unknown.ws.once('open', resolve));
    unknown.send({ type: 'auth', api_key: 'lamis_live_not_a_real_key_at_all_00000000' });
    const closed = await unknown.closed;
    assert.equal(closed.code, 4401);
    assert.match(closed.reason, /^(malformed|unknown): /);
    SECRETS.add('lamis_live_not_a_real_key_at_all_00000000');

    const early = new TestStream(server.url);
    await new Promise((resolve) => early.ws.once('open', resolve));
    early.send({ type: 'subscribe' });
    const missing = await early.closed;
    assert.equal(missing.code, 4401);
    assert.match(missing.reason, /^missing: /);
    assert.deepEqual(early.frames, []);
  });

  test('no auth message within 5 s closes with 4408', { timeout: 15_000 }, async () => {
    const before = await metric(server.url, 'lamis_stream_closes_total{code="4408"}');
    const started = Date.now();
    const stream = new TestStream(server.url);
    const closed = await stream.closed;
    assert.equal(closed.code, 4408);
    assert.match(closed.reason, /auth timeout/);
    assert.ok(Date.now() - started >= 4900, `closed after ${Date.now() - started} ms`);
    // Counted when the server sees the socket close, a moment after the client does.
    await waitFor(async () => (await metric(server.url, 'lamis_stream_closes_total{code="4408"}')) === before + 1, 'the close counted');
  });

  test('a refused key on the upgrade answers a 401 problem document and no upgrade', async () => {
    const refused = await refusedUpgrade(server.url, { authorization: 'Bearer lamis_live_0000000000000000000000000000000000000' });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'unauthorized');
    assert.ok(['malformed', 'unknown'].includes(refused.body.reason));
    assert.equal(refused.headers['www-authenticate'], 'Bearer realm="LAMIS"');
    assert.ok(refused.body.request_id);
    const badHeader = await refusedUpgrade(server.url, { authorization: 'Token abc' });
    assert.equal(badHeader.body.reason, 'bad_header');
    SECRETS.add('lamis_live_0000000000000000000000000000000000000');
  });
});

describe('plans', () => {
  test('Starter has no streams: 403 before the upgrade, 4403 after an auth message', async () => {
    const starter = await organisationKey(server.config, 'starter');
    SECRETS.add(starter.secret);
    const refused = await refusedUpgrade(server.url, starter.headers);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'stream_not_in_plan');
    const stream = new TestStream(server.url);
    await new Promise((resolve) => stream.ws.once('open', resolve));
    stream.send({ type: 'auth', api_key: starter.secret });
    const closed = await stream.closed;
    assert.equal(closed.code, 4403);
    assert.match(closed.reason, /Starter/);
  });

  test('Pro holds 5 streams: the 6th is refused with 429 or 4429, and a closed one frees its slot', async () => {
    const pro = await organisationKey(server.config, 'pro');
    SECRETS.add(pro.secret);
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await TestStream.ready(server.url, pro.headers));
    const ready = streams[0]!.of('ready')[0]!.data;
    assert.equal(ready.organisation, pro.orgId);
    assert.equal(ready.plan, 'pro');
    assert.equal(ready.max_streams, 5);

    const refused = await refusedUpgrade(server.url, pro.headers);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'stream_limit_reached');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const byMessage = new TestStream(server.url);
    await new Promise((resolve) => byMessage.ws.once('open', resolve));
    byMessage.send({ type: 'auth', api_key: pro.secret });
    assert.equal((await byMessage.closed).code, 4429);

    // The slot is released when the server sees the socket close, a moment after the client does.
    await streams.pop()!.close();
    let sixth: TestStream | number = 429;
    for (let attempt = 0; attempt < 40 && typeof sixth === 'number'; attempt++) {
      sixth = await TestStream.attempt(server.url, pro.headers);
      if (typeof sixth === 'number') await sleep(50);
    }
    assert.ok(typeof sixth !== 'number', `the freed slot was not given out again (${sixth})`);
    await Promise.all([...streams, sixth].map((s) => s.close()));
  });

  test('Enterprise has no cap, and every stream opened counts as used', async () => {
    const enterprise = await organisationKey(server.config, 'enterprise');
    SECRETS.add(enterprise.secret);
    const streams = await Promise.all(Array.from({ length: 8 }, () => TestStream.ready(server.url, enterprise.headers)));
    assert.equal(streams[0]!.of('ready')[0]!.data.max_streams, null);
    await Promise.all(streams.map((s) => s.close()));
    // The meter writes every 10 s; read until the count is there.
    const database = openDatabase(server.config);
    try {
      const day = utcDay(Date.now());
      let streamsUsed = 0;
      const deadline = Date.now() + 15_000;
      while (streamsUsed < 8 && Date.now() < deadline) {
        streamsUsed = (await listUsage(database, enterprise.orgId, day, day)).reduce((sum, row) => sum + row.streams, 0);
        if (streamsUsed < 8) await sleep(250);
      }
      assert.equal(streamsUsed, 8);
    } finally {
      await database.close();
    }
  });
});

describe('filters', () => {
  const northSea = { minLat: 49, maxLat: 56, minLon: -3, maxLon: 6 };
  const cases: [string, Record<string, unknown>, number[]][] = [
    ['a box', { bbox: northSea }, [A.mmsi, B.mmsi]],
    ['several boxes', { bboxes: [{ minLat: 0, maxLat: 2, minLon: 103, maxLon: 105 }, { minLat: 40, maxLat: 41, minLon: -75, maxLon: -73 }] }, [C.mmsi, F.mmsi]],
    ['a box across the antimeridian', { bbox: { minLat: -20, maxLat: -15, minLon: 179, maxLon: -179 } }, [D.mmsi, E.mmsi]],
    ['one vessel type', { vesselTypes: ['CARGO'] }, [B.mmsi, C.mmsi]],
    ['vessel types, either', { vesselTypes: ['TANKER', 'TUG'] }, [A.mmsi, F.mmsi]],
    ['MMSIs', { mmsi: [A.mmsi, D.mmsi] }, [A.mmsi, D.mmsi]],
    ['IMO numbers', { imo: [A.imo, B.imo] }, [A.mmsi, B.mmsi]],
    ['a flag', { flags: ['FJ'] }, [D.mmsi, E.mmsi]],
    ['flags and a type, both', { flags: ['NL', 'GB'], vesselTypes: ['CARGO'] }, [B.mmsi]],
    ['a box and MMSIs, both', { bbox: northSea, mmsi: [A.mmsi, C.mmsi] }, [A.mmsi]],
    ['a box, a flag and a type that never meet', { bbox: northSea, flags: ['FJ'], vesselTypes: ['PASSENGER'] }, []],
    ['nothing: every vessel', {}, FLEET.map((v) => v.mmsi)],
  ];
  const streams: TestStream[] = [];

  before(async () => {
    for (const [, subscription] of cases) streams.push(await TestStream.subscribed(server.url, { ...subscription, updateIntervalSec: 1 }));
    await upload(server.url, positions());
    // Every stream that expects vessels got them all, then a moment for any that should not come.
    await waitFor(() => cases.every(([, , expected], i) => streams[i]!.positionMmsis().length >= expected.length), 'the expected positions');
    await sleep(300);
  });
  after(() => Promise.all(streams.map((s) => s.close())));

  for (const [name, , expected] of cases) {
    test(name, () => {
      const stream = streams[cases.findIndex(([n]) => n === name)]!;
      assert.deepEqual(stream.positionMmsis(), [...expected].sort((a, b) => a - b));
    });
  }

  test('positions carry the vessel\'s static data, flag and category', () => {
    const frame = streams.at(-1)!.of('position').find((f) => f.data.mmsi === A.mmsi)!;
    assert.deepEqual({ ...frame.data, lat: Math.round(frame.data.lat * 1e4) / 1e4, timestamp: typeof frame.data.timestamp }, {
      mmsi: A.mmsi, name: A.name, lat: A.lat, lon: A.lon, imo: A.imo, sog: 12.3, cog: 271.5, heading: 270, nav_status: 0,
      vessel_type: 'TANKER', flag: 'NL', timestamp: 'string', source: 'upload',
    });
    assert.ok(Math.abs(Date.parse(frame.data.timestamp) - frame.at) < 5000);
  });

  test('a change of static or voyage data reaches the streams the vessel passes', async () => {
    await upload(server.url, [staticVoyage(A.mmsi, { imo: A.imo, shipname: A.name, shiptype: A.type, callsign: 'CALL0', destination: 'DEHAM' })]);
    const everything = streams.at(-1)!;
    const frame = await everything.next('static');
    assert.equal(frame.data.mmsi, A.mmsi);
    assert.equal(frame.data.destination, 'DEHAM');
    assert.equal(frame.data.vessel_type, 'TANKER');
    assert.equal(frame.data.ship_type, 80);
    assert.equal((await streams[0]!.next('static')).data.mmsi, A.mmsi);
    await sleep(200);
    const notA = cases.flatMap(([, , expected], i) => (expected.includes(A.mmsi) ? [] : [streams[i]!]));
    for (const stream of notA) assert.deepEqual(stream.of('static'), []);
  });
});

describe('pacing', () => {
  test('one position per vessel per interval, always the latest; other vessels are not held up', { timeout: 20_000 }, async () => {
    const stream = await TestStream.subscribed(server.url, { mmsi: [A.mmsi, B.mmsi], updateIntervalSec: 3 });
    const coalesced = await metric(server.url, 'lamis_stream_updates_coalesced_total');
    for (let step = 1; step <= 4; step++) {
      await upload(server.url, [positionReport(A.mmsi, 52 + step / 100, 4.0)]);
      await sleep(100);
    }
    const first = await stream.next('position');
    assert.equal(first.data.lat.toFixed(2), '52.01');
    // B's first report goes at once, whatever A's pace.
    await upload(server.url, [positionReport(B.mmsi, 50.5, -1.0)]);
    assert.equal((await stream.next('position', 1000)).data.mmsi, B.mmsi);
    const second = await stream.next('position', 5000);
    assert.equal(second.data.mmsi, A.mmsi);
    assert.equal(second.data.lat.toFixed(2), '52.04');
    assert.ok(second.at - first.at >= 2900, `${second.at - first.at} ms apart`);
    await sleep(3300);
    assert.equal(stream.of('position').length, 3, 'nothing more was waiting');
    assert.equal(await metric(server.url, 'lamis_stream_updates_coalesced_total'), coalesced + 2);
    await stream.close();
  });
});

describe('fan-out', () => {
  test('many streams with overlapping boxes: each gets every update of its vessels once, in order per vessel', { timeout: 20_000 }, async () => {
    // Twelve Norwegian vessels on a small grid off the coast, and 24 boxes over parts of it.
    const vessels = Array.from({ length: 12 }, (_, i) => ({ mmsi: 257_000_100 + i, lat: 60 + Math.floor(i / 4) * 0.1, lon: 4 + (i % 4) * 0.1 }));
    const boxes = Array.from({ length: 24 }, (_, k) => {
      const minLat = 59.95 + (k % 3) * 0.1;
      const minLon = 3.95 + (k % 4) * 0.1;
      return { minLat, maxLat: minLat + 0.1 + (k % 2) * 0.1, minLon, maxLon: minLon + 0.1 + Math.floor(k / 12) * 0.2 };
    });
    const inBox = (box: (typeof boxes)[number], v: (typeof vessels)[number]) => v.lat >= box.minLat && v.lat <= box.maxLat && v.lon >= box.minLon && v.lon <= box.maxLon;
    const streams = await Promise.all(boxes.map((bbox) => TestStream.subscribed(server.url, { bbox, updateIntervalSec: 1 })));
    const rounds = 3;
    for (let round = 1; round <= rounds; round++) {
      // Each round one upload, so its positions reach every stream in the same turn; a round later
      // than the interval, so none is held back or replaced.
      await upload(server.url, vessels.map((v) => positionReport(v.mmsi, v.lat + round / 1000, v.lon)));
      await sleep(1100);
    }
    boxes.forEach((box, k) => {
      const expected = vessels.filter((v) => inBox(box, v));
      const received = streams[k]!.of('position');
      assert.ok(expected.length > 0, `box ${k} holds vessels`);
      assert.deepEqual(
        [...new Set(received.map((frame) => frame.data.mmsi as number))].sort((a, b) => a - b),
        expected.map((v) => v.mmsi),
        `box ${k}: its vessels and no other`,
      );
      for (const v of expected) {
        const lats = received.filter((frame) => frame.data.mmsi === v.mmsi).map((frame) => (frame.data.lat as number).toFixed(3));
        assert.deepEqual(lats, Array.from({ length: rounds }, (_, r) => (v.lat + (r + 1) / 1000).toFixed(3)), `box ${k}, vessel ${v.mmsi}: each round once, in order`);
      }
    });
    await Promise.all(streams.map((stream) => stream.close()));
  });
});

describe('resubscribing and errors', () => {
  test('a new subscription replaces the old one and is acknowledged with the effective filter', async () => {
    const stream = await TestStream.subscribed(server.url, { mmsi: [A.mmsi], updateIntervalSec: 1 });
    stream.send({ type: 'subscribe', mmsi: [B.mmsi, B.mmsi], flags: ['GB'] });
    assert.deepEqual((await stream.next('subscribed')).data, { bboxes: [], vesselTypes: [], mmsi: [B.mmsi], imo: [], flags: ['GB'], updateIntervalSec: 5 });
    await upload(server.url, [positionReport(A.mmsi, A.lat, A.lon), positionReport(B.mmsi, B.lat, B.lon)]);
    assert.equal((await stream.next('position')).data.mmsi, B.mmsi);
    await sleep(200);
    assert.deepEqual(stream.positionMmsis(), [B.mmsi]);
    await stream.close();
  });

  test('an invalid subscription gets an error naming the field; the stream and its subscription stay', async () => {
    const stream = await TestStream.subscribed(server.url, { mmsi: [C.mmsi], updateIntervalSec: 1 });
    stream.send({ type: 'subscribe', bbox: { minLat: 10, maxLat: 5, minLon: 0, maxLon: 1 } });
    assert.deepEqual((await stream.next('error')).data, { code: 'invalid_subscription', message: '/bbox/minLat must not exceed maxLat', field: '/bbox/minLat' });
    stream.send({ type: 'subscribe', flags: ['XX'] });
    assert.equal((await stream.next('error')).data.field, '/flags/0');
    stream.send({ type: 'subscribe', updateIntervalSec: 0 });
    assert.equal((await stream.next('error')).data.field, '/updateIntervalSec');
    await upload(server.url, [positionReport(C.mmsi, C.lat, C.lon)]);
    assert.equal((await stream.next('position')).data.mmsi, C.mmsi);
    assert.equal(stream.of('subscribed').length, 1);
    await stream.close();
  });

  test('binary, non-JSON and unknown messages get errors; the fifth closes with 4400', async () => {
    const stream = await TestStream.ready(server.url);
    stream.ws.send(Buffer.from([1, 2, 3]));
    assert.equal((await stream.next('error')).data.code, 'binary_frame');
    stream.ws.send('not json');
    assert.equal((await stream.next('error')).data.code, 'invalid_json');
    stream.send({ type: 'unsubscribe' });
    assert.deepEqual((await stream.next('error')).data, { code: 'unknown_type', message: 'type must be auth, subscribe or heartbeat.', field: '/type' });
    stream.send({ type: 'heartbeat' });
    stream.send([1]);
    stream.send({ type: 'heartbeat', now: 1 });
    const closed = await stream.closed;
    assert.equal(closed.code, 4400);
    assert.match(closed.reason, /protocol error/);
    assert.equal(stream.of('error').length, 5);
  });
});

describe('heartbeats and shutdown', () => {
  let quick: TestServer;
  before(async () => {
    quick = await startTestServer({ config: { streamHeartbeatSec: 1 } });
  });
  after(() => quick.close());

  test('the server sends heartbeats and pings; a client that answers stays open', { timeout: 10_000 }, async () => {
    const stream = await TestStream.ready(quick.url);
    let pings = 0;
    stream.ws.on('ping', () => pings++);
    const first = await stream.next('heartbeat', 2500);
    assert.ok(Math.abs(Date.parse(first.data.time) - first.at) < 2000);
    await sleep(3200);
    assert.ok(stream.of('heartbeat').length >= 3);
    assert.ok(pings >= 3);
    assert.equal(stream.ws.readyState, stream.ws.OPEN);
    await stream.close();
  });

  test('a client that answers no ping and sends nothing is closed with 4408 and counted', { timeout: 10_000 }, async () => {
    const idleBefore = await metric(quick.url, 'lamis_stream_closes_total{code="4408"}');
    const silent = await TestStream.ready(quick.url, AUTH, { autoPong: false });
    // Heartbeat messages alone keep a client that cannot answer pings alive.
    const talking = await TestStream.ready(quick.url, AUTH, { autoPong: false });
    const keepalive = setInterval(() => talking.send({ type: 'heartbeat' }), 400);
    try {
      const closed = await silent.closed;
      assert.equal(closed.code, 4408);
      assert.match(closed.reason, /^idle/);
      assert.equal(talking.ws.readyState, talking.ws.OPEN);
      await waitFor(async () => (await metric(quick.url, 'lamis_stream_closes_total{code="4408"}')) === idleBefore + 1, 'the close counted');
    } finally {
      clearInterval(keepalive);
    }
    await talking.close();
  });

  test('shutting down closes every stream with 1001', async () => {
    const closing = await startTestServer();
    const streams = [await TestStream.subscribed(closing.url, {}), await TestStream.ready(closing.url)];
    await closing.close();
    for (const stream of streams) assert.deepEqual(await stream.closed, { code: 1001, reason: 'server shutting down' });
  });
});

describe('the AsyncAPI document', () => {
  test('is valid AsyncAPI 3 and describes the channel with the protocol\'s own schemas', async () => {
    const document = await json(await fetch(`${server.url}/v3/asyncapi.json`));
    const { document: parsed, diagnostics } = await new Parser().parse(document);
    const problems = diagnostics.filter((d) => d.severity === 0 || d.severity === 1);
    assert.deepEqual(problems.map((d) => `${d.path.join('.')}: ${d.message}`), []);
    assert.ok(parsed);
    assert.equal(document.asyncapi, '3.0.0');
    assert.equal(document.servers.lamis.host, new URL(server.url).host);
    const channel = document.channels.aisStream;
    assert.equal(channel.address, '/v3/stream/ais');
    assert.deepEqual(Object.keys(channel.messages).sort(), ['auth', 'clientHeartbeat', 'error', 'heartbeat', 'position', 'ready', 'static', 'subscribe', 'subscribed']);
    const schemas = document.components.schemas;
    assert.deepEqual(schemas.aisStreamPosition, JSON.parse(JSON.stringify(PositionFrame)));
    assert.deepEqual(schemas.aisStreamSubscribe, JSON.parse(JSON.stringify(SubscribeMessageSchema)));
    assert.deepEqual(schemas.aisStreamAuth, JSON.parse(JSON.stringify(AuthMessageSchema)));
    assert.deepEqual(channel['x-close-codes'].map((c: { code: number }) => c.code), CLOSE_CODES.map((c) => c.code));
    for (const code of [4400, 4401, 4403, 4408, 4429, 4503]) assert.match(channel.description, new RegExp(`\\| ${code} \\|`));
    assert.equal(document.operations.aisStreamSend.action, 'send');
    assert.equal(document.operations.aisStreamReceive.action, 'receive');
    // The channel the parser read has every message.
    assert.equal(parsed.channels().get('aisStream')?.messages().length, 9);
  });

  test('is public and listed in the OpenAPI document; the stream path is not a REST route', async () => {
    assert.equal((await fetch(`${server.url}/v3/asyncapi.json`)).status, 200);
    const openapi = await json(await fetch(`${server.url}/v3/openapi.json`));
    assert.ok(openapi.paths['/v3/asyncapi.json']?.get);
    assert.equal(openapi.paths['/v3/stream/ais'], undefined);
  });
});

describe('keys in logs', () => {
  test('no key that reached the stream appears in the log', () => {
    assert.match(logs, /stream opened/);
    for (const secret of SECRETS) assert.ok(!logs.includes(secret), 'a key is in the log');
  });
});
