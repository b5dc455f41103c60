import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { ProblemError } from '../../platform/http/problems.ts';
import { appendAudit, listAudit, type AuditEntry } from './audit.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { Organisations } from '../organisations/organisations.ts';

for (const backend of STORAGE_BACKENDS) {
  describe(`audit log on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let orgId: string;
    let otherId: string;

    before(async () => {
      handle = await backend.open([accountsMigration]);
      const orgs = new Organisations(handle.database, { clock: () => Date.parse('2026-01-01T00:00:00.000Z') });
      orgId = (await orgs.create({ name: 'Audited', plan: 'pro', actor: 'operator' })).id;
      otherId = (await orgs.create({ name: 'Other', plan: 'pro', actor: 'operator' })).id;
      // All in the same millisecond: the log keeps the order they were written in.
      for (const n of [1, 2, 3, 4, 5]) {
        await appendAudit(handle.database.db, { orgId, actor: `user:usr_${n}`, action: 'member.added', target: `usr_${n}`, detail: { role: 'admin' }, at: '2026-01-02T00:00:00.000Z' });
      }
      await appendAudit(handle.database.db, { orgId: otherId, actor: 'operator', action: 'identity.result', target: 'usr_9', at: '2026-01-02T00:00:00.000Z' });
    });
    after(() => handle.cleanup());

    test('lists an organisation\'s entries newest first, page by page', async () => {
      const seen: AuditEntry[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await listAudit(handle.database, orgId, { limit: 2, cursor });
        assert.ok(page.data.length <= 2);
        seen.push(...page.data);
        cursor = page.next_cursor ?? undefined;
        pages++;
      } while (cursor !== undefined);
      assert.equal(pages, 3);
      assert.deepEqual(seen.map((e) => e.actor), ['user:usr_5', 'user:usr_4', 'user:usr_3', 'user:usr_2', 'user:usr_1', 'operator']);
      assert.deepEqual(seen[0]!.detail, { role: 'admin' });
      assert.deepEqual(seen, (await listAudit(handle.database, orgId)).data);
    });

    test('another organisation\'s entries are not listed', async () => {
      const other = await listAudit(handle.database, otherId);
      assert.deepEqual(other.data.map((e) => [e.action, e.detail]), [['identity.result', {}], ['org.created', { name: 'Other', plan: 'pro' }]]);
      assert.equal(other.next_cursor, null);
    });

    test('a cursor that is not a next_cursor is a 400 problem', async () => {
      await assert.rejects(listAudit(handle.database, orgId, { cursor: 'bm90LWEtY3Vyc29y' }), (error) => {
        assert.ok(error instanceof ProblemError);
        assert.equal(error.type.code, 'invalid_cursor');
        return true;
      });
    });
  });
}
