// The fleet feed's pacing on a clock the test moves: a vessel's entry is recomputed on its first
// report at once, then at most once per VESSEL_INTERVAL_MS however often it reports; `feed` frames
// go out at most once per vehicle every FEED_FRAME_INTERVAL_SEC with the latest entry; a position
// growing older is no change. Real storage, real vessel store and ports; the streams are a list.
import assert from 'node:assert/strict';
import { after, before, mock, test } from 'node:test';
import { pino } from 'pino';
import { LandingWatch } from '../aviation/index.ts';
import { EventStore, FEED_FRAME_INTERVAL_SEC, FeedFrames, type FleetFeedEntry, type LamisEvent } from '../events/index.ts';
import { ArrivalStore, openFleetStore } from '../fleet/index.ts';
import { vesselsAndPortsWatch } from '../maritime/watch.fixtures.ts';
import { loadPorts } from '../maritime/ports/ports.ts';
import { decoded, positionReport } from '../maritime/vessels/fixtures.ts';
import { VesselStore } from '../maritime/vessels/store.ts';
import { openBus, type Bus } from '../platform/bus/index.ts';
import { openDatabase, type Database } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { MIGRATIONS } from '../migrations.ts';
import { testConfig } from '../../test/support/server.ts';
import { FleetFeed, VESSEL_INTERVAL_MS } from './fleet-feed.ts';

const OWNER = 'org_pacing';
const MMSI = 235_012_345;
const config = testConfig();
let database: Database;
let bus: Bus;

before(async () => {
  database = openDatabase(config);
  await migrate(database.db, database.dialect, MIGRATIONS);
  bus = await openBus(config, (error) => assert.fail(String(error)));
});
after(async () => {
  await bus.close();
  await database.close();
  config.cleanup();
});

test('a vessel is recomputed at most once per interval, frames at most once per interval, and age alone is no change', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  let now = Date.parse('2026-11-21T12:00:00Z');
  const advance = (ms: number) => {
    now += ms;
    mock.timers.tick(ms);
  };
  const sent: FleetFeedEntry[] = [];
  const frames = new FeedFrames();
  frames.attachStreams({ send: (_owner, entry) => sent.push(entry), listening: () => true });
  const vessels = new VesselStore();
  const watch = vesselsAndPortsWatch(vessels, await loadPorts({ dataDir: config.dataDir }));
  const fleet = openFleetStore(database, Buffer.alloc(32, 7));
  const events = new EventStore(database, bus, () => new Date(now));
  const feed = new FleetFeed({
    fleet, arrivals: new ArrivalStore(database), landing: new LandingWatch(), vessels: watch, events, frames, log: pino({ level: 'silent' }), now: () => now,
  });
  try {
    const created = await fleet.create(OWNER, { vehicle_type: 'vessel', mmsi: MMSI });
    assert.equal(created.status, 'created');
    const entry = async () => (await feed.page(OWNER, { limit: 10 })).data[0]!;
    assert.equal((await entry()).voyage!.vessel, null, 'not heard yet');
    const report = (lon: number) => feed.vesselChanged(vessels.apply(decoded(positionReport(MMSI, 50.3, lon)), now, 'upload')!);

    report(-1.0);
    const first = await entry();
    assert.equal(first.voyage!.position!.lon, -1.0, 'the first report is taken at once');
    assert.deepEqual(sent.map((e) => e.voyage!.position!.lon), [-1.0], 'and sent at once');

    advance(5_000);
    report(-0.99);
    advance(1_000);
    report(-0.98);
    assert.equal((await entry()).voyage!.position!.lon, -1.0, 'reports inside the interval wait for its end');
    assert.equal(sent.length, 1);

    advance(VESSEL_INTERVAL_MS - 6_000);
    await feed.page(OWNER, { limit: 10 });
    assert.equal((await entry()).voyage!.position!.lon, -0.98, 'at its end, the latest report counts');
    assert.deepEqual(sent.map((e) => e.voyage!.position!.lon), [-1.0, -0.98]);

    // An event about the vessel a second later changes the entry; its frame waits for the frame interval.
    advance(1_000);
    const opened = await events.open(OWNER, {
      kind: 'vessel.zone_entered', severity: 'info', subject: { type: 'vessel', id: String(MMSI), mmsi: MMSI, zone_id: 'zone_solent' },
      summary: `Vessel ${MMSI} entered the Solent zone.`, data: {},
    });
    feed.eventChanged({ org_id: OWNER, seq: 1, change: 'opened', event: opened.event as LamisEvent });
    assert.deepEqual((await entry()).open_events.map((e) => e.id), [opened.event.id]);
    assert.equal(sent.length, 2);
    advance(FEED_FRAME_INTERVAL_SEC * 1000 - 1_000);
    assert.equal(sent.length, 3);
    assert.deepEqual(sent[2]!.open_events.map((e) => e.id), [opened.event.id]);

    // An hour on, recomputed with nothing new: the position is older, which is no change.
    const before = await entry();
    advance(3_600_000);
    feed.refresh();
    const later = await entry();
    assert.equal(later.updated_at, before.updated_at);
    assert.equal(later.voyage!.position!.age_sec - before.voyage!.position!.age_sec, 3600);
    assert.equal(sent.length, 3);
  } finally {
    await feed.close();
    mock.timers.reset();
  }
});
