// Port calls detected from an AIS track uploaded as NMEA, over a real server, on SQLite and (when
// configured) PostgreSQL: arrival, berthing and departure with the times of the track, the lists
// per port and per vessel with cursors, and an open call that survives a restart.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { track } from '../support/ais-track.ts';
import { freshPostgresSchema, postgresUrl, skipPostgres } from '../support/backends.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';
import type { Config } from '../../src/config.ts';

const ROTTERDAM = { lat: 51.9, lon: 4.4833 };
const MAAS = { lat: 51.905, lon: 4.45 };
const SEA = { lat: 52.05, lon: 3.8 };
const BOTLEK = { lat: 51.882, lon: 4.3 };

async function dataDirWithWpi(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-port-calls-'));
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', ...ROTTERDAM, harbour_size: 'large', channel_depth_m: 11 }),
    wpiEntry(31150, { name: 'Rotterdam Botlek', country: 'NL', lat: 51.88, lon: 4.29, harbour_size: 'medium' }),
  ]);
  return dataDir;
}

const BACKENDS: { name: string; skip: string | false; storage(): Promise<{ config: Partial<Config>; drop(): Promise<void> }> }[] = [
  { name: 'SQLite', skip: false, storage: async () => ({ config: {}, drop: async () => {} }) },
  {
    name: 'PostgreSQL',
    skip: skipPostgres,
    async storage() {
      const { schema, drop } = await freshPostgresSchema();
      const url = new URL(postgresUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return { config: { databaseUrl: url.toString() }, drop };
    },
  },
];

for (const backend of BACKENDS) {
  describe(`port calls from an uploaded AIS track on ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let config: Partial<Config>;
    let drop: () => Promise<void>;
    // Tracks are of the last minutes when the suite starts (not when the file loads: the suite of
    // the other back end may have run for minutes before), since older positions are not live.
    let base = 0;
    const iso = (ago: number) => new Date(base - ago * 1000).toISOString();

    before(async () => {
      ({ config, drop } = await backend.storage());
      config = { ...config, dataDir: await dataDirWithWpi() };
      server = await startTestServer({ config });
      base = Math.floor(Date.now() / 1000) * 1000;
    });
    after(async () => {
      await server.close();
      await drop();
    });

    const get = async (pathname: string) => {
      const response = await fetch(server.url + pathname, { headers: AUTH });
      return { status: response.status, body: await json(response) };
    };
    const upload = async (text: string) => {
      const response = await fetch(`${server.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: text });
      assert.equal(response.status, 200);
      const result = await json(response);
      assert.ok(Object.values(result.rejected).every((count) => count === 0), JSON.stringify(result));
    };

    test('a vessel sails in, moors, loads less and leaves: arrival and departure at the times of the track', async () => {
      await upload(track(base, 244_660_001, [
        { voyage: { destination: 'NLRTM', draught: 124, shiptype: 70 }, ago: 295 },
        { ...SEA, sog: 14, ago: 290 },
        { ...MAAS, sog: 8, ago: 260 },
        { ...ROTTERDAM, sog: 0, status: 5, ago: 230 },
        { ...ROTTERDAM, sog: 0.1, status: 5, ago: 200 },
        { voyage: { destination: 'DEHAM', draught: 90, shiptype: 70 }, ago: 180 },
        { ...ROTTERDAM, sog: 7, ago: 150 },
        { ...MAAS, sog: 11, ago: 120 },
        { ...SEA, sog: 14, ago: 60 },
      ]));
      const { status, body } = await get('/v3/maritime/ports/NLRTM/calls');
      assert.equal(status, 200);
      const calls = body.data.filter((call: { mmsi: number }) => call.mmsi === 244_660_001);
      assert.equal(calls.length, 1);
      const call = calls[0];
      assert.match(call.id, /^call_[0-9A-Za-z]{16}$/);
      assert.deepEqual(
        [call.port_id, call.port_name, call.state, call.arrived_at, call.arrival_observed, call.arrival_status, call.berthed_at],
        ['NLRTM', 'Rotterdam', 'departed', iso(230), true, 'moored', iso(230)],
      );
      assert.deepEqual([call.departed_at, call.departure_observed, call.duration_hours], [iso(150), true, 0]);
      assert.deepEqual([call.draught_arrival_m, call.draught_departure_m, call.source, call.ship_type], [12.4, 9, 'upload', 70]);
      assert.ok(Math.abs(call.arrival_position.lat - ROTTERDAM.lat) < 1e-4);

      const vessel = await get('/v3/maritime/vessels/244660001/calls');
      assert.deepEqual(vessel.body.data.map((c: { id: string }) => c.id), [call.id]);
    });

    test('anchored, then alongside: one call that berths later and is still open', async () => {
      await upload(track(base, 244_660_002, [
        { voyage: { destination: 'NL RTM', draught: 140, shiptype: 80 }, ago: 280 },
        { ...SEA, sog: 12, ago: 270 },
        { ...MAAS, sog: 0.2, status: 1, ago: 240 },
        { ...MAAS, sog: 0.3, status: 1, ago: 200 },
        { ...MAAS, sog: 6, ago: 150 },
        { ...ROTTERDAM, sog: 0, status: 5, ago: 100 },
      ]));
      const { body } = await get('/v3/maritime/ports/NLRTM/calls?state=in_port');
      const call = body.data.find((c: { mmsi: number }) => c.mmsi === 244_660_002);
      assert.deepEqual(
        [call.state, call.arrived_at, call.arrival_status, call.berthed_at, call.departed_at, call.departure_observed],
        ['in_port', iso(240), 'anchored', iso(100), null, null],
      );
      assert.ok(!body.data.some((c: { state: string }) => c.state !== 'in_port'));
      const availability = await get('/v3/maritime/ports/NLRTM/availability');
      assert.equal(availability.status, 200);
      assert.ok(availability.body.vessels.some((v: { mmsi: number; state: string }) => v.mmsi === 244_660_002 && v.state === 'at_berth'));
    });

    test('a vessel\'s calls at several ports page newest first', async () => {
      await upload(track(base, 244_660_003, [
        { ...BOTLEK, sog: 0, status: 5, ago: 250 },
        { ...SEA, sog: 14, ago: 240 },
        { ...ROTTERDAM, sog: 0, status: 5, ago: 200 },
        { ...SEA, sog: 14, ago: 190 },
        { ...BOTLEK, sog: 0, status: 5, ago: 150 },
        { ...SEA, sog: 14, ago: 140 },
      ]));
      const seen: { port_id: string; arrived_at: string; arrival_observed: boolean }[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: typeof seen; next_cursor: string | null } } = await get(`/v3/maritime/vessels/244660003/calls?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.body.data);
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(seen.map((c) => [c.port_id, c.arrived_at]), [['WPI-31150', iso(150)], ['NLRTM', iso(200)], ['WPI-31150', iso(250)]]);
      assert.deepEqual(seen.map((c) => c.arrival_observed), [true, true, false], 'the first was already in port when first heard');
      const botlek = await get(`/v3/maritime/ports/WPI-31150/calls?from=${encodeURIComponent(iso(200))}`);
      assert.deepEqual(botlek.body.data.map((c: { arrived_at: string }) => c.arrived_at), [iso(150)]);
    });

    test('bad requests are 400s naming the field; unknown ports and vessels 404', async () => {
      assert.equal((await get('/v3/maritime/ports/NLXXX/calls')).body.code, 'port_not_found');
      assert.equal((await get('/v3/maritime/vessels/0/calls')).body.errors[0].path, '/params/mmsi');
      assert.equal((await get('/v3/maritime/vessels/123456789/calls')).body.code, 'vessel_not_found');
      assert.equal((await get('/v3/maritime/ports/NLRTM/calls?cursor=xyz')).body.code, 'invalid_cursor');
      const order = await get(`/v3/maritime/ports/NLRTM/calls?from=${encodeURIComponent(iso(10))}&to=${encodeURIComponent(iso(100))}`);
      assert.deepEqual([order.status, order.body.errors[0].path], [400, '/querystring/from']);
      assert.equal((await get('/v3/maritime/ports/NLRTM/calls?state=gone')).status, 400);
    });

    test('an open call survives a restart and the next departure closes it', async () => {
      await server.app.close(); // the data folder and database stay
      server = await startTestServer({ config: server.config });
      const now = Math.floor(Date.now() / 1000) * 1000;
      await upload(track(now, 244_660_002, [
        { ...ROTTERDAM, sog: 0, status: 5, ago: 30 },
        { ...ROTTERDAM, sog: 9, ago: 20 },
        { ...SEA, sog: 14, ago: 5 },
      ]));
      const { body } = await get('/v3/maritime/vessels/244660002/calls');
      assert.equal(body.data.length, 1);
      assert.deepEqual([body.data[0].arrived_at, body.data[0].departed_at, body.data[0].departure_observed], [iso(240), new Date(now - 20_000).toISOString(), true]);
    });
  });
}
