// The zone store on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL): zones per owner,
// paging, changes, and the cap per organisation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../test/support/backends.ts';
import { parseGeometry } from './geometry.ts';
import { zonesMigrations } from './migrations/index.ts';
import { MAX_ZONES, ZoneStore } from './zones.ts';

const SOLENT = parseGeometry({ type: 'Polygon', coordinates: [[[-1.6, 50.7], [-1.0, 50.7], [-1.0, 50.9], [-1.6, 50.9], [-1.6, 50.7]]] });
const FIJI = parseGeometry({ type: 'Circle', center: { lat: -17.7, lon: 178.1 }, radius_nm: 120 });

for (const backend of STORAGE_BACKENDS) {
  describe(`zones on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let zones: ZoneStore;
    let owner = 0;
    const newOwner = () => `org_zones${++owner}`;

    before(async () => {
      handle = await backend.open(zonesMigrations);
      assert.deepEqual(handle.migrated, ['0017_zones']);
      zones = new ZoneStore(handle.database);
    });
    after(() => handle.cleanup());

    test('a zone is stored, changed and removed, for its owner only', async () => {
      const org = newOwner();
      const other = newOwner();
      const zone = (await zones.create(org, { name: 'Solent', geometry: SOLENT, applies_to: { fleet: true, categories: ['TANKER'] } }))!;
      assert.match(zone.id, /^zon_[0-9A-Za-z]{16}$/);
      assert.deepEqual(await zones.get(org, zone.id), zone);
      assert.deepEqual([zone.description, zone.geometry, zone.applies_to], [null, SOLENT, { fleet: true, categories: ['TANKER'] }]);
      assert.equal(await zones.get(other, zone.id), null);
      assert.equal(await zones.update(other, zone.id, { name: 'Mine' }), null);
      assert.equal(await zones.delete(other, zone.id), false);
      assert.deepEqual((await zones.list(other, { limit: 10 })).data, []);
      const changed = (await zones.update(org, zone.id, { geometry: FIJI, description: 'Approaches' }))!;
      assert.deepEqual([changed.name, changed.geometry, changed.description, changed.applies_to.categories], ['Solent', FIJI, 'Approaches', ['TANKER']]);
      assert.equal((await zones.update(org, zone.id, { description: null }))!.description, null);
      assert.equal(await zones.delete(org, zone.id), true);
      assert.equal(await zones.get(org, zone.id), null);
    });

    test('lists by creation time, a page at a time; defaults to the fleet', async () => {
      const org = newOwner();
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await zones.create(org, { name: `Zone ${i}`, geometry: FIJI }))!.id);
      const seen: string[] = [];
      let after: readonly [string, string] | undefined;
      do {
        const page = await zones.list(org, { limit: 2, after });
        seen.push(...page.data.map((z) => z.id));
        assert.ok(page.data.every((z) => z.applies_to.fleet === true));
        after = page.next ?? undefined;
      } while (after);
      // Zones made in the same millisecond come by id.
      assert.deepEqual(seen, (await zones.list(org, { limit: 10 })).data.map((z) => z.id));
      assert.deepEqual([...seen].sort(), [...made].sort());
    });

    test(`an organisation keeps at most ${MAX_ZONES} zones`, async () => {
      const org = newOwner();
      const now = new Date().toISOString();
      await handle.database.db.insertInto('zones').values(Array.from({ length: MAX_ZONES - 1 }, (_, i) => ({
        id: `zon_cap${org}${i}`, org_id: org, name: `Zone ${i}`, description: null, geometry: JSON.stringify(FIJI), applies_to: '{"fleet":true}', created_at: now, updated_at: now,
      }))).execute();
      assert.ok(await zones.create(org, { name: 'The last', geometry: SOLENT }));
      assert.equal(await zones.create(org, { name: 'One too many', geometry: SOLENT }), null);
      assert.ok(await zones.create(newOwner(), { name: 'Elsewhere', geometry: SOLENT }));
    });
  });
}
