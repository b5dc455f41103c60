// The stream client against a real LAMIS server: the key in the header (Node) and in an auth
// message (a browser's WebSocket), filters and positions from uploaded NMEA, refused
// subscriptions, entitlement refusals, and reconnecting after the server really went away: a
// restart on the same port, a connection dropped without a close frame, a link gone silent.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  LamisApiError,
  LamisClient,
  LamisForbiddenError,
  LamisRateLimitError,
  LamisStreamClosedError,
  LamisStreamError,
  LamisUnauthorizedError,
  StreamClient,
  type CloseInfo,
  type PositionUpdate,
  type ReconnectingInfo,
  type StreamClientOptions,
  type StreamEvents,
} from '../src/index.ts';
import {
  organisationKey,
  positionLines,
  startTcpProxy,
  startTestServer,
  staticLines,
  TEST_API_KEY,
  validImo,
  waitFor,
  type TestServer,
} from './support.ts';

const NORDIC = 244_123_456;
const THAMES = 235_009_876;
const ROTTERDAM = { minLat: 51, maxLat: 53, minLon: 3, maxLon: 5 };

/** The next `event` (matching `accept`), or a rejection after `timeoutMs`. */
function next<E extends keyof StreamEvents>(
  stream: StreamClient, event: E, accept: (payload: StreamEvents[E]) => boolean = () => true, timeoutMs = 10_000,
): Promise<StreamEvents[E]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = stream.on(event, (payload) => {
      if (!accept(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

/** Every payload of `event` from now on. */
function record<E extends keyof StreamEvents>(stream: StreamClient, event: E): StreamEvents[E][] {
  const seen: StreamEvents[E][] = [];
  stream.on(event, (payload) => seen.push(payload));
  return seen;
}

const streams: StreamClient[] = [];
function streamClient(options: StreamClientOptions): StreamClient {
  const stream = new StreamClient(options);
  streams.push(stream);
  return stream;
}
after(() => Promise.all(streams.map((stream) => stream.close())));

describe('on one server', () => {
  let server: TestServer;
  let rest: LamisClient;
  const upload = async (lines: string[]) => {
    const { data } = await rest.vessels.uploadNmea(lines.join('\n'));
    assert.equal(data.rejected.checksum + data.rejected.framing + data.rejected.invalid_payload, 0);
  };

  before(async () => {
    server = await startTestServer({ config: { streamHeartbeatSec: 1 } });
    rest = new LamisClient({ apiKey: TEST_API_KEY, url: server.url });
  });
  after(() => server.close());

  test('the key in the header: ready, subscribed, positions in the box only, static data, heartbeats', async () => {
    const stream = streamClient({ apiKey: TEST_API_KEY, url: server.url });
    const opened = record(stream, 'open');
    const positions = record(stream, 'position');
    const filter = await stream.subscribe({ bbox: ROTTERDAM, updateIntervalSec: 1 });
    assert.equal(stream.state, 'ready');
    assert.equal(opened.length, 1);
    assert.deepEqual(filter, { bboxes: [ROTTERDAM], vesselTypes: [], mmsi: [], imo: [], flags: [], updateIntervalSec: 1 });
    assert.deepEqual(stream.filter, filter);
    assert.equal(stream.readyInfo?.organisation, null);
    assert.equal(stream.readyInfo?.heartbeat_interval_sec, 1);

    const inside = next(stream, 'position', (data) => data.mmsi === NORDIC);
    await upload([...positionLines(THAMES, 50.5, -1.0), ...positionLines(NORDIC, 51.95, 4.05)]);
    const position = await inside;
    assert.equal(position.lat, 51.95);
    assert.equal(position.lon, 4.05);
    assert.equal(position.flag, 'NL');
    assert.equal(position.timestamp.length > 0, true);

    // A vessel in the box sends its name: a static frame.
    const staticFrame = next(stream, 'static', (data) => data.mmsi === NORDIC);
    await upload(staticLines(NORDIC, { imo: validImo(907_472), shipname: 'NORDIC SPIRIT', shiptype: 70 }));
    const update = await staticFrame;
    assert.equal(update.name, 'NORDIC SPIRIT');
    assert.equal(update.vessel_type, 'CARGO');
    await next(stream, 'heartbeat');
    assert.deepEqual(positions.map((p) => p.mmsi).filter((mmsi) => mmsi === THAMES), [], 'nothing from outside the box');

    const closes = record(stream, 'close');
    await stream.close();
    assert.equal(stream.state, 'closed');
    assert.deepEqual(closes, [{ code: 1000, reason: 'closed by the client', reconnecting: false }]);
    await assert.rejects(stream.subscribe({}), LamisStreamClosedError);
  });

  test('an invalid subscription is refused naming the field, and the one in force stays', async () => {
    const stream = streamClient({ apiKey: TEST_API_KEY, url: server.url });
    const kept = await stream.subscribe({ mmsi: [NORDIC], updateIntervalSec: 1 });
    const errors = record(stream, 'error');
    const refusal = await stream.subscribe({ bbox: { minLat: 10, maxLat: 5, minLon: 0, maxLon: 1 } }).catch((e) => e);
    assert.ok(refusal instanceof LamisStreamError, String(refusal));
    assert.equal(refusal.code, 'invalid_subscription');
    assert.equal(refusal.field, '/bbox/minLat');
    assert.deepEqual(errors.map((e) => e.field), ['/bbox/minLat']);
    assert.deepEqual(stream.filter, kept);

    const position = next(stream, 'position', (data) => data.mmsi === NORDIC);
    await upload(positionLines(NORDIC, 51.9, 4.1));
    assert.equal((await position).lat, 51.9);
    await stream.close();
  });

  test('a browser WebSocket cannot send headers: the key goes in an auth message', async () => {
    const stream = streamClient({ apiKey: TEST_API_KEY, url: server.url, WebSocket: globalThis.WebSocket });
    await stream.subscribe({ mmsi: [THAMES], updateIntervalSec: 1 });
    assert.equal(stream.readyInfo?.heartbeat_interval_sec, 1);
    const position = next(stream, 'position', (data) => data.mmsi === THAMES);
    await upload(positionLines(THAMES, 50.6, -1.1));
    assert.equal((await position).lat, 50.6);
    await stream.close();
  });

  test('a refused key ends the stream for good: the problem document at the upgrade, 4401 after an auth message', async () => {
    const apiKey = 'lamis_live_00000000000000000000000000000000abcdef';
    const header = streamClient({ apiKey, url: server.url });
    const reconnects = record(header, 'reconnecting');
    const closes = record(header, 'close');
    const error = await header.connect().catch((e) => e);
    assert.ok(error instanceof LamisUnauthorizedError, String(error));
    assert.equal(error.reason, 'malformed');
    assert.equal(error.problem.code, 'unauthorized');
    assert.equal(header.state, 'closed');
    assert.equal(closes.length, 1);
    assert.equal(closes[0]!.reconnecting, false);
    assert.equal(closes[0]!.error, error);

    const message = streamClient({ apiKey, url: server.url, WebSocket: globalThis.WebSocket });
    const closed = await message.subscribe({}).catch((e) => e);
    assert.ok(closed instanceof LamisStreamClosedError, String(closed));
    assert.equal(closed.code, 4401);
    assert.match(closed.reason, /^malformed/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(reconnects, []);
    assert.equal(message.state, 'closed');
  });

  test('Starter has no streams: 403 at the upgrade, and no reconnecting', async () => {
    const stream = streamClient({ apiKey: await organisationKey(server, 'starter'), url: server.url });
    const error = await stream.connect().catch((e) => e);
    assert.ok(error instanceof LamisForbiddenError, String(error));
    assert.equal(error.code, 'stream_not_in_plan');
    assert.equal(stream.state, 'closed');
  });

  test('Pro holds five streams: a sixth waits with a long backoff, and gets in once one closes', { timeout: 60_000 }, async () => {
    const apiKey = await organisationKey(server, 'pro');
    const five = Array.from({ length: 5 }, () => streamClient({ apiKey, url: server.url }));
    const ready = await Promise.all(five.map((stream) => stream.connect()));
    assert.deepEqual(ready.map((info) => [info.plan, info.max_streams]), Array(5).fill(['pro', 5]));

    // At the upgrade: 429 with Retry-After, which the client honours.
    const sixth = streamClient({ apiKey, url: server.url });
    const waiting = next(sixth, 'reconnecting');
    const refused = next(sixth, 'close');
    void sixth.connect().catch(() => {});
    const close = await refused;
    assert.ok(close.error instanceof LamisRateLimitError, String(close.error));
    assert.equal(close.error.code, 'stream_limit_reached');
    assert.equal(close.reconnecting, true);
    assert.ok((await waiting).delayMs >= close.error.retryAfterSec! * 1000);
    await sixth.close();

    // After an auth message: 4429, and at least the client's long backoff before each try.
    const browser = streamClient({ apiKey, url: server.url, WebSocket: globalThis.WebSocket, reconnect: { initialDelayMs: 10, capDelayMs: 400 } });
    const tries = record(browser, 'reconnecting');
    const admitted = browser.connect();
    await waitFor(() => tries.length >= 1, 'a first refusal', 10_000);
    assert.equal(tries[0]!.code, 4429);
    assert.ok(tries[0]!.delayMs >= 400);
    await five[0]!.close();
    assert.equal((await admitted).plan, 'pro');
  });
});

describe('reconnecting', () => {
  test('after a restart on the same port: backoff with jitter, then the last filters again', { timeout: 60_000 }, async () => {
    let server = await startTestServer({ config: { streamHeartbeatSec: 1 } });
    const port = Number(new URL(server.url).port);
    try {
      const stream = streamClient({ apiKey: TEST_API_KEY, url: server.url, reconnect: { initialDelayMs: 100, maxDelayMs: 400 } });
      const closes: CloseInfo[] = record(stream, 'close');
      const tries: ReconnectingInfo[] = record(stream, 'reconnecting');
      const readies = record(stream, 'ready');
      const first = await stream.subscribe({ mmsi: [NORDIC], flags: ['NL'], updateIntervalSec: 1 });

      await server.close();
      await waitFor(() => tries.length >= 3, 'three tries while the server is down', 10_000);
      assert.equal(closes[0]!.code, 1001);
      assert.equal(closes[0]!.reconnecting, true);
      // Each delay lies between half and all of its doubling base, capped at maxDelayMs.
      tries.slice(0, 3).forEach((attempt, i) => {
        const base = Math.min(400, 100 * 2 ** i);
        assert.equal(attempt.attempt, i + 1);
        assert.ok(attempt.delayMs >= base / 2 && attempt.delayMs <= base, `try ${i + 1}: ${attempt.delayMs} ms`);
      });

      server = await startTestServer({ config: { streamHeartbeatSec: 1, port } });
      const again = await next(stream, 'subscribed');
      assert.deepEqual(again, first);
      assert.equal(readies.length, 2);
      const position = next(stream, 'position', (data: PositionUpdate) => data.mmsi === NORDIC);
      await new LamisClient({ apiKey: TEST_API_KEY, url: server.url }).vessels.uploadNmea(positionLines(NORDIC, 52, 4).join('\n'));
      assert.equal((await position).lat, 52);
      await stream.close();
    } finally {
      await server.close();
    }
  });

  describe('through a proxy that fails', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ config: { streamHeartbeatSec: 1 } });
    });
    after(() => server.close());

    test('a connection dropped without a close frame is made again and subscribed again', async () => {
      const proxy = await startTcpProxy(server.url);
      try {
        const stream = streamClient({ apiKey: TEST_API_KEY, url: proxy.url, reconnect: { initialDelayMs: 50 } });
        await stream.subscribe({ vesselTypes: ['TANKER'], updateIntervalSec: 2 });
        const closed = next(stream, 'close');
        const resubscribed = next(stream, 'subscribed');
        proxy.cut();
        assert.equal((await closed).code, 1006);
        assert.deepEqual((await resubscribed).vesselTypes, ['TANKER']);
        assert.equal(proxy.connections, 2);
        await stream.close();
      } finally {
        await proxy.close();
      }
    });

    test('a link that goes silent is taken for dead after three heartbeat intervals and replaced', async () => {
      const proxy = await startTcpProxy(server.url);
      try {
        const stream = streamClient({ apiKey: TEST_API_KEY, url: proxy.url, reconnect: { initialDelayMs: 50 } });
        await stream.subscribe({});
        const closed = next(stream, 'close');
        const readyAgain = next(stream, 'ready');
        const started = Date.now();
        proxy.blackhole();
        const close = await closed;
        assert.equal(close.code, 4408);
        assert.equal(close.reconnecting, true);
        const silentFor = Date.now() - started;
        assert.ok(silentFor >= 2000 && silentFor < 6000, `${silentFor} ms`);
        await readyAgain;
        assert.equal(proxy.connections, 2);
        await stream.close();
      } finally {
        await proxy.close();
      }
    });
  });

  test('an overloaded instance refusing the upgrade (503 with Retry-After) is tried again no sooner than it said', async () => {
    // A loopback HTTP server answering every upgrade as an overloaded LAMIS instance does.
    const refusing = createServer();
    refusing.on('upgrade', (_request, socket) => {
      const body = JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, code: 'overloaded', reason: 'ingest', detail: 'AIS ingest is behind' });
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nRetry-After: 2\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const stream = streamClient({ apiKey: TEST_API_KEY, url: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`, reconnect: { initialDelayMs: 10 } });
      const waiting = next(stream, 'reconnecting');
      const refused = next(stream, 'close');
      void stream.connect().catch(() => {});
      const close = await refused;
      assert.ok(close.error instanceof LamisApiError, String(close.error));
      assert.deepEqual([close.error.status, close.error.code, close.error.retryAfterSec], [503, 'overloaded', 2]);
      assert.equal(close.reconnecting, true);
      assert.ok((await waiting).delayMs >= 2_000, 'the Retry-After, not the 10 ms backoff');
      await stream.close();
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  test('close() while connecting rejects what waits and leaves nothing running', async () => {
    const server = await startTestServer();
    try {
      const stream = streamClient({ apiKey: TEST_API_KEY, url: server.url });
      const subscribing = stream.subscribe({});
      await stream.close();
      await assert.rejects(subscribing, LamisStreamClosedError);
      assert.equal(stream.state, 'closed');
    } finally {
      await server.close();
    }
  });
});
