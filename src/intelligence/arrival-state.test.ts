// What the landing rules last saw of each arrival, on SQLite and PostgreSQL: written in batches
// and replaced, read back by arrival, found once archived or by vehicle, and forgotten.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../test/support/backends.ts';
import { ArrivalStateStore, type ArrivalLandingState } from './arrival-state.ts';
import { arrivalLandingStateMigration } from './migrations/0022_arrival_landing_state.ts';

const NOW = Date.parse('2026-05-04T06:00:00Z');
const seen = (n: number, extra: Partial<ArrivalLandingState> = {}): ArrivalLandingState => ({
  arrival_id: `arr_${String(n).padStart(16, '0')}`, org_id: n % 2 === 0 ? 'org_even' : 'org_odd', vehicle_id: `veh_${n % 3}`,
  runway: '27L', approach: 'ILS RWY 27L', status: 'OPERATIONAL', watched_until: new Date(NOW + n * 60_000).toISOString(), ...extra,
});

for (const backend of STORAGE_BACKENDS) {
  describe(`arrival landing state on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let store: ArrivalStateStore;
    before(async () => {
      handle = await backend.open([arrivalLandingStateMigration]);
      store = new ArrivalStateStore(handle.database);
    });
    after(() => handle.cleanup());

    test('a batch larger than one statement is written, replaced and read back', async () => {
      const states = Array.from({ length: 1_200 }, (_, n) => seen(n));
      await store.write(states, NOW);
      await store.write([seen(7, { runway: null, approach: 'NONE', status: 'LIMITED' })], NOW);
      const read = await store.read(states.map((state) => state.arrival_id));
      assert.equal(read.size, 1_200);
      assert.deepEqual(read.get(seen(7).arrival_id), seen(7, { runway: null, approach: 'NONE', status: 'LIMITED' }));
      assert.deepEqual(read.get(seen(8).arrival_id), seen(8));
    });

    test('archived by a time, by vehicle, and forgotten', async () => {
      assert.deepEqual((await store.archived(NOW + 2 * 60_000)).map((ref) => ref.arrival_id).sort(), [0, 1, 2].map((n) => seen(n).arrival_id));
      assert.equal((await store.ofVehicle('org_even', 'veh_0')).length, 200);
      await store.remove((await store.all()).map((ref) => ref.arrival_id));
      assert.deepEqual(await store.all(), []);
    });
  });
}
