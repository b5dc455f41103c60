// Ingest overload sheds development keys, on a real server with AIS ingest on its own thread and a
// real loopback TCP feed. The serving thread is held busy (a probe route) while a burst of position
// reports arrives, so more than a full batch waits for it and ingest coalesces positions, as it
// does when the serving thread cannot keep up. From then on development-key requests get 503
// `overloaded` (reason `ingest`) and their streams are refused at the upgrade (503) or the auth
// message (1013), and once the overload has lasted LAMIS_OVERLOAD_STREAM_CLOSE_SEC (1 s here) an open
// development stream is closed with 1013; a production key, its stream, /healthz and /readyz are
// served throughout. Once ingest has been calm for the shedder's calm time (5 s), development keys
// are served again.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { parseFeedSpec } from '../../src/maritime/feeds/spec.ts';
import { positionReport, sentences } from '../../src/maritime/vessels/fixtures.ts';
import { json } from '../support/http.ts';
import { organisationKey, type OrganisationKey } from '../support/organisations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { TestStream, metric, refusedUpgrade, sleep } from './stream-support.ts';

const VESSELS = 2_000;
/** Rounds of one report per vessel: 12,000 rows, more than two full batches (5,000 rows each). */
const ROUNDS = 6;
const STALL_MS = 2_000;

let server: TestServer;
let production: OrganisationKey;
let development: OrganisationKey;

before(async () => {
  server = await startTestServer({
    config: { aisFeeds: [parseFeedSpec('tcp-listen://127.0.0.1:0')], aisIngestThread: 'on', overloadStreamCloseSec: 1 },
    beforeListen(app) {
      // Answers, then holds the serving thread: nothing it has to do (applying ingest's batches
      // among it) gets a turn meanwhile.
      app.post('/v3/probe/stall', { config: { public: true } }, async (_request, reply) => {
        await reply.send({ stalling_ms: STALL_MS });
        setImmediate(() => {
          const until = performance.now() + STALL_MS;
          while (performance.now() < until);
        });
      });
    },
  });
  production = await organisationKey(server.config, 'pro');
  development = await organisationKey(server.config, 'pro', { environment: 'development', orgId: production.orgId });
});
after(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
const readiness = async () => (await json(await get('/readyz'))) as { status: string; checks: Record<string, { state: string; detail: any }> };

async function feedSocket(): Promise<Socket> {
  // The feed starts listening after the service does, and ingest reports it a moment later.
  let port = 0;
  await waitFor(async () => {
    const { checks } = await readiness();
    port = Number(/:(\d+)$/.exec(checks.ais!.detail.feeds[0].detail ?? '')?.[1] ?? 0);
    return port > 0;
  }, 'the feed to listen', 5_000);
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

/**
 * Holds the serving thread while a burst of position reports arrives, until ingest has coalesced:
 * on a loaded machine the burst may not all be decoded within one hold, so it tries again.
 */
async function overloadIngest(): Promise<void> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    const socket = await feedSocket();
    const lines: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (let v = 0; v < VESSELS; v++) lines.push(...sentences(positionReport(244_100_000 + v, 40 + attempt + round / 100, 3 + v / 1000)));
    }
    // The answer comes before the hold: the burst arrives while the serving thread is held.
    await (await fetch(`${server.url}/v3/probe/stall`, { method: 'POST' })).arrayBuffer();
    socket.end(`${lines.join('\r\n')}\r\n`);
    try {
      await waitFor(async () => (await metric(server.url, 'lamis_ais_positions_coalesced_total')) > 0, 'ingest to coalesce positions', 5_000);
      return;
    } catch {
      // Not this time: the serving thread kept up after all.
    }
  }
  throw new Error(`ingest never coalesced: ${JSON.stringify((await readiness()).checks.ais!.detail.ingest)}`);
}

/** A development stream authenticating with its first message: how it closes. */
async function authMessageClose() {
  const stream = new TestStream(server.url);
  await new Promise((resolve) => stream.ws.once('open', resolve));
  stream.send({ type: 'auth', api_key: development.secret });
  return stream.closed;
}

test('under ingest overload development keys are shed with the reason, production keys and /healthz are served, and shedding ends once ingest catches up', { timeout: 60_000 }, async () => {
  // Before: every key is served, nothing is overloaded.
  assert.equal((await get('/v3/maritime/vessels?limit=1', development.headers)).status, 200);
  await (await TestStream.ready(server.url, development.headers)).close();
  assert.equal((await readiness()).checks.load!.state, 'up');
  const everywhere = { bbox: { minLat: -90, maxLat: 90, minLon: -180, maxLon: 180 }, updateIntervalSec: 1 };
  const openDevelopment = await TestStream.subscribed(server.url, everywhere, development.headers);
  const openProduction = await TestStream.subscribed(server.url, everywhere, production.headers);

  await overloadIngest();
  const coalescedAt = Date.now();
  // Requests read what the shedder's last look found: it looks every quarter of a second.
  await waitFor(async () => (await readiness()).checks.load!.state === 'degraded', 'the shedder to see the overload', 2_000);

  // Shed: a development key's request, and its stream at the upgrade and at the auth message.
  const refused = await get('/v3/maritime/vessels?limit=1', development.headers);
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get('retry-after'), '5');
  const problem = await json(refused);
  assert.deepEqual([problem.code, problem.reason], ['overloaded', 'ingest']);
  assert.match(problem.detail, /AIS ingest is behind/);
  const upgrade = await refusedUpgrade(server.url, development.headers);
  assert.equal(upgrade.status, 503);
  assert.equal(upgrade.headers['retry-after'], '5');
  assert.deepEqual([upgrade.body.code, upgrade.body.reason], ['overloaded', 'ingest']);
  const closed = await authMessageClose();
  assert.equal(closed.code, 1013);
  assert.match(closed.reason, /^overloaded: ingest: /);
  // The overload lasts: the development stream that was open is closed, the production one stays.
  const shedOpen = await openDevelopment.closed;
  assert.equal(shedOpen.code, 1013);
  assert.match(shedOpen.reason, /^overloaded: ingest: /);
  assert.ok(Date.now() - coalescedAt >= 900, 'closed only once the overload had lasted');
  assert.equal(openProduction.ws.readyState, openProduction.ws.OPEN);
  assert.ok(openProduction.of('position').length > 0, 'the production stream got the positions');

  // Served: a production key's request and stream, /healthz, and /readyz, which tells why.
  const served = await get('/v3/maritime/vessels?limit=1', production.headers);
  assert.equal(served.status, 200);
  await served.arrayBuffer();
  await (await TestStream.ready(server.url, production.headers)).close();
  assert.deepEqual(await json(await get('/healthz')), { status: 'ok' });
  const ready = await readiness();
  assert.equal(ready.status, 'ready', 'an overloaded instance still serves');
  const load = ready.checks.load!;
  assert.equal(load.state, 'degraded');
  assert.deepEqual(load.detail.reasons, ['ingest']);
  assert.equal(load.detail.signals.ingest.overloaded, true);
  assert.ok(load.detail.signals.ingest.coalesced > 0);
  assert.equal(await metric(server.url, 'lamis_overloaded{reason="ingest"}'), 1);
  assert.equal(await metric(server.url, 'lamis_shed_total{what="request",reason="ingest"}'), 1);
  assert.equal(await metric(server.url, 'lamis_shed_total{what="stream",reason="ingest"}'), 2);
  assert.equal(await metric(server.url, 'lamis_shed_total{what="open_stream",reason="ingest"}'), 1);
  assert.equal(await metric(server.url, 'lamis_stream_refusals_total{reason="overloaded"}'), 2);
  assert.equal(await metric(server.url, 'lamis_stream_closes_total{code="1013"}'), 2);

  // Ingest catches up (nothing more arrives); after the calm time development keys are served again.
  let status = 503;
  while (status === 503 && Date.now() - coalescedAt < 20_000) {
    await sleep(100);
    const response = await get('/v3/maritime/vessels?limit=1', development.headers);
    await response.arrayBuffer();
    status = response.status;
  }
  assert.equal(status, 200, 'development keys are served again');
  assert.ok(Date.now() - coalescedAt >= 4_500, `shedding held for the calm time (${Date.now() - coalescedAt} ms), not a flap`);
  await (await TestStream.ready(server.url, development.headers)).close();
  assert.equal((await readiness()).checks.load!.state, 'up');
  assert.equal(await metric(server.url, 'lamis_overloaded{reason="ingest"}'), 0);
  await openProduction.close();
});
