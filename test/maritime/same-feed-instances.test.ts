// Two instances on one PostgreSQL and one bus server (NATS, and Redis), both reading the same AIS
// feed: a loopback NMEA source sends each of them the same lines, which each stamps with its own
// receive time, as two instances connected to one receiver would. An organisation's fleet vessel
// sails into its zone, on into Rotterdam, moors and leaves. Each stream, on either instance, gets
// each position once; storage holds one port call; each event is raised once and its webhook
// delivered once, whichever instance got there first.
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { parseFeedSpec } from '../../src/maritime/feeds/spec.ts';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { freshPostgresSchema, natsUrl, postgresUrl, redisUrl, skipNats, skipPostgres, skipRedis } from '../support/backends.ts';
import { json } from '../support/http.ts';
import { organisationKey, type OrganisationKey } from '../support/organisations.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { TestStream, sleep } from './stream-support.ts';

const ROTTERDAM = { lat: 51.9, lon: 4.4833 };
const ZONE_CENTRE = { lat: 52.05, lon: 3.8 };
const WEST_OF_ZONE = { lat: 52.05, lon: 3.6 };
const KINDS = ['vessel.zone_entered', 'vessel.zone_exited', 'vessel.port_arrival', 'vessel.port_departure'];
/** Longer than the streams' update interval (1 s), so no position is coalesced with the next. */
const STEP_MS = 1300;

const engines = [
  { name: 'NATS', skip: skipNats || skipPostgres, config: { natsUrl } },
  { name: 'Redis', skip: skipRedis || skipPostgres, config: { redisUrl } },
];

/** An NMEA source on a loopback port: every line sent goes to every connection, as a receiver's TCP server does. */
async function nmeaSource(): Promise<{ port: number; connections: () => number; send(lines: string[]): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => sockets.size,
    send(lines) {
      const text = lines.map((line) => `${line}\r\n`).join('');
      for (const socket of sockets) socket.write(text);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function dataDirWithRotterdam(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-same-feed-'));
  await saveImport(dataDir, 'wpi', 'test rows', [wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', ...ROTTERDAM, harbour_size: 'large' })]);
  return dataDir;
}

for (const engine of engines) {
  describe(`two instances reading the same AIS feed over PostgreSQL and ${engine.name}`, { skip: engine.skip, timeout: 120_000 }, () => {
    let source: Awaited<ReturnType<typeof nmeaSource>>;
    let instances: TestServer[] = [];
    let receiver: WebhookReceiver;
    let dropSchema: () => Promise<void>;
    let key: OrganisationKey;
    // Other test runs may share the bus server: the vessel is this run's own.
    const mmsi = 244_000_000 + randomInt(0, 900_000);

    before(async () => {
      source = await nmeaSource();
      receiver = await startWebhookReceiver();
      const schema = await freshPostgresSchema();
      dropSchema = schema.drop;
      const url = new URL(postgresUrl!);
      url.searchParams.set('options', `-c search_path=${schema.schema}`);
      // One master key, as instances of one deployment have: each reads what the other sealed.
      const masterKey = randomBytes(32).toString('hex');
      const config = {
        databaseUrl: url.toString(), masterKey, webhookAllowPrivate: true, aisFeeds: [parseFeedSpec(`tcp://127.0.0.1:${source.port}`)], ...engine.config,
      };
      for (let i = 0; i < 2; i++) instances.push(await startTestServer({ config: { ...config, dataDir: await dataDirWithRotterdam() } }));
      key = await organisationKey(instances[0]!.config, 'pro');
      await waitFor(() => source.connections() === 2, 'both instances connected to the feed', 10_000);
    });
    after(async () => {
      await Promise.all(instances.map((instance) => instance.close()));
      await source?.close();
      await receiver?.close();
      await dropSchema?.();
    });

    const call = async (instance: TestServer, method: string, pathname: string, body?: unknown, headers = key.headers) => {
      const response = await fetch(instance.url + pathname, {
        method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = await json(response);
      assert.ok(response.ok, `${method} ${pathname}: ${response.status} ${JSON.stringify(answer)}`);
      return answer;
    };

    test('each position reaches every stream once; one port call, each event and its webhook once', async () => {
      const [first, second] = instances as [TestServer, TestServer];
      await call(first, 'POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi });
      await call(second, 'POST', '/v3/zones', { name: 'Maas approaches', geometry: { type: 'Circle', center: ZONE_CENTRE, radius_nm: 5 } });
      await call(first, 'POST', '/v3/webhooks', { url: receiver.url(), kinds: KINDS });
      // Each instance's vessel rules hear of the vessel and the zone made on the other over the bus.
      await sleep(1000);
      const streams = await Promise.all(instances.map((instance) => TestStream.subscribed(instance.url, { mmsi: [mmsi], updateIntervalSec: 1 })));

      // Into the zone, out of it towards Rotterdam, moored there, and out to sea again.
      const track = [
        { ...WEST_OF_ZONE, sog: 12, status: 0 }, { ...ZONE_CENTRE, sog: 12, status: 0 }, { ...ROTTERDAM, sog: 8, status: 0 },
        { ...ROTTERDAM, sog: 0, status: 5 }, { ...WEST_OF_ZONE, sog: 12, status: 0 },
      ];
      source.send(sentences(staticVoyage(mmsi, { shiptype: 70, destination: 'NLRTM' }), 1));
      for (const [i, point] of track.entries()) {
        await sleep(STEP_MS);
        source.send(sentences(positionReport(mmsi, point.lat, point.lon, { speed: point.sog * 10, status: point.status }), i % 10));
      }

      const expected = track.map((point) => [point.lat, point.lon]);
      for (const [i, stream] of streams.entries()) {
        await waitFor(() => stream.of('position').length >= track.length, `instance ${i}: every position`, 10_000);
      }
      // Past the update interval, when a second copy of the last position would come.
      await sleep(1500);
      for (const [i, stream] of streams.entries()) {
        const seen = stream.of('position').map((frame) => [Number(frame.data.lat.toFixed(4)), Number(frame.data.lon.toFixed(4))]);
        assert.deepEqual(seen, expected, `instance ${i}: each position once, in order`);
        assert.equal(stream.of('static').length, 1, `instance ${i}: the voyage data once`);
      }

      // One call, arrived and departed, whichever instance is asked.
      for (const instance of instances) {
        const calls = await call(instance, 'GET', `/v3/maritime/vessels/${mmsi}/calls`, undefined, AUTH);
        assert.equal(calls.data.length, 1, JSON.stringify(calls.data));
        assert.equal(calls.data[0].port_id, 'NLRTM');
        assert.notEqual(calls.data[0].departed_at, null);
      }

      // Each event once; the zone entry and the arrival cleared once.
      await waitFor(async () => (await call(first, 'GET', '/v3/events?kind=vessel.port_departure')).data.length > 0, 'the departure event', 10_000);
      for (const kind of KINDS) {
        const events = await call(second, 'GET', `/v3/events?kind=${kind}`);
        assert.equal(events.data.length, 1, `${kind}: ${JSON.stringify(events.data)}`);
      }
      const expectedDeliveries = ['vessel.port_arrival cleared', 'vessel.port_arrival opened', 'vessel.port_departure opened',
        'vessel.zone_entered cleared', 'vessel.zone_entered opened', 'vessel.zone_exited opened'];
      await waitFor(() => receiver.received.length >= expectedDeliveries.length, 'the webhook deliveries', 10_000);
      await sleep(1500);
      const delivered = receiver.received.map((delivery) => JSON.parse(delivery.body)).map((body) => `${body.type} ${body.data.change}`).sort();
      assert.deepEqual(delivered, expectedDeliveries);
      await Promise.all(streams.map((stream) => stream.close()));
    });
  });
}
