// The watch list store on SQLite and (when configured) PostgreSQL: each airport or port once per
// owner however often it is added, every owner's watchers of a target, and removal per owner.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../test/support/backends.ts';
import { MIGRATIONS } from '../migrations.ts';
import { WatchListStore } from './watch-list.ts';

for (const backend of STORAGE_BACKENDS) {
  describe(`the watch list on ${backend.name}`, { skip: backend.skip }, () => {
    let storage: StorageHandle;
    before(async () => {
      storage = await backend.open(MIGRATIONS);
    });
    after(() => storage?.cleanup());

    test('an airport is on an owner\'s list once, even added concurrently; watchers are every owner\'s', async () => {
      const store = new WatchListStore(storage.database);
      const added = await Promise.all([1, 2, 3].map(() => store.add('org_a', { type: 'airport', target: 'EGLL' }, null)));
      assert.deepEqual(added.map((result) => result.status).sort(), ['created', 'existing', 'existing']);
      assert.equal(new Set(added.map((result) => 'entry' in result && result.entry.id)).size, 1);
      await store.add('org_b', { type: 'airport', target: 'EGLL' }, 'ours');
      await store.add('org_b', { type: 'port', target: 'GBSOU' }, null);
      assert.deepEqual(await store.watchers('airport', 'EGLL'), [{ org_id: 'org_a', target: 'EGLL' }, { org_id: 'org_b', target: 'EGLL' }]);
      assert.deepEqual(await store.watchers('port'), [{ org_id: 'org_b', target: 'GBSOU' }]);
      const [mine] = (await store.list('org_a', { limit: 10 })).data;
      assert.equal(await store.delete('org_b', mine!.id), false, 'not another owner\'s');
      assert.equal(await store.delete('org_a', mine!.id), true);
      assert.deepEqual(await store.watchers('airport'), [{ org_id: 'org_b', target: 'EGLL' }]);
    });
  });
}
