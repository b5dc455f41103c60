// Events in storage, on SQLite and (when configured) PostgreSQL: one open event per kind and subject
// however many handles open it, transitions that report what they did and publish only real ones,
// and open events and acknowledgements that outlive a restart; the change log a resume replays from.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../test/support/backends.ts';
import { MIGRATIONS } from '../migrations.ts';
import { createMemoryBus } from '../platform/bus/memory.ts';
import type { Bus } from '../platform/bus/index.ts';
import { eventChanges, EventStore, type EventChange, type NewEvent } from './events.ts';

const crosswind = (arrival: string, value = 24): NewEvent => ({
  kind: 'landing.crosswind_above',
  severity: 'warning',
  subject: { type: 'arrival', id: arrival, arrival_id: arrival, vehicle_id: 'veh_1', icao: 'EGLL' },
  summary: `Crosswind ${value} kt on runway 27L is above the 20 kt limit of G-EUPT.`,
  data: { value, threshold: 20, runway: '27L' },
});

/** Every change published on the bus, in order. */
async function recorder(bus: Bus) {
  const seen: EventChange[] = [];
  await bus.subscribe(eventChanges, (change) => seen.push(change));
  return {
    /** The changes so far, once the bus has delivered them. */
    async changes() {
      await new Promise((resolve) => setImmediate(resolve));
      return seen.map((c) => `${c.org_id} ${c.change} ${c.event.id}`);
    },
  };
}

for (const backend of STORAGE_BACKENDS) {
  describe(`events on ${backend.name}`, { skip: backend.skip }, () => {
    let storage: StorageHandle;
    let bus: Bus;
    before(async () => {
      storage = await backend.open(MIGRATIONS);
      bus = createMemoryBus((error) => { throw error; });
    });
    after(async () => {
      await bus.close();
      await storage.cleanup();
    });

    test('a batch writes its transitions together and publishes them once committed; a failed batch neither writes nor publishes', async () => {
      const store = new EventStore(storage.database, bus);
      const published = await recorder(bus);
      const opened = await store.batch(async (inside) => {
        const first = await inside.open('org_batch', crosswind('arr_batch_1'));
        await inside.open('org_batch', crosswind('arr_batch_2'));
        assert.deepEqual(await published.changes(), [], 'nothing published before the commit');
        return first.event;
      });
      assert.deepEqual((await published.changes()).filter((change) => change.startsWith('org_batch')).length, 2);
      await assert.rejects(store.batch(async (inside) => {
        await inside.clear('org_batch', opened.id);
        throw new Error('the rule failed');
      }), /the rule failed/);
      assert.equal((await store.get('org_batch', opened.id))!.state, 'open', 'rolled back');
      assert.equal((await published.changes()).filter((change) => change.startsWith('org_batch')).length, 2, 'and not published');
    });

    test('an update from the event as just read writes the same as one that reads it; a cleared one stays cleared', async () => {
      const store = new EventStore(storage.database, bus);
      const { event } = await store.open('org_read', crosswind('arr_read'));
      const updated = await store.update('org_read', event.id, { severity: 'critical', data: { value: 40 } }, event);
      assert.deepEqual([updated!.change, updated!.event.severity, updated!.event.data], ['escalated', 'critical', { value: 40 }]);
      assert.deepEqual(await store.get('org_read', event.id), updated!.event);
      await store.clear('org_read', event.id);
      assert.equal((await store.update('org_read', event.id, { summary: 'late' }, updated!.event))!.change, 'already_cleared');
      assert.equal((await store.get('org_read', event.id))!.summary, event.summary);
    });

    test('the open events about many subjects are read at once, the organisation\'s only', async () => {
      const store = new EventStore(storage.database, bus);
      const subjects = Array.from({ length: 600 }, (_, n) => `arr_about_${n}`);
      for (const subject of subjects.slice(0, 3)) await store.open('org_about', crosswind(subject));
      await store.open('org_about', { ...crosswind(subjects[599]!), kind: 'landing.below_minima' });
      await store.open('org_other', crosswind(subjects[1]!));
      const gone = await store.open('org_about', crosswind('arr_about_gone'));
      await store.clear('org_about', gone.event.id);
      const about = await store.openAbout('org_about', 'arrival', [...subjects, 'arr_about_gone']);
      assert.deepEqual(about.map((event) => `${event.subject.id} ${event.kind}`).sort(), [
        'arr_about_0 landing.crosswind_above', 'arr_about_1 landing.crosswind_above', 'arr_about_2 landing.crosswind_above', 'arr_about_599 landing.below_minima',
      ]);
      assert.deepEqual(await store.openAbout('org_about', 'vessel', subjects), []);
    });

    test('open, update, acknowledge and clear each report what they did; only real transitions are published', async () => {
      const store = new EventStore(storage.database, bus);
      const published = await recorder(bus);
      const opened = await store.open('org_a', crosswind('arr_1'));
      assert.equal(opened.change, 'opened');
      const id = opened.event.id;
      assert.match(id, /^evt_[0-9A-Za-z]{16}$/);
      assert.deepEqual({ ...opened.event, id: undefined, opened_at: undefined }, {
        ...crosswind('arr_1'), id: undefined, state: 'open', opened_at: undefined, cleared_at: null, acknowledged_at: null,
      });
      const again = await store.open('org_a', crosswind('arr_1', 25));
      assert.deepEqual([again.change, again.event], ['already_open', opened.event], 'the open event, unchanged');

      const acknowledged = await store.acknowledge('org_a', id);
      assert.equal(acknowledged!.change, 'acknowledged');
      const ackAt = acknowledged!.event.acknowledged_at;
      assert.ok(ackAt);
      assert.equal((await store.acknowledge('org_a', id))!.change, 'already_acknowledged');

      const escalated = await store.update('org_a', id, { severity: 'critical', summary: 'Crosswind 31 kt.', data: { value: 31, threshold: 20 } });
      assert.deepEqual([escalated!.change, escalated!.event.severity, escalated!.event.acknowledged_at], ['escalated', 'critical', ackAt]);
      assert.equal((await store.update('org_a', id, { severity: 'critical' }))!.change, 'unchanged');
      const eased = await store.update('org_a', id, { severity: 'warning', data: { value: 23, threshold: 20 } });
      assert.deepEqual([eased!.change, eased!.event.data, eased!.event.acknowledged_at], ['updated', { value: 23, threshold: 20 }, ackAt]);

      const cleared = await store.clear('org_a', id);
      assert.deepEqual([cleared!.change, cleared!.event.state, typeof cleared!.event.cleared_at], ['cleared', 'cleared', 'string']);
      const twice = await store.clear('org_a', id);
      assert.deepEqual([twice!.change, twice!.event], ['already_cleared', cleared!.event], 'the second clear changes nothing');
      assert.equal((await store.update('org_a', id, { severity: 'info' }))!.change, 'already_cleared');

      // Cleared, the kind and subject may open a new event.
      const next = await store.open('org_a', crosswind('arr_1'));
      assert.equal(next.change, 'opened');
      assert.notEqual(next.event.id, id);
      assert.deepEqual(await published.changes(), [
        `org_a opened ${id}`, `org_a acknowledged ${id}`, `org_a escalated ${id}`, `org_a updated ${id}`, `org_a cleared ${id}`, `org_a opened ${next.event.id}`,
      ]);
    });

    test('every real transition is logged with a rising number, the one it is published with; a resume replays each event changed after a number once, as it is now', async () => {
      const store = new EventStore(storage.database, bus);
      const numbers: number[] = [];
      await bus.subscribe(eventChanges, (change) => { if (change.org_id === 'org_log') numbers.push(change.seq); });
      const a = (await store.open('org_log', crosswind('arr_log_a'))).event;
      await store.open('org_log', crosswind('arr_log_a'));
      await new Promise((resolve) => setImmediate(resolve));
      const [afterA] = numbers;
      const b = await store.batch(async (inside) => (await inside.open('org_log', crosswind('arr_log_b'))).event);
      await store.update('org_log', a.id, { severity: 'critical' });
      await store.update('org_log', a.id, { severity: 'critical' });
      await store.open('org_other_log', crosswind('arr_log_a'));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(numbers.length, 3, 'repeats are neither logged nor published');
      assert.deepEqual([...numbers].sort((x, y) => x - y), numbers);

      const replay = async (after: number) => {
        const seen: string[] = [];
        for await (const { seq, event } of store.changesAfter('org_log', after)) seen.push(`${seq} ${event.id} ${event.severity}`);
        return seen;
      };
      assert.deepEqual(await replay(afterA!), [`${numbers[1]} ${b.id} warning`, `${numbers[2]} ${a.id} critical`]);
      assert.deepEqual(await replay(0), [`${numbers[1]} ${b.id} warning`, `${numbers[2]} ${a.id} critical`], 'each event once, at its latest change');
      assert.deepEqual(await replay(numbers[2]!), []);
      assert.deepEqual(await store.latestChange('org_log', a.id), { seq: numbers[2] });
      assert.equal(await store.latestChange('org_other_log', a.id), null, "another organisation's event is unknown");
      // An event whose changes predate the log.
      await storage.database.db.deleteFrom('event_changes').where('event_id', '=', b.id).execute();
      assert.equal(await store.latestChange('org_log', b.id), 'unlogged');
    });

    test('retention deletes events cleared before the cutoff with their changes and the superseded changes of kept ones; each organisation\'s horizon passes its own', async () => {
      let clock = Date.parse('2026-01-01T00:00:00Z');
      const day = 86_400_000;
      const store = new EventStore(storage.database, bus, () => new Date(clock));
      const changes = async (ids: string[]) => (await storage.database.db.selectFrom('event_changes').select(['event_id', 'change']).where('event_id', 'in', ids).orderBy('seq').execute())
        .map((row) => `${ids.indexOf(row.event_id)} ${row.change}`);
      const old = (await store.open('org_retain', crosswind('arr_retain_old'))).event;
      const open = (await store.open('org_retain', crosswind('arr_retain_open'))).event;
      const elsewhere = (await store.open('org_retain_other', crosswind('arr_retain_old'))).event;
      clock += day;
      await store.update('org_retain', old.id, { severity: 'critical' });
      await store.update('org_retain', open.id, { severity: 'critical' });
      clock += day;
      await store.clear('org_retain', old.id);
      const horizon = (await store.latestChange('org_retain', old.id) as { seq: number }).seq;
      clock += 10 * day;
      const recent = (await store.open('org_retain', crosswind('arr_retain_recent'))).event;
      await store.clear('org_retain', recent.id);
      const before = [];
      for await (const { seq, event } of store.changesAfter('org_retain', 0)) if (event.id !== old.id) before.push(`${seq} ${event.id}`);

      assert.deepEqual(await store.prune(new Date(clock - 5 * day)), { events: 1, changes: 4 }, 'the old event\'s three changes, and the open one\'s opening');
      assert.equal(await store.get('org_retain', old.id), null);
      assert.deepEqual(await changes([old.id, open.id, recent.id, elsewhere.id]), ['3 opened', '1 escalated', '2 opened', '2 cleared']);
      const after = [];
      for await (const { seq, event } of store.changesAfter('org_retain', 0)) after.push(`${seq} ${event.id}`);
      assert.deepEqual(after, before, 'a resume replays what it replayed before, less the deleted event');
      assert.equal(await store.logHorizon('org_retain'), horizon);
      assert.equal(await store.logHorizon('org_retain_other'), 0, 'another organisation\'s resumes are untouched');
      assert.deepEqual(await store.prune(new Date(clock - 5 * day)), { events: 0, changes: 0 });
      await store.clear('org_retain', open.id);
      const later = (await store.latestChange('org_retain', open.id) as { seq: number }).seq;
      clock += 10 * day;
      assert.deepEqual(await store.prune(new Date(clock - 5 * day)), { events: 2, changes: 4 });
      assert.equal(await store.logHorizon('org_retain'), later, 'the horizon moves on');
    });

    test('another organisation\'s event is not found, and its own key is separate', async () => {
      const store = new EventStore(storage.database, bus);
      const { event } = await store.open('org_b', crosswind('arr_2'));
      assert.equal(await store.get('org_c', event.id), null);
      assert.equal(await store.acknowledge('org_c', event.id), null);
      assert.equal(await store.clear('org_c', event.id), null);
      assert.equal(await store.update('org_c', event.id, { severity: 'critical' }), null);
      assert.equal((await store.open('org_c', crosswind('arr_2'))).change, 'opened', 'the same kind and subject in another organisation');
      assert.equal((await store.get('org_b', event.id))!.acknowledged_at, null);
    });

    test('two handles opening the same event at once open it once', async () => {
      const other = storage.reopen();
      try {
        const stores = [new EventStore(storage.database, bus), new EventStore(other, bus)];
        for (let round = 0; round < 5; round++) {
          const results = await Promise.all(stores.flatMap((store) => [store.open('org_d', crosswind(`arr_r${round}`)), store.open('org_d', crosswind(`arr_r${round}`))]));
          assert.deepEqual(results.map((r) => r.change).sort(), ['already_open', 'already_open', 'already_open', 'opened']);
          assert.equal(new Set(results.map((r) => r.event.id)).size, 1);
        }
        assert.equal((await stores[0]!.page('org_d', { limit: 100 })).length, 5);
      } finally {
        await other.close();
      }
    });

    test('an opening that comes after a later observation cleared the event finds it cleared, unpublished; a later observation opens it again', async () => {
      const other = storage.reopen();
      try {
        const [first, late] = [new EventStore(storage.database, bus), new EventStore(other, bus)];
        const published = await recorder(bus);
        const { event } = await first.open('org_late', crosswind('arr_late'), '2026-11-28T16:01:29.993Z');
        await first.clear('org_late', event.id, '2026-11-28T16:01:31.314Z');
        // The late instance stamped the same report a few milliseconds later.
        const again = await late.open('org_late', crosswind('arr_late'), '2026-11-28T16:01:29.997Z');
        assert.deepEqual([again.change, again.event.id, again.event.state], ['already_cleared', event.id, 'cleared']);
        const next = await late.open('org_late', crosswind('arr_late'), '2026-11-28T16:01:33.000Z');
        assert.equal(next.change, 'opened');
        assert.notEqual(next.event.id, event.id);
        assert.deepEqual((await published.changes()).filter((change) => change.startsWith('org_late')),
          [`org_late opened ${event.id}`, `org_late cleared ${event.id}`, `org_late opened ${next.event.id}`]);
        assert.equal((await first.page('org_late', { limit: 10 })).length, 2);
      } finally {
        await other.close();
      }
    });

    test('a restart keeps open events and acknowledgements, and raises nothing again', async () => {
      const first = storage.reopen();
      const { event } = await new EventStore(first, bus).open('org_e', crosswind('arr_3'));
      await new EventStore(first, bus).acknowledge('org_e', event.id);
      await first.close();

      const second = storage.reopen();
      try {
        const store = new EventStore(second, bus);
        const found = await store.findOpen('org_e', 'landing.crosswind_above', crosswind('arr_3').subject);
        assert.equal(found!.id, event.id);
        assert.ok(found!.acknowledged_at);
        const again = await store.open('org_e', crosswind('arr_3'));
        assert.deepEqual([again.change, again.event.id], ['already_open', event.id]);
      } finally {
        await second.close();
      }
    });

    test('pages run newest opening first and continue after a cursor; filters combine', async () => {
      let clock = Date.parse('2026-05-04T06:00:00Z');
      const store = new EventStore(storage.database, bus, () => new Date(clock));
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock += 60_000;
        ids.push((await store.open('org_f', crosswind(`arr_p${i}`))).event.id);
      }
      const gap: NewEvent = { kind: 'vessel.ais_gap', severity: 'info', subject: { type: 'vessel', id: '235000001', mmsi: 235000001 }, summary: 'Silent for 2 h.', data: { gap_min: 120 } };
      clock += 60_000;
      const vessel = (await store.open('org_f', gap)).event.id;
      await store.clear('org_f', ids[1]!);

      const seen: string[] = [];
      let cursor: readonly [string, string] | undefined;
      for (;;) {
        const page = await store.page('org_f', { limit: 2, after: cursor });
        seen.push(...page.map((e) => e.id));
        if (page.length < 2) break;
        cursor = [page[1]!.opened_at, page[1]!.id];
      }
      assert.deepEqual(seen, [vessel, ...[...ids].reverse()]);
      const found = async (filter: Parameters<EventStore['page']>[1]) => (await store.page('org_f', filter)).map((e) => e.id);
      assert.deepEqual(await found({ limit: 10, state: 'cleared' }), [ids[1]]);
      assert.deepEqual(await found({ limit: 10, kind: 'vessel.ais_gap' }), [vessel]);
      assert.deepEqual(await found({ limit: 10, subject_type: 'arrival', subject_id: 'arr_p3' }), [ids[3]]);
      assert.deepEqual(await found({ limit: 10, since: '2026-05-04T06:04:00.000Z', kind: 'landing.crosswind_above', state: 'open' }), [ids[4], ids[3]]);
    });
  });
}
