// Vessel storage on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL), with vessels built
// by feeding real AIS messages to a real VesselStore.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import type { Database } from '../../platform/db/database.ts';
import { rawPosition, type ClassBPositionRaw, type StaticDataPartARaw, type StaticDataPartBRaw } from '../ais/index.ts';
import { decoded, positionReport, staticVoyage } from './fixtures.ts';
import { vesselsMigration } from '../migrations/0001_vessels.ts';
import { MAX_PARAMETERS, PRUNE_CHUNK, VesselRepository, type TrackPoint } from './repository.ts';
import { VesselStore, type Vessel } from './store.ts';

const now = Date.parse('2026-11-21T12:00:00Z');

function classBPosition(mmsi: number, lat: number, lon: number): ClassBPositionRaw {
  return {
    type: 18, repeat: 0, mmsi, reserved: 0, speed: 55, accuracy: false, lon: rawPosition(lon), lat: rawPosition(lat),
    course: 900, heading: 511, second: 10, regional: 0, cs: true, display: false, dsc: true, band: true, msg22: true,
    assigned: false, raim: false, radio: 0,
  };
}

function staticPartA(mmsi: number): StaticDataPartARaw {
  return { type: 24, repeat: 0, mmsi, partno: 0, shipname: 'SEA BREEZE' };
}

function staticPartB(mmsi: number): StaticDataPartBRaw {
  return {
    type: 24, repeat: 0, mmsi, partno: 1, shiptype: 37, vendorid: 'ABC', model: 1, serial: 123, callsign: 'PD1234',
    to_bow: 8, to_stern: 4, to_port: 2, to_starboard: 2, mothership_mmsi: null,
  };
}

/** A store holding a class A tanker, a class B yacht, a vessel with static data only and a SART. */
function sampleStore(): VesselStore {
  const store = new VesselStore();
  store.apply(decoded(positionReport(244_123_456, 51.95, 4.05)), now, 'live');
  store.apply(decoded(staticVoyage(244_123_456)), now + 1_000, 'live');
  store.apply(decoded(classBPosition(244_700_001, 52.1, 4.2)), now + 2_000, 'simulated');
  store.apply(decoded(staticPartA(244_700_001)), now + 3_000, 'simulated');
  store.apply(decoded(staticPartB(244_700_001)), now + 4_000, 'simulated');
  store.apply(decoded(staticVoyage(235_000_001, { imo: 0, month: 0, day: 0, draught: 0, destination: '', to_bow: 0, to_stern: 0, to_port: 0, to_starboard: 0 })), now + 5_000, 'replay');
  // A SART: no flag, and speed, course, heading and turn not available.
  store.apply(decoded(positionReport(970_123_456, -33.9, 18.4, { speed: 1023, course: 3600, heading: 511, turn: -128, status: 14, accuracy: false })), now + 6_000, 'live');
  return store;
}

const byMmsi = (a: Vessel, b: Vessel) => a.mmsi - b.mmsi;

function point(mmsi: number, at: number, extra: Partial<TrackPoint> = {}): TrackPoint {
  return { mmsi, time: new Date(at).toISOString(), lat: 54.1 + at / 1e12, lon: 10.7, sog: 12.3, cog: 271.5, heading: 270, nav_status: 0, source: 'live', ...extra };
}

for (const backend of STORAGE_BACKENDS) {
  describe(`vessel repository on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let database: Database;
    let repository: VesselRepository;

    const count = async (table: 'vessels' | 'vessel_positions') =>
      Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    before(async () => {
      handle = await backend.open([vesselsMigration]);
      database = handle.database;
      assert.deepEqual(handle.migrated, ['0001_vessels']);
      repository = new VesselRepository(database);
    });
    after(() => handle.cleanup());
    beforeEach(async () => {
      await database.db.deleteFrom('vessels').execute();
      await database.db.deleteFrom('vessel_positions').execute();
    });

    test('saved vessels load back deep-equal, nulls and class B included', async () => {
      const store = sampleStore();
      const vessels = [...store.all()];
      const yacht = store.get(244_700_001);
      assert.equal(yacht?.ais_class, 'B');
      assert.equal(yacht?.name, 'SEA BREEZE');
      assert.equal(store.get(235_000_001)?.position, null);
      assert.equal(store.get(970_123_456)?.flag, null);
      assert.equal(store.get(970_123_456)?.position?.sog, null);
      await repository.saveVessels(vessels);
      assert.deepEqual(await repository.loadVessels(), vessels.sort(byMmsi));
    });

    test('saving again updates the rows in place', async () => {
      const store = sampleStore();
      await repository.saveVessels([...store.all()]);
      store.apply(decoded(positionReport(244_123_456, 52.0, 4.1, { status: 5 })), now + 60_000, 'replay');
      store.apply(decoded(staticVoyage(244_123_456, { destination: 'GBLON', draught: 95 })), now + 61_000, 'replay');
      const tanker = store.get(244_123_456)!;
      // The same MMSI twice in one batch: the last one wins.
      await repository.saveVessels([structuredClone(tanker), tanker]);
      assert.equal(await count('vessels'), 4);
      const loaded = (await repository.loadVessels()).find((v) => v.mmsi === 244_123_456);
      assert.deepEqual(loaded, tanker);
      assert.equal(loaded?.destination, 'GBLON');
      assert.equal(loaded?.position?.nav_status, 5);
      assert.equal(loaded?.source, 'replay');
    });

    test('a position saved before turn directions were kept reads ROT ±127 (stored near ±720°/min) as a fast turn', async () => {
      const store = new VesselStore();
      store.apply(decoded(positionReport(211_000_001, 54.3, 10.1, { turn: 127 })), now, 'live');
      store.apply(decoded(positionReport(211_000_002, 54.3, 10.1, { turn: -20 })), now, 'live');
      await repository.saveVessels([...store.all()]);
      for (const [mmsi, rot] of [[211_000_001, 720.0032105295371], [211_000_002, -((20 / 4.733) ** 2)]] as const) {
        const row = await database.db.selectFrom('vessels').select('data').where('mmsi', '=', mmsi).executeTakeFirstOrThrow();
        const data = JSON.parse(row.data);
        delete data.position.rot_direction;
        data.position.rot = rot;
        await database.db.updateTable('vessels').set({ data: JSON.stringify(data) }).where('mmsi', '=', mmsi).execute();
      }
      const turns = (await repository.loadVessels()).map((v) => [v.position?.rot, v.position?.rot_direction]);
      assert.deepEqual(turns, [[null, 'starboard'], [-((20 / 4.733) ** 2), 'port']]);
    });

    test('a batch larger than one statement allows is written in chunks', async () => {
      const store = new VesselStore();
      const n = Math.ceil(MAX_PARAMETERS / 9) * 2 + 10;
      for (let i = 0; i < n; i++) store.apply(decoded(positionReport(211_000_000 + i, 54 + i / 1e4, 10)), now, 'live');
      await repository.saveVessels([...store.all()]);
      assert.equal(await count('vessels'), n);
      const points = Array.from({ length: n }, (_, i) => point(211_000_000 + (i % 7), now + i * 1_000));
      await repository.appendPositions(points);
      assert.equal(await count('vessel_positions'), n);
    });

    test('a track comes back in time order within the range, limited', async () => {
      const times = [50, 10, 40, 20, 30, 0].map((s) => now + s * 1_000);
      await repository.appendPositions(times.map((t) => point(244_123_456, t)));
      await repository.appendPositions([point(244_999_999, now + 20_000)]);
      // The same point again is skipped, not an error.
      await repository.appendPositions([point(244_123_456, now + 20_000, { lat: 1 })]);
      const track = await repository.track(244_123_456, now + 10_000, now + 40_000, 100);
      assert.deepEqual(track.map((p) => p.time), [10, 20, 30, 40].map((s) => new Date(now + s * 1_000).toISOString()));
      assert.deepEqual(track[1], point(244_123_456, now + 20_000));
      assert.deepEqual((await repository.track(244_123_456, 0, now + 60_000, 2)).map((p) => p.time), [now, now + 10_000].map((t) => new Date(t).toISOString()));
      assert.deepEqual(await repository.track(244_123_456, now + 51_000, now + 60_000, 10), []);
      const nulls = point(970_123_456, now, { sog: null, cog: null, heading: null, nav_status: null, source: 'simulated' });
      await repository.appendPositions([nulls]);
      assert.deepEqual(await repository.track(970_123_456, now, now, 10), [nulls]);
    });

    test('pruning deletes the points before the cut-off, in chunks, and counts them', async () => {
      const old = Array.from({ length: PRUNE_CHUNK * 2 + 123 }, (_, i) => point(200_000_000 + (i % 50), now - 100_000_000 + i * 1_000));
      const recent = [point(244_123_456, now), point(244_123_456, now + 1_000)];
      await repository.appendPositions([...old, ...recent]);
      assert.equal(await repository.pruneTrack(now), old.length);
      assert.equal(await count('vessel_positions'), 2);
      assert.equal(await repository.pruneTrack(now), 0);
      assert.equal(await repository.pruneTrack(now + 1), 1);
    });

    test('restoring the saved vessels into a fresh store gives the same vessels; only fresh positions are live', async () => {
      const store = sampleStore();
      store.apply(decoded(positionReport(211_000_001, 54.3, 10.1)), now - 3_600_000, 'live'); // an hour old
      await repository.saveVessels([...store.all()]);
      const restored = new VesselStore();
      const freshAfter = now - 600_000;
      for (const vessel of await repository.loadVessels()) restored.restore(vessel, freshAfter);
      assert.deepEqual([...restored.all()].sort(byMmsi), [...store.all()].sort(byMmsi));
      assert.equal(restored.byImo(9074729)?.mmsi, 244_123_456);
      // Positioned: the tanker, the yacht, the SART and the stale one; the stale one is not live.
      assert.equal(restored.liveCount, 3);
      assert.deepEqual([...restored.inBox({ minLat: 54, maxLat: 55, minLon: 10, maxLon: 11 })], []);
      assert.deepEqual([...restored.inBox({ minLat: 51, maxLat: 53, minLon: 4, maxLon: 5 })].map((v) => v.mmsi).sort(), [244_123_456, 244_700_001]);
    });
  });
}
