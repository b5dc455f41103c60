// Port areas and congestion from AIS tracks uploaded as NMEA, over a real server, on SQLite and
// (when configured) PostgreSQL: two vessels anchor off Rotterdam, one goes alongside while the
// other waits; the anchorage cluster appears in the port's area, congestion counts the waiting
// vessel with its wait, and once both calls are done the median wait is theirs. The clusters
// survive a restart.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { flatRing, ringHolds } from '../../src/platform/geo/ring.ts';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import type { Config } from '../../src/config.ts';
import { ROTTERDAM_ANCHORAGE, ROTTERDAM_BERTH, ROTTERDAM_SEA, rotterdamAnchorageTracks, track } from '../support/ais-track.ts';
import { freshPostgresSchema, postgresUrl, skipPostgres } from '../support/backends.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const ROTTERDAM = { lat: 51.9, lon: 4.4833 };
const ANCHORAGE = ROTTERDAM_ANCHORAGE;
const BERTH_A = ROTTERDAM_BERTH;
const BERTH_B = { lat: 51.895, lon: 4.46 };
const SEA = ROTTERDAM_SEA;
/** Maasvlakte, 19 nm west of the city: in Rotterdam's area by the WPI seeds only. */
const MAASVLAKTE = { lat: 51.955, lon: 4.03 };

async function dataDirWithWpi(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-port-congestion-'));
  // The World Port Index's own sizes and types for these (Pub. 150).
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', ...ROTTERDAM, harbour_size: 'large', harbour_type: 'river_basins' }),
    wpiEntry(31085, { unlocode: 'NLEUR', name: 'Europoort', country: 'NL', lat: 51.95, lon: 4.1167, harbour_size: 'medium', harbour_type: 'canal_or_lake' }),
    wpiEntry(31080, { unlocode: 'NLHVH', name: 'Hoek Van Holland', country: 'NL', lat: 51.95, lon: 4.1333, harbour_size: 'very_small', harbour_type: 'river_basins' }),
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

type Polygon = { type: 'Polygon'; coordinates: [number, number][][] };
const inPolygon = (polygon: Polygon, point: { lat: number; lon: number }) => ringHolds(flatRing(polygon.coordinates[0]!), point.lon, point.lat);

for (const backend of BACKENDS) {
  describe(`port areas and congestion from uploaded AIS tracks on ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let drop: () => Promise<void>;
    let base = 0;
    const iso = (ago: number) => new Date(base - ago * 1000).toISOString();

    before(async () => {
      let config: Partial<Config>;
      ({ config, drop } = await backend.storage());
      server = await startTestServer({ config: { ...config, dataDir: await dataDirWithWpi() } });
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

    test('before any evidence the river port\'s area is seeded from the WPI, not a circle round the city', async () => {
      const { status, body } = await get('/v3/maritime/ports/NLRTM');
      assert.equal(status, 200);
      const { area } = body;
      assert.equal(area.derivation.method, 'seeded');
      assert.deepEqual(area.derivation.seeds, ['NLHVH', 'NLEUR']);
      assert.equal(area.derivation.base_radius_nm, 12);
      assert.match(area.derivation.reasoning, /no berth positions/);
      assert.equal(area.polygon.type, 'Polygon');
      assert.ok(inPolygon(area.polygon, MAASVLAKTE), 'the Maasvlakte lies in the area');
      assert.ok(!inPolygon(area.polygon, { lat: ROTTERDAM.lat, lon: ROTTERDAM.lon + 0.35 }), '13 nm east of the city does not');
      assert.deepEqual([area.anchorages, area.berth_clusters], [[], []]);
    });

    test('a vessel anchors, then berths while another waits: the anchorage appears and the waiting vessel is counted', async () => {
      for (const text of rotterdamAnchorageTracks(base)) await upload(text);

      const { area } = (await get('/v3/maritime/ports/NLRTM')).body;
      assert.equal(area.anchorages.length, 1, JSON.stringify(area.anchorages));
      const [anchorage] = area.anchorages;
      assert.equal(anchorage.stops, 2);
      assert.ok(Math.abs(anchorage.centroid.lat - ANCHORAGE.lat) < 0.01 && Math.abs(anchorage.centroid.lon - ANCHORAGE.lon) < 0.01);
      assert.equal(anchorage.last_seen, iso(100));
      assert.equal(area.berth_clusters.length, 1);
      assert.equal(area.berth_clusters[0].stops, 1);
      assert.equal(area.derivation.method, 'evidence');
      assert.equal(area.derivation.clusters_used, 1, 'the anchorage has two stops; the berth one');

      const { status, body } = await get('/v3/maritime/ports/NLRTM/congestion');
      assert.equal(status, 200);
      assert.equal(body.days, 7);
      assert.deepEqual([body.waiting, body.at_berth], [1, 1]);
      const [waiting] = body.waiting_vessels;
      assert.deepEqual([waiting.mmsi, waiting.where, waiting.state, waiting.waiting_since], [244_670_002, 'anchorage', 'anchored', iso(250)]);
      const waited = (Date.parse(body.at) - Date.parse(iso(250))) / 3_600_000;
      assert.ok(Math.abs(waiting.waiting_hours - waited) <= 0.01, `${waiting.waiting_hours} h against ${waited} h`);
      assert.deepEqual([body.calls_berthed, body.calls_waited], [1, 1]);
      assert.equal(body.median_wait_hours, Math.round(((280 - 150) / 3600) * 100) / 100);
      assert.deepEqual(body.capacity, { basis: 'estimate', berths: 40, by_harbour_size: 40, observed_peak: 1 });
      assert.equal(body.berth_occupancy, 0.03);
      assert.equal(body.history.length, 7 * 24);
      assert.ok(body.history.every((hour: { at: string }) => hour.at.endsWith(':00:00.000Z')));
      assert.ok(Date.parse(body.history.at(-1).at) <= Date.parse(body.at) && Date.parse(body.history.at(-1).at) > Date.parse(body.at) - 3_600_000);
    });

    test('once both have berthed and left, the median is of their waits and nobody waits', async () => {
      await upload(track(base, 244_670_002, [
        { ...ANCHORAGE, sog: 5, ago: 60 },
        { ...BERTH_B, sog: 0, status: 5, ago: 40 },
        { ...BERTH_B, sog: 9, ago: 20 },
        { ...SEA, sog: 13, ago: 5 },
      ]));
      await upload(track(base, 244_670_001, [
        { ...BERTH_A, sog: 8, ago: 30 },
        { ...SEA, sog: 13, ago: 4 },
      ]));
      const { body } = await get('/v3/maritime/ports/NLRTM/congestion?days=1');
      assert.deepEqual([body.days, body.waiting, body.at_berth, body.calls_berthed, body.calls_waited], [1, 0, 0, 2, 2]);
      const waits = [(280 - 150) / 3600, (250 - 40) / 3600];
      assert.equal(body.median_wait_hours, Math.round(((waits[0]! + waits[1]!) / 2) * 100) / 100);
      assert.equal(body.history.length, 24);
      const calls = (await get('/v3/maritime/ports/NLRTM/calls?state=departed')).body.data;
      assert.equal(calls.length, 2);
    });

    test('bad ids and parameters are problems naming the field', async () => {
      const zero = await get('/v3/maritime/ports/NLRTM/congestion?days=0');
      assert.deepEqual([zero.status, zero.body.errors[0].path], [400, '/querystring/days']);
      const many = await get('/v3/maritime/ports/NLRTM/congestion?days=31');
      assert.deepEqual([many.status, many.body.errors[0].path], [400, '/querystring/days']);
      assert.equal((await get('/v3/maritime/ports/NLRTM/congestion?days=week')).status, 400);
      const malformed = await get('/v3/maritime/ports/N!/congestion');
      assert.deepEqual([malformed.status, malformed.body.errors[0].path], [400, '/params/id']);
      assert.equal((await get('/v3/maritime/ports/NLXXX/congestion')).body.code, 'port_not_found');
    });

    test('the clusters survive a restart', async () => {
      await server.app.close();
      server = await startTestServer({ config: server.config });
      const { area } = (await get('/v3/maritime/ports/NLRTM')).body;
      assert.deepEqual(area.anchorages.map((cluster: { stops: number }) => cluster.stops), [2]);
      assert.equal(area.derivation.method, 'evidence');
    });
  });
}
