// Port calls and berth records in storage, on SQLite and (when configured) PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { MIGRATIONS } from '../../migrations.ts';
import { migrate } from '../../platform/db/migrate.ts';
import { BerthStore, type BerthFields } from './berths.ts';
import { newVessel } from '../vessels/store.ts';
import { PortCallStore } from './call-store.ts';
import { PortCallDetector, type PortCall, type PortCallEvent } from './calls.ts';
import { rotterdamPorts } from './fixtures.ts';
import { CallWriter } from './service.ts';

const T0 = Date.parse('2026-05-04T06:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function call(id: string, mmsi: number, portId: string, arrivedMs: number, departedMs: number | null): PortCall {
  return {
    id, mmsi, port_id: portId, vessel_name: 'NORDIC SPIRIT', imo: 9074729, ship_type: 80,
    arrived_at: iso(arrivedMs), arrival_observed: true, arrival_status: 'moored', arrival_lat: 51.9, arrival_lon: 4.48,
    berthed_at: iso(arrivedMs), berth_lat: 51.9, berth_lon: 4.48,
    departed_at: departedMs === null ? null : iso(departedMs), departure_observed: departedMs === null ? null : true,
    draught_arrival_m: 11.8, draught_departure_m: departedMs === null ? null : 9.2, source: 'live',
  };
}

const quay = (name: string, extra: Partial<BerthFields> = {}): BerthFields =>
  ({ name, length_m: 300, depth_m: 14.5, cargo_types: ['liquid_bulk', 'container'], lat: null, lon: null, ...extra });

for (const backend of STORAGE_BACKENDS) {
  describe(`port calls and berths on ${backend.name}`, { skip: backend.skip }, () => {
    let storage: StorageHandle;
    before(async () => {
      storage = await backend.open(MIGRATIONS);
    });
    after(() => storage.cleanup());

    test('calls are stored, updated by id, and read back as they were', async () => {
      const calls = new PortCallStore(storage.database);
      const open = call('call_a', 244_000_001, 'NLRTM', T0, null);
      assert.equal(await calls.arrive(open), null);
      assert.deepEqual(await calls.open(), [open]);
      const departed = { ...open, departed_at: iso(T0 + 20 * HOUR), departure_observed: false, draught_departure_m: 9.2 };
      assert.equal(await calls.depart(departed), true);
      assert.deepEqual(await calls.open(), []);
      assert.deepEqual(await calls.page({ mmsi: 244_000_001 }, { limit: 10 }), [departed]);
      assert.equal(await calls.hasCalls(244_000_001), true);
      assert.equal(await calls.hasCalls(244_000_999), false);
    });

    test('each transition of a call happens once, whichever writer comes first', async () => {
      const calls = new PortCallStore(storage.database);
      const mmsi = 244_000_002;
      // Two instances stamped the same arrival a few milliseconds apart: the first one's call is stored.
      const anchored = { arrival_status: 'anchored' as const, berthed_at: null, berth_lat: null, berth_lon: null };
      const first = { ...call('call_first', mmsi, 'NLRTM', T0, null), ...anchored };
      const second = { ...call('call_second', mmsi, 'NLRTM', T0 + 4, null), ...anchored };
      assert.equal(await calls.arrive(first), null);
      assert.deepEqual(await calls.arrive(second), first);
      assert.deepEqual(await calls.arrive(first), first, 'the same call again');
      const berthed = { ...first, berthed_at: iso(T0 + HOUR), berth_lat: 51.9, berth_lon: 4.47 };
      assert.equal(await calls.berth(berthed), true);
      assert.equal(await calls.berth({ ...berthed, berthed_at: iso(T0 + HOUR + 4) }), false);
      const departed = { ...berthed, departed_at: iso(T0 + 5 * HOUR), departure_observed: true, draught_departure_m: 8 };
      assert.equal(await calls.depart(departed), true);
      assert.equal(await calls.depart({ ...departed, departed_at: iso(T0 + 5 * HOUR + 4) }), false);
      assert.deepEqual(await calls.page({ mmsi }, { limit: 10 }), [departed]);

      // An open call at another port that began earlier was ended unseen: it ends when the next begins.
      const earlier = call('call_earlier', mmsi, 'GBSOU', T0 + 10 * HOUR, null);
      const next = call('call_next', mmsi, 'FRLEH', T0 + 30 * HOUR, null);
      assert.equal(await calls.arrive(earlier), null);
      assert.equal(await calls.arrive(next), null);
      assert.deepEqual((await calls.page({ mmsi }, { limit: 10 })).map((c) => [c.id, c.departed_at, c.departure_observed]),
        [['call_next', null, null], ['call_earlier', next.arrived_at, false], ['call_first', departed.departed_at, true]]);
      // One that began later is newer than the call arriving: that one is not stored.
      assert.deepEqual(await calls.arrive(call('call_late', mmsi, 'GBSOU', T0 + 20 * HOUR, null)), next);
      assert.equal((await calls.page({ mmsi }, { limit: 10 })).length, 3);
    });

    test('two instances reading the same reports: each transition stored and announced once, by whichever writes first', async () => {
      const calls = new PortCallStore(storage.database);
      const mmsi = 244_000_005;
      const index = rotterdamPorts();
      const announced: [string, PortCallEvent['kind'], string][] = [];
      /** An instance's detector and writer; it stamps each report `lagMs` after the other. */
      const instance = (name: string, lagMs: number) => {
        const detector = new PortCallDetector(index);
        const writer = new CallWriter({
          calls,
          announce: (event) => announced.push([name, event.kind, event.call.id]),
          adopt: (ours, stored) => detector.adopt(ours.mmsi, ours.id, stored),
          onError: (error) => assert.fail(String(error)),
        });
        const report = (secondsIn: number, lat: number, lon: number, sog: number, status: number) => {
          const time = new Date(T0 + secondsIn * 1000 + lagMs).toISOString();
          const vessel = { ...newVessel(mmsi, 'live', time), ship_type: 70, category: 'CARGO' as const };
          vessel.position = { lat, lon, sog, cog: 90, heading: 90, rot: 0, rot_direction: null, nav_status: status, position_accuracy: true, timestamp: time };
          for (const event of detector.observe(vessel)) writer.add(event);
        };
        return { detector, writer, report };
      };
      const a = instance('a', 0);
      const b = instance('b', 3);
      const atSea = [52.3, 3.0, 12, 0] as const;
      const anchored = [51.9, 4.48, 0.2, 1] as const;
      const moored = [51.9, 4.48, 0, 5] as const;

      for (const { report } of [a, b]) report(0, ...atSea);
      // a stores the arrival; b, behind it, finds a's call and takes it over, and is first to store the berthing.
      a.report(60, ...anchored);
      await a.writer.flush();
      b.report(60, ...anchored);
      b.report(120, ...moored);
      await b.writer.flush();
      const stored = (await calls.open()).find((c) => c.mmsi === mmsi)!;
      assert.equal(b.detector.openFor(mmsi)?.call.id, stored.id);
      assert.equal(stored.arrived_at, new Date(T0 + 60_000).toISOString());
      a.report(120, ...moored);
      await a.writer.flush();
      // a is first to store the departure.
      a.report(180, ...atSea);
      await a.writer.flush();
      b.report(180, ...atSea);
      await b.writer.flush();

      assert.deepEqual(announced, [['a', 'arrival', stored.id], ['b', 'berthed', stored.id], ['a', 'departure', stored.id]]);
      const [only, ...more] = await calls.page({ mmsi }, { limit: 10 });
      assert.deepEqual(more, []);
      // Berthed as b saw it; departed when a last saw it in port.
      assert.deepEqual([only!.id, only!.berthed_at, only!.departed_at], [stored.id, new Date(T0 + 120_003).toISOString(), new Date(T0 + 120_000).toISOString()]);
    });

    test('pages run newest arrival first and continue after a cursor; filters combine', async () => {
      const calls = new PortCallStore(storage.database);
      for (let i = 0; i < 7; i++) await calls.arrive(call(`call_p${i}`, 244_100_000 + (i % 2), 'DEHAM', T0 + i * HOUR, i < 5 ? T0 + i * HOUR + 30 * 60_000 : null));
      // Two calls arriving at the same moment are ordered by id.
      await calls.arrive(call('call_p9', 244_100_009, 'DEHAM', T0 + 3 * HOUR, null));
      const seen: string[] = [];
      let after: readonly [string, string] | undefined;
      for (;;) {
        const page = await calls.page({ port_id: 'DEHAM' }, { limit: 3, after });
        seen.push(...page.map((c) => c.id));
        if (page.length < 3) break;
        const last = page[page.length - 1]!;
        after = [last.arrived_at, last.id];
      }
      assert.deepEqual(seen, ['call_p6', 'call_p5', 'call_p4', 'call_p9', 'call_p3', 'call_p2', 'call_p1', 'call_p0']);
      const inPort = await calls.page({ port_id: 'DEHAM' }, { limit: 10, state: 'in_port' });
      assert.deepEqual(inPort.map((c) => c.id), ['call_p6', 'call_p5', 'call_p9']);
      const window = await calls.page({ port_id: 'DEHAM' }, { limit: 10, from: iso(T0 + HOUR), to: iso(T0 + 2 * HOUR), state: 'departed' });
      assert.deepEqual(window.map((c) => c.id), ['call_p2', 'call_p1']);
      const vessel = await calls.page({ mmsi: 244_100_001 }, { limit: 10 });
      assert.deepEqual(vessel.map((c) => c.id), ['call_p5', 'call_p3', 'call_p1']);
    });

    test('the calls spanning a time', async () => {
      const calls = new PortCallStore(storage.database);
      await calls.arrive(call('call_o1', 244_200_001, 'BEANR', T0, T0 + 10 * HOUR));
      await calls.arrive(call('call_o2', 244_200_002, 'BEANR', T0 + 5 * HOUR, null));
      await calls.arrive(call('call_o3', 244_200_003, 'BEANR', T0 + 20 * HOUR, T0 + 30 * HOUR));
      const at = async (ms: number) => (await calls.overlapping('BEANR', iso(ms), iso(ms))).map((c) => c.id);
      assert.deepEqual(await at(T0 + 6 * HOUR), ['call_o1', 'call_o2']);
      assert.deepEqual(await at(T0 + 10 * HOUR), ['call_o2'], 'departed at that moment: gone');
      assert.deepEqual(await at(T0 + 25 * HOUR), ['call_o2', 'call_o3']);
      assert.deepEqual((await calls.overlapping('BEANR', iso(T0), iso(T0 + 40 * HOUR))).length, 3);
    });

    test('berths: unique names per port, idempotent creation, changes and deletion', async () => {
      const berths = new BerthStore(storage.database);
      const operator = { organisation_id: null, created_by: 'cfg_operator' };
      const org = { organisation_id: 'org_harbour', created_by: 'org_harbour' };
      const first = await berths.create('NLRTM', quay('Europahaven 2'), org, 'key-1');
      assert.ok(first.status === 'created');
      const berth = first.berth;
      assert.deepEqual([berth.organisation_id, berth.cargo_types], ['org_harbour', ['container', 'liquid_bulk']], 'cargo types in a fixed order');
      const retry = await berths.create('NLRTM', quay('Europahaven 2'), org, 'key-1');
      assert.deepEqual(retry, { status: 'existing', berth });
      const reused = await berths.create('NLRTM', quay('Other'), org, 'key-1');
      assert.equal(reused.status, 'key_reused');
      assert.equal((await berths.create('NLRTM', quay('EUROPAHAVEN-2'), operator)).status, 'name_taken', 'names compare folded');
      assert.equal((await berths.create('DEHAM', quay('Europahaven 2'), operator)).status, 'created', 'another port may use the name');
      for (const name of ['Quay 1', 'Quay 3', 'Quay 2']) await berths.create('NLRTM', quay(name), operator);
      assert.equal(await berths.count('NLRTM', 'org_harbour'), 4);
      assert.deepEqual((await berths.all('NLRTM', 'org_harbour')).map((b) => b.name), ['Europahaven 2', 'Quay 1', 'Quay 2', 'Quay 3']);
      const second = await berths.page('NLRTM', 'org_harbour', 2, ['quay 1', (await berths.all('NLRTM', 'org_harbour'))[1]!.id]);
      assert.deepEqual(second.map((b) => b.name), ['Quay 2', 'Quay 3']);

      const changed = await berths.update('NLRTM', berth.id, { ...quay('Europahaven 2A'), depth_m: null, lat: 51.95, lon: 4.1 });
      assert.ok(changed.status === 'updated');
      assert.deepEqual([changed.berth.name, changed.berth.depth_m, changed.berth.lat, changed.berth.created_at], ['Europahaven 2A', null, 51.95, berth.created_at]);
      assert.equal((await berths.update('NLRTM', berth.id, quay('quay 1'))).status, 'name_taken');
      assert.equal((await berths.update('NLRTM', 'brt_missing', quay('Nowhere'))).status, 'not_found');
      assert.equal(await berths.delete('NLRTM', berth.id), true);
      assert.equal(await berths.delete('NLRTM', berth.id), false);
      assert.equal(await berths.get('NLRTM', berth.id, 'every'), null);
    });

    test('berths: each organisation sees the shared records and its own; names are unique within what one sees', async () => {
      const berths = new BerthStore(storage.database);
      const operator = { organisation_id: null, created_by: 'cfg_operator' };
      const author = (org: string) => ({ organisation_id: org, created_by: org });
      const shared = await berths.create('BEANR', quay('Quay 10'), operator);
      const mine = await berths.create('BEANR', quay('Quay 11'), author('org_x'));
      assert.ok(shared.status === 'created' && mine.status === 'created');
      assert.equal((await berths.create('BEANR', quay('quay-11'), author('org_y'))).status, 'created', 'another organisation\'s name is free');
      const clash = await berths.create('BEANR', quay('QUAY 10'), author('org_y'));
      assert.deepEqual([clash.status, clash.berth.id], ['name_taken', shared.berth.id], 'a shared record\'s name is taken for everyone');
      assert.equal((await berths.create('BEANR', quay('Quay 11'), operator)).status, 'name_taken', 'a shared record may not take a name any organisation sees');

      assert.deepEqual((await berths.all('BEANR', 'org_x')).map((b) => [b.name, b.organisation_id]), [['Quay 10', null], ['Quay 11', 'org_x']]);
      assert.deepEqual([await berths.count('BEANR', 'org_x'), await berths.count('BEANR', 'org_y'), await berths.count('BEANR', null)], [2, 2, 1]);
      assert.deepEqual((await berths.page('BEANR', null, 10)).map((b) => b.name), ['Quay 10']);
      assert.equal(await berths.get('BEANR', mine.berth.id, 'org_y'), null);
      assert.equal(await berths.get('BEANR', mine.berth.id, null), null);
      assert.equal((await berths.get('BEANR', mine.berth.id, 'org_x'))?.id, mine.berth.id);
      assert.equal((await berths.get('BEANR', mine.berth.id, 'every'))?.id, mine.berth.id);
      const renamed = await berths.update('BEANR', mine.berth.id, quay('Quay 10'));
      assert.deepEqual([renamed.status, renamed.status === 'name_taken' && renamed.berth.id], ['name_taken', shared.berth.id]);

      const racing = await Promise.all(Array.from({ length: 10 }, () => berths.create('BEANR', quay('Quay 12'), author('org_x'))));
      assert.deepEqual(racing.map((r) => r.status).sort(), ['created', ...Array(9).fill('name_taken')]);
    });

    test('a vessel stored with two open calls keeps the later one open; the earlier ends, unobserved, when it began', async () => {
      const before = await backend.open(MIGRATIONS.filter((m) => m.name < '0026'));
      try {
        const mmsi = 244_000_003;
        // Two instances stored one arrival each, milliseconds apart, before calls were stored once.
        const first = call('call_twice_1', mmsi, 'NLRTM', T0, null);
        const second = call('call_twice_2', mmsi, 'NLRTM', T0 + 3, null);
        const other = call('call_other', 244_000_004, 'NLRTM', T0, null);
        await before.database.db.insertInto('port_calls').values([first, second, other].map((c) => ({
          ...c, arrival_observed: 1, departure_observed: null,
        }))).execute();
        assert.deepEqual(await migrate(before.database.db, before.database.dialect, MIGRATIONS.filter((m) => m.name < '0027')), ['0026_port_call_open_once']);
        const calls = new PortCallStore(before.database);
        assert.deepEqual((await calls.open()).map((c) => c.id).sort(), ['call_other', 'call_twice_2']);
        assert.deepEqual(await calls.page({ mmsi }, { limit: 10 }), [second, { ...first, departed_at: second.arrived_at, departure_observed: false }]);
        assert.deepEqual(await calls.arrive(call('call_twice_3', mmsi, 'NLRTM', T0 + 5, null)), second);
      } finally {
        await before.cleanup();
      }
    });

    test('berths made before names were scoped by organisation keep theirs, and the new rule applies to them', async () => {
      const before = await backend.open(MIGRATIONS.filter((m) => m.name < '0014'));
      try {
        const old = await new BerthStore(before.database).create('NLRTM', quay('Quay 1'), { organisation_id: 'org_x', created_by: 'org_x' });
        assert.equal(old.status, 'created');
        assert.deepEqual(await migrate(before.database.db, before.database.dialect, MIGRATIONS.filter((m) => m.name < '0015')), ['0014_berth_owners']);
        const berths = new BerthStore(before.database);
        assert.deepEqual(await berths.get('NLRTM', old.berth.id, 'org_x'), old.berth);
        assert.equal((await berths.create('NLRTM', quay('Quay 1'), { organisation_id: 'org_y', created_by: 'org_y' })).status, 'created');
        assert.equal((await berths.create('NLRTM', quay('quay 1'), { organisation_id: 'org_x', created_by: 'org_x' })).status, 'name_taken');
      } finally {
        await before.cleanup();
      }
    });
  });
}
