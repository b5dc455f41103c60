// Outcomes applied to real event storage (SQLite, and PostgreSQL when configured): a categorical
// condition opens, follows and clears its event; a measured one keeps it open inside the dead band
// of its kind; unknown data changes nothing and a rule switched off clears.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../test/support/backends.ts';
import { EventStore, type EventSubject } from '../events/index.ts';
import { MIGRATIONS } from '../migrations.ts';
import { createMemoryBus } from '../platform/bus/memory.ts';
import { applyOutcome, type EventContent } from './outcome.ts';

const content = (value: number): EventContent => ({ severity: 'warning', summary: `Delay ${value} min.`, data: { value } });
const subject: EventSubject = { type: 'vessel', id: '235012345', mmsi: 235012345, vehicle_id: 'veh_1' };

for (const backend of STORAGE_BACKENDS) {
  describe(`outcomes on ${backend.name}`, { skip: backend.skip }, () => {
    let storage: StorageHandle;
    let events: EventStore;
    const bus = createMemoryBus((error) => { throw error; });
    before(async () => {
      storage = await backend.open(MIGRATIONS);
      events = new EventStore(storage.database, bus);
    });
    after(async () => {
      await bus.close();
      await storage.cleanup();
    });
    const open = (owner: string, kind: 'vessel.eta_delayed' | 'feed.stale' = 'vessel.eta_delayed') => events.findOpen(owner, kind, subject);

    test('a measured delay opens past the threshold, holds inside the dead band, clears below it', async () => {
      const measured = (value: number) => applyOutcome(events, 'org_m', 'vessel.eta_delayed', subject, { status: 'measured', value, threshold: 60, event: content(value) });
      await measured(60);
      assert.equal(await open('org_m'), null, 'at the threshold: not past it');
      await measured(75);
      const opened = await open('org_m');
      assert.equal(opened?.data.value, 75);
      await measured(50);
      assert.deepEqual([(await open('org_m'))?.id, (await open('org_m'))?.data.value], [opened!.id, 50], 'inside the 15 min dead band: open, and says so');
      await applyOutcome(events, 'org_m', 'vessel.eta_delayed', subject, { status: 'unknown' });
      assert.equal((await open('org_m'))?.id, opened!.id, 'no data: as it was');
      await measured(44);
      assert.equal(await open('org_m'), null);
      assert.equal((await events.get('org_m', opened!.id))?.state, 'cleared');
    });

    test('a categorical condition opens, changes and clears; switched off it clears too', async () => {
      const holds = (on: boolean, severity: 'warning' | 'critical' = 'warning') =>
        applyOutcome(events, 'org_c', 'feed.stale', subject, { status: 'categorical', holds: on, event: { ...content(1), severity } });
      await holds(false);
      assert.equal(await open('org_c', 'feed.stale'), null);
      await holds(true);
      const first = await open('org_c', 'feed.stale');
      await holds(true, 'critical');
      assert.deepEqual([(await open('org_c', 'feed.stale'))?.id, (await open('org_c', 'feed.stale'))?.severity], [first!.id, 'critical']);
      await holds(false);
      assert.equal(await open('org_c', 'feed.stale'), null);
      await holds(true);
      assert.notEqual((await open('org_c', 'feed.stale'))?.id, first!.id, 'a new occurrence is a new event');
      await applyOutcome(events, 'org_c', 'feed.stale', subject, { status: 'off' });
      assert.equal(await open('org_c', 'feed.stale'), null);
    });
  });
}
