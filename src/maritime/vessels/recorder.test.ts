// The recorder on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL), fed the changes a real
// VesselStore makes from real AIS messages.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import type { Database } from '../../platform/db/database.ts';
import type { PositionReportRaw } from '../ais/index.ts';
import { decoded, positionReport, staticVoyage } from './fixtures.ts';
import { vesselsMigration } from '../migrations/0001_vessels.ts';
import { VesselRecorder, type RecorderStorage, type VesselRecorderOptions } from './recorder.ts';
import { VesselRepository, type TrackPoint } from './repository.ts';
import { VesselStore, type Vessel } from './store.ts';

const now = Date.parse('2026-11-21T12:00:00Z');
const HOUR = 3_600_000;

const byMmsi = (a: Vessel, b: Vessel) => a.mmsi - b.mmsi;
const iso = (ms: number) => new Date(ms).toISOString();

/** Wraps storage to count the batches it is given. */
function counting(storage: RecorderStorage) {
  const calls = { saveVessels: [] as number[], appendPositions: [] as number[] };
  const wrapped: RecorderStorage = {
    saveVessels: (vessels) => (calls.saveVessels.push(vessels.length), storage.saveVessels(vessels)),
    appendPositions: (points) => (calls.appendPositions.push(points.length), storage.appendPositions(points)),
    pruneTrack: (before) => storage.pruneTrack(before),
  };
  return { calls, storage: wrapped };
}

/** A VesselStore whose every change goes to the recorder, as the ingest path will wire it. */
function feeder(recorder: VesselRecorder, store = new VesselStore()) {
  return {
    store,
    position(mmsi: number, at: number, extra: Partial<PositionReportRaw> = {}, lat = 54.3, lon = 10.1) {
      const change = store.apply(decoded(positionReport(mmsi, lat, lon, extra)), at, 'live');
      if (change) recorder.record(change);
    },
    staticVoyage(mmsi: number, at: number, extra: Parameters<typeof staticVoyage>[1] = {}) {
      const change = store.apply(decoded(staticVoyage(mmsi, extra)), at, 'live');
      if (change) recorder.record(change);
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await sleep(5);
  assert.ok(condition(), 'condition not met in 2 s');
}

for (const backend of STORAGE_BACKENDS) {
  describe(`vessel recorder on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let database: Database;
    let repository: VesselRepository;
    const recorders: VesselRecorder[] = [];
    const recorder = (options: Partial<VesselRecorderOptions> = {}) => {
      const r = new VesselRecorder({ repository, now: () => now, ...options });
      recorders.push(r);
      return r;
    };
    const track = (mmsi: number) => repository.track(mmsi, 0, Number.MAX_SAFE_INTEGER, 10_000);

    before(async () => {
      handle = await backend.open([vesselsMigration]);
      database = handle.database;
      repository = new VesselRepository(database);
    });
    after(async () => {
      for (const r of recorders) await r.close();
      await handle.cleanup();
    });
    beforeEach(async () => {
      await database.db.deleteFrom('vessels').execute();
      await database.db.deleteFrom('vessel_positions').execute();
    });

    test('many changes make one flush, 50 rows to a transaction, with the newest state of each vessel', async () => {
      const { calls, storage } = counting(repository);
      const r = recorder({ repository: storage });
      const feed = feeder(r);
      for (let i = 0; i < 50; i++) feed.staticVoyage(244_000_000 + i, now);
      for (let s = 0; s < 120; s += 2) {
        for (let i = 0; i < 50; i++) feed.position(244_000_000 + i, now + s * 1_000, {}, 54 + s / 1e4, 10 + i / 100);
      }
      feed.staticVoyage(244_000_007, now + 120_000, { destination: 'DEHAM' });
      assert.deepEqual([r.stats().pending_vessels, r.stats().pending_points], [50, 200]);
      await r.flush();
      assert.deepEqual(calls, { saveVessels: [50], appendPositions: [50, 50, 50, 50] });
      assert.deepEqual((await repository.loadVessels()), [...feed.store.all()].sort(byMmsi));
      assert.equal((await repository.loadVessels()).find((v) => v.mmsi === 244_000_007)?.destination, 'DEHAM');
      const stats = r.stats();
      assert.deepEqual(
        [stats.pending_vessels, stats.pending_points, stats.written_vessels, stats.written_points, stats.thinned_points, stats.dropped_points],
        [0, 0, 50, 200, 50 * 60 - 200, 0],
      );
      assert.equal(stats.last_flush_at, iso(now));
      // Nothing waiting: nothing is written.
      await r.flush();
      assert.equal(calls.saveVessels.length, 1);
    });

    test('vessel rows go 50 to a transaction; when one fails, those written stay written and the rest wait', async () => {
      const { calls, storage } = counting(repository);
      // The second transaction fails once, before it reaches storage.
      let transactions = 0;
      const failingOnce: RecorderStorage = {
        ...storage,
        saveVessels: (vessels) => (++transactions === 2 ? Promise.reject(new Error('storage went away')) : storage.saveVessels(vessels)),
      };
      const errors: string[] = [];
      const r = recorder({ repository: failingOnce, onError: (error) => errors.push(error.message) });
      const feed = feeder(r);
      for (let i = 0; i < 120; i++) feed.staticVoyage(244_200_000 + i, now);
      await r.flush();
      let stats = r.stats();
      assert.deepEqual(calls.saveVessels, [50]);
      assert.deepEqual([stats.written_vessels, stats.pending_vessels, stats.consecutive_failures], [50, 70, 1]);
      assert.deepEqual(errors, ['storage went away']);
      assert.equal((await repository.loadVessels()).length, 50);
      await r.flush();
      stats = r.stats();
      assert.deepEqual(calls.saveVessels, [50, 50, 20]);
      assert.deepEqual([stats.written_vessels, stats.pending_vessels, stats.consecutive_failures], [120, 0, 0]);
      assert.deepEqual(await repository.loadVessels(), [...feed.store.all()].sort(byMmsi));
    });

    test("the timer rewrites a vessel's row at most once per interval, new vessels and static changes at once, a bounded number a flush", async () => {
      const { calls, storage } = counting(repository);
      let clock = now;
      const r = recorder({ repository: storage, now: () => clock, flushIntervalMs: 10, vesselIntervalMs: 30_000, maxVesselRows: 3 });
      const feed = feeder(r);
      const fleet = [0, 1, 2, 3, 4].map((i) => 219_000_000 + i);
      r.start();
      for (const mmsi of fleet) feed.position(mmsi, clock);
      // Five new vessels: three in the first flush, the other two in the next.
      await until(() => r.stats().written_vessels === 5);
      assert.deepEqual(calls.saveVessels, [3, 2]);
      // A second later every vessel moved: their rows are not due yet; one vessel's static data is.
      clock += 1_000;
      for (const mmsi of fleet) feed.position(mmsi, clock, {}, 54.31, 10.1);
      feed.staticVoyage(fleet[2]!, clock, { destination: 'DKAAR' });
      await until(() => r.stats().written_vessels === 6);
      await sleep(50);
      assert.deepEqual(calls.saveVessels, [3, 2, 1]);
      assert.equal(r.stats().pending_vessels, 4);
      const stored = await repository.loadVessels();
      assert.equal(stored.find((v) => v.mmsi === fleet[2])?.destination, 'DKAAR');
      assert.equal(stored.find((v) => v.mmsi === fleet[0])?.position?.lat, 54.3, 'the row is not rewritten within its interval');
      // Once the interval has passed, the rows are due again, the longest waiting first.
      clock += 30_000;
      await until(() => r.stats().written_vessels === 10);
      assert.deepEqual(calls.saveVessels, [3, 2, 1, 3, 1]);
      assert.deepEqual((await repository.loadVessels()).map((v) => v.position?.lat), fleet.map(() => 54.31));
      assert.equal(r.stats().pending_vessels, 0);
    });

    test('maxBatch waiting points start a flush without the timer, one flush at a time', async () => {
      const { calls, storage } = counting(repository);
      const r = recorder({ repository: storage, maxBatch: 10 });
      const feed = feeder(r);
      for (let i = 0; i < 25; i++) feed.position(211_000_000 + i, now);
      await until(() => r.stats().pending_points === 0);
      // The first batch left at the tenth point; the fifteen that came meanwhile went next.
      assert.deepEqual(calls.appendPositions, [10, 15]);
      assert.equal(r.stats().written_points, 25);
    });

    test('track points are thinned by time, course, navigation status and motion', async () => {
      const r = recorder();
      const feed = feeder(r);
      const mmsi = 244_123_456;
      const at = (s: number) => now + s * 1_000;
      let reports = 0;
      const report = (s: number, extra: Partial<PositionReportRaw>) => (reports++, feed.position(mmsi, at(s), extra));
      for (let s = 0; s < 40; s += 2) report(s, { status: 0 }); // straight on: 0 and 30
      for (let s = 40; s < 50; s += 2) report(s, { status: 0, course: 3050 }); // turned 33°: 40
      for (let s = 50; s < 60; s += 2) report(s, { status: 8, course: 3050 }); // now under sail: 50
      for (let s = 60; s <= 1_860; s += 10) report(s, { status: 1, speed: 0 }); // anchored: 60, then every 10 min
      report(1_860, { status: 1, speed: 0 }); // the same report from a second receiver
      report(1_862, { status: 1, speed: 0, course: 900 }); // course swings at anchor: no point
      report(1_872, { status: 0 }); // under way again: kept 12 s after the last
      feed.position(211_000_001, at(1), { speed: 0 }); // another vessel's first report
      await r.flush();
      const kept = [0, 30, 40, 50, 60, 660, 1_260, 1_860, 1_872];
      assert.deepEqual((await track(mmsi)).map((p) => p.time), kept.map((s) => iso(at(s))));
      assert.deepEqual((await track(211_000_001)).map((p) => p.time), [iso(at(1))]);
      assert.equal(r.stats().thinned_points, reports - kept.length);
      const anchored = (await track(mmsi))[4];
      assert.deepEqual([anchored?.sog, anchored?.nav_status, anchored?.source], [0, 1, 'live']);
    });

    test('a failed batch is kept and written once storage is back', async () => {
      const errors: string[] = [];
      const r = recorder({ onError: (error, during) => errors.push(`${during}: ${error.message}`) });
      const feed = feeder(r);
      feed.staticVoyage(244_123_456, now);
      feed.position(244_123_456, now);
      feed.position(211_000_001, now);

      // The vessels table is missing: nothing is written, all stays pending.
      await database.db.schema.alterTable('vessels').renameTo('vessels_away').execute();
      await r.flush();
      let stats = r.stats();
      assert.deepEqual([stats.pending_vessels, stats.pending_points, stats.consecutive_failures, stats.written_points], [2, 2, 1, 0]);
      assert.match(stats.last_error ?? '', /^flush: .*vessels/);
      assert.equal(stats.last_error_at, iso(now));
      assert.equal(errors.length, 1);

      // Meanwhile the vessels move on; a failing flush again keeps everything.
      feed.position(244_123_456, now + 60_000, {}, 54.4, 10.2);
      feed.position(211_000_002, now + 60_000);
      await r.flush();
      assert.deepEqual([r.stats().pending_vessels, r.stats().pending_points, r.stats().consecutive_failures], [3, 4, 2]);

      // Vessels back, track table missing: the vessels are written, the points wait.
      await database.db.schema.alterTable('vessels_away').renameTo('vessels').execute();
      await database.db.schema.alterTable('vessel_positions').renameTo('vessel_positions_away').execute();
      await r.flush();
      stats = r.stats();
      assert.deepEqual([stats.pending_vessels, stats.pending_points, stats.written_vessels, stats.consecutive_failures], [0, 4, 3, 3]);
      assert.deepEqual(await repository.loadVessels(), [...feed.store.all()].sort(byMmsi));

      await database.db.schema.alterTable('vessel_positions_away').renameTo('vessel_positions').execute();
      await r.flush();
      stats = r.stats();
      assert.deepEqual([stats.pending_points, stats.written_points, stats.consecutive_failures, stats.failed_flushes], [0, 4, 0, 3]);
      assert.deepEqual((await track(244_123_456)).map((p: TrackPoint) => p.time), [iso(now), iso(now + 60_000)]);
      assert.match(stats.last_error ?? '', /vessel_positions/); // the last error stays for /readyz and logs
      assert.equal(errors.length, 3);
    });

    test('start prunes once, flushes on its timer; close writes the rest and stops', async () => {
      const retentionMs = 72 * HOUR;
      const old = (h: number, mmsi = 211_000_009): TrackPoint =>
        ({ mmsi, time: iso(now - h * HOUR), lat: 54, lon: 10, sog: 1, cog: 2, heading: 3, nav_status: 0, source: 'replay' });
      await repository.appendPositions([old(100), old(80), old(73), old(71), old(1)]);
      const r = recorder({ retentionMs, flushIntervalMs: 10 });
      const feed = feeder(r);
      r.start();
      feed.position(244_123_456, now);
      await until(() => r.stats().written_points === 1 && r.stats().last_prune_at !== null);
      assert.equal(r.stats().pruned_points, 3);
      assert.equal(r.stats().last_prune_at, iso(now));
      assert.deepEqual((await track(211_000_009)).map((p) => p.time), [old(71).time, old(1).time]);

      feed.position(211_000_001, now);
      await r.close();
      assert.equal(r.stats().written_points, 2);
      feed.position(211_000_002, now);
      assert.equal(r.stats().dropped_points, 1);
      assert.equal(r.stats().pending_points, 0);
    });

    test('what the recorder wrote restores into a fresh store as the same vessels', async () => {
      const r = recorder();
      const feed = feeder(r);
      feed.position(244_123_456, now - 2 * HOUR, {}, 51.9, 4.0); // stale by now
      feed.staticVoyage(244_123_456, now - 2 * HOUR);
      feed.position(211_000_001, now - 60_000, { speed: 1023, heading: 511, turn: -128 });
      feed.staticVoyage(235_000_001, now, { imo: 0, destination: '' });
      await r.close();
      const restored = new VesselStore();
      for (const vessel of await repository.loadVessels()) restored.restore(vessel, now - 10 * 60_000);
      assert.deepEqual([...restored.all()].sort(byMmsi), [...feed.store.all()].sort(byMmsi));
      assert.equal(restored.liveCount, 1);
      assert.deepEqual([...restored.inBox({ minLat: 50, maxLat: 55, minLon: 0, maxLon: 11 })].map((v) => v.mmsi), [211_000_001]);
    });
  });
}

test('the buffer is bounded: points beyond it are dropped and counted, the rest retried', async () => {
  let failing = true;
  const written: TrackPoint[] = [];
  const storage: RecorderStorage = {
    async saveVessels() {
      if (failing) throw new Error('storage down');
    },
    async appendPositions(points) {
      if (failing) throw new Error('storage down');
      written.push(...points);
    },
    pruneTrack: async () => 0,
  };
  assert.throws(() => new VesselRecorder({ repository: storage, maxBatch: 0 }), /maxBatch must be a positive number/);
  const r = new VesselRecorder({ repository: storage, maxPendingPoints: 5, maxBatch: 2, now: () => now });
  const feed = feeder(r);
  for (let i = 0; i < 8; i++) feed.position(211_000_000 + i, now);
  // maxBatch started a flush at the second point; it failed, and no further one follows per report.
  await until(() => r.stats().consecutive_failures === 1);
  assert.deepEqual([r.stats().pending_points, r.stats().dropped_points, r.stats().failed_flushes], [5, 3, 1]);
  await r.flush();
  feed.position(211_000_100, now);
  assert.deepEqual([r.stats().pending_points, r.stats().dropped_points, r.stats().pending_vessels], [5, 4, 9]);
  failing = false;
  await r.close();
  assert.deepEqual(written.map((p) => p.mmsi), [0, 1, 2, 3, 4].map((i) => 211_000_000 + i));
  assert.deepEqual([r.stats().pending_points, r.stats().written_points, r.stats().written_vessels], [0, 5, 9]);
});
