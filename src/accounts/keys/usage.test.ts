import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import type { Principal } from '../../platform/http/auth.ts';
import { KeyStore } from './keys.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { Organisations } from '../organisations/organisations.ts';
import { listUsage, UsageMeter } from './usage.ts';

const HOUR = 3_600_000;
/** Longer than any test: flushes happen only when a test asks. */
const NO_TIMED_FLUSH = { flushEveryMs: 24 * HOUR };

for (const backend of STORAGE_BACKENDS) {
  describe(`usage on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now: number;
    const clock = () => now;
    let orgId: string;
    let first: Principal;
    let second: Principal;

    before(async () => {
      handle = await backend.open([accountsMigration]);
    });
    const usage = async (from: string, to: string) => (await listUsage(handle.database, orgId, from, to)).map((row) => ({ ...row }));
    after(() => handle.cleanup());
    beforeEach(async () => {
      now = Date.parse('2026-07-10T23:00:00.000Z');
      orgId = (await new Organisations(handle.database).create({ name: 'Metered', plan: 'pro', actor: 'operator' })).id;
      const keys = new KeyStore(handle.database);
      const principal = async (environment: 'development' | 'production'): Promise<Principal> => {
        const created = await keys.createKey({ orgId, environment, name: environment, actor: 'operator' });
        assert.equal(created.status, 'created');
        const check = created.status === 'created' ? await keys.verify(created.secret) : undefined;
        assert.equal(check?.ok, true);
        return (check as { principal: Principal }).principal;
      };
      first = await principal('production');
      second = await principal('development');
    });

    test('requests and streams are counted per key and UTC day, and written only when flushed', async () => {
      const meter = new UsageMeter(handle.database, { clock, ...NO_TIMED_FLUSH });
      try {
        for (let i = 0; i < 3; i++) meter.record(first, 'request');
        meter.record(first, 'stream');
        meter.record(second, 'request');
        assert.deepEqual(await usage('2026-07-01', '2026-07-31'), []);
        await meter.flush();
        now += 2 * HOUR;
        meter.record(first, 'request');
        await meter.flush();
        const day = (key: Principal, d: string, requests: number, streams: number) => ({ day: d, key_id: key.key_id, requests, streams });
        const expected = [day(first, '2026-07-10', 3, 1), day(second, '2026-07-10', 1, 0), day(first, '2026-07-11', 1, 0)];
        const sorted = (rows: typeof expected) => [...rows].sort((a, b) => (a.day === b.day ? (a.key_id < b.key_id ? -1 : 1) : a.day < b.day ? -1 : 1));
        assert.deepEqual(await usage('2026-07-01', '2026-07-31'), sorted(expected));
        assert.deepEqual(await usage('2026-07-11', '2026-07-11'), [expected[2]]);
        await assert.rejects(listUsage(handle.database, orgId, '10 July', '2026-07-11'), RangeError);
      } finally {
        await meter.close();
      }
    });

    test('servers sharing the storage add to each other\'s counts; closing flushes', async () => {
      const one = new UsageMeter(handle.database, { clock, ...NO_TIMED_FLUSH });
      const other = handle.reopen();
      const two = new UsageMeter(other, { clock, ...NO_TIMED_FLUSH });
      try {
        one.record(first, 'request');
        two.record(first, 'request');
        two.record(first, 'request');
        await one.close();
        await two.close();
      } finally {
        await other.close();
      }
      assert.deepEqual(await usage('2026-07-10', '2026-07-10'), [{ day: '2026-07-10', key_id: first.key_id, requests: 3, streams: 0 }]);
    });

    test('the instance\'s own keys are not metered', async () => {
      const meter = new UsageMeter(handle.database, { clock, ...NO_TIMED_FLUSH });
      meter.record({ key_id: 'cfg_0123456789ab', organisation_id: null, environment: 'development', admin: true }, 'request');
      await meter.close();
      const rows = await handle.database.db.selectFrom('usage_daily').select('key_id').where('key_id', '=', 'cfg_0123456789ab').execute();
      assert.deepEqual(rows, []);
    });

    test('counts a flush could not write are kept for the next one', async () => {
      const meter = new UsageMeter(handle.database, { clock, ...NO_TIMED_FLUSH });
      // A key id the database does not know yet: the foreign key refuses the row.
      const pending: Principal = { ...first, key_id: 'key_notyetstored00' };
      meter.record(pending, 'request');
      await assert.rejects(meter.flush());
      meter.record(pending, 'stream');
      await handle.database.db
        .insertInto('api_keys')
        .values({
          id: pending.key_id, org_id: orgId, name: 'late', environment: 'production', prefix: 'lamis_live_', last4: 'abcd', secret_hash: 'f'.repeat(64),
          created_at: '2026-07-10T00:00:00.000Z', expires_at: null, revoked_at: null, last_used_at: null, rotated_from: null, overlap_until: null, created_by: null,
        })
        .execute();
      await meter.close();
      assert.deepEqual(await usage('2026-07-10', '2026-07-10'), [{ day: '2026-07-10', key_id: pending.key_id, requests: 1, streams: 1 }]);
    });
  });
}
