// Two instances on one PostgreSQL and one bus server (NATS, and Redis), AIS read by one of them:
// the streams of both get every update of the vessels they watch, once, in order per vessel, also
// of a vessel moving from one bus region into the next, and nothing of the regions they do not; the
// instance that reads nothing answers vessel requests with what the other one read.
// Deployments on other storages sharing the bus server hear nothing of each other's vessels,
// unless they are given one bus name.
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { regionOf } from '../../src/maritime/regions.ts';
import type { Change } from '../../src/maritime/vessels/store.ts';
import { positionReport } from '../../src/maritime/vessels/fixtures.ts';
import { freshPostgresSchema, natsUrl, postgresUrl, redisUrl, skipNats, skipPostgres, skipRedis } from '../support/backends.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';
import { TestStream, sleep, upload } from './stream-support.ts';

const ROUNDS = 5;
/** Longer than the streams' update interval (1 s), so no update is coalesced with the next. */
const ROUND_MS = 1200;
const NORTH_SEA = { minLat: 50, maxLat: 56, minLon: -3, maxLon: 8 };
const SINGAPORE = { minLat: 0.5, maxLat: 2, minLon: 103, maxLon: 105 };

const engines = [
  { name: 'NATS', skip: skipNats || skipPostgres, config: { natsUrl } },
  { name: 'Redis', skip: skipRedis || skipPostgres, config: { redisUrl } },
];

const at = (lat: number, lon: number) => regionOf({ vessel: { position: { lat, lon } } } as Change);

for (const engine of engines) {
  describe(`the AIS stream on two instances over PostgreSQL and ${engine.name}`, { skip: engine.skip, timeout: 120_000 }, () => {
    let reader: TestServer;
    let server: TestServer;
    let dropSchema: () => Promise<void>;
    // Other test runs may share the bus server: these vessels are this run's own.
    const base = 244_000_000 + randomInt(0, 90_000) * 10;
    const crossing = base + 1;
    const northSea = [crossing, base + 2, base + 3];
    const singapore = base + 4;
    /** Round r's position of each vessel; the crossing one goes from 1° W to 1° E, over a region border. */
    const track = (mmsi: number, round: number): [number, number] => mmsi === singapore
      ? [1 + round / 10, 103.5 + round / 10]
      : mmsi === crossing ? [53, -1 + round / 2] : [51 + (mmsi - base) + round / 10, 3 + round / 10];

    before(async () => {
      const schema = await freshPostgresSchema();
      dropSchema = schema.drop;
      const url = new URL(postgresUrl!);
      url.searchParams.set('options', `-c search_path=${schema.schema}`);
      const config = { databaseUrl: url.toString(), ...engine.config };
      reader = await startTestServer({ config });
      server = await startTestServer({ config });
    });
    after(async () => {
      await server?.close();
      await reader?.close();
      await dropSchema?.();
    });

    test('every update reaches the streams of both instances once, in order per vessel', async () => {
      assert.notEqual(at(...track(crossing, 0)), at(...track(crossing, ROUNDS - 1)), 'the crossing vessel changes region');
      const everyVessel = [...northSea, singapore];
      const streams = {
        readerNorthSea: await TestStream.subscribed(reader.url, { bbox: NORTH_SEA, updateIntervalSec: 1 }),
        northSea: await TestStream.subscribed(server.url, { bbox: NORTH_SEA, updateIntervalSec: 1 }),
        singapore: await TestStream.subscribed(server.url, { bbox: SINGAPORE, updateIntervalSec: 1 }),
        byMmsi: await TestStream.subscribed(server.url, { mmsi: everyVessel, updateIntervalSec: 1 }),
      };
      const wants = { readerNorthSea: northSea, northSea, singapore: [singapore], byMmsi: everyVessel };

      for (let round = 0; round < ROUNDS; round++) {
        const started = Date.now();
        await upload(reader.url, everyVessel.map((mmsi) => positionReport(mmsi, ...track(mmsi, round))));
        await sleep(ROUND_MS - (Date.now() - started));
      }

      for (const [name, stream] of Object.entries(streams)) {
        const vessels = wants[name as keyof typeof wants];
        await waitFor(() => stream.of('position').filter((f) => vessels.includes(f.data.mmsi)).length >= vessels.length * ROUNDS, `${name}: every update`, 10_000);
        await sleep(100);
        const positions = stream.of('position').filter((f) => f.data.mmsi >= base && f.data.mmsi <= base + 10);
        for (const mmsi of everyVessel) {
          const seen = positions.filter((f) => f.data.mmsi === mmsi).map((f) => [Number(f.data.lat.toFixed(4)), Number(f.data.lon.toFixed(4))]);
          const expected = vessels.includes(mmsi) ? Array.from({ length: ROUNDS }, (_, round) => track(mmsi, round).map((v) => Number(v.toFixed(4)))) : [];
          assert.deepEqual(seen, expected, `${name}: vessel ${mmsi}, each update once and in order`);
        }
      }
      await Promise.all(Object.values(streams).map((stream) => stream.close()));
    });

    test('the instance that reads no feed answers vessel requests with what the other one read', async () => {
      const mmsi = base + 5;
      await upload(reader.url, [positionReport(mmsi, 54.25, 4.75)]);
      const read = async (url: string) => {
        const response = await fetch(`${url}/v3/maritime/vessels/${mmsi}`, { headers: AUTH });
        return response.status === 200 ? ((await response.json()) as { position: { lat: number; lon: number }; last_update: string }) : null;
      };
      await waitFor(async () => (await read(server.url)) !== null, 'the vessel on the other instance', 10_000);
      const [there, here] = [(await read(reader.url))!, (await read(server.url))!];
      assert.deepEqual(here.position, there.position);
      assert.equal(here.last_update, there.last_update);
      const inBox = await fetch(`${server.url}/v3/maritime/vessels?bbox=4.5,54,5,54.5`, { headers: AUTH });
      assert.ok(((await inBox.json()) as { data: { mmsi: number }[] }).data.some((vessel) => vessel.mmsi === mmsi), 'and in its live index');
    });
  });
}

for (const engine of engines) {
  describe(`deployments on different storages sharing ${engine.name}`, { skip: engine.name === 'NATS' ? skipNats : skipRedis, timeout: 60_000 }, () => {
    const servers: TestServer[] = [];
    const base = 244_000_000 + randomInt(0, 90_000) * 10;
    after(() => Promise.all(servers.map((server) => server.close())));

    /** Each server (on its own SQLite) uploads a vessel of its own; what each one's stream of every vessel gets. */
    const heardBy = async (busName?: string): Promise<number[][]> => {
      const pair = [await startTestServer({ config: { ...engine.config, busName } }), await startTestServer({ config: { ...engine.config, busName } })];
      servers.push(...pair);
      const vessels = [base + servers.length - 1, base + servers.length];
      const streams = await Promise.all(pair.map((server) => TestStream.subscribed(server.url, { mmsi: vessels, updateIntervalSec: 1 })));
      for (const [i, server] of pair.entries()) await upload(server.url, [positionReport(vessels[i]!, 53, 3 + i)]);
      // Each stream gets its own deployment's vessel; a moment more for one of the other's to come, if it would.
      await Promise.all(streams.map((stream, i) => waitFor(() => stream.positionMmsis().includes(vessels[i]!), `stream ${i}: its own vessel`, 10_000)));
      await sleep(500);
      await Promise.all(streams.map((stream) => stream.close()));
      return streams.map((stream) => stream.positionMmsis().map((mmsi) => mmsi - base));
    };

    test('each deployment\'s streams get its own vessels only', async () => {
      assert.deepEqual(await heardBy(), [[1], [2]]);
    });

    test('given one bus name, they share the bus', async () => {
      assert.deepEqual(await heardBy(`test-${randomUUID()}`), [[3, 4], [3, 4]]);
    });
  });
}
