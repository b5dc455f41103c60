import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import type { Principal } from '../../platform/http/auth.ts';
import { PLANS } from '../../../common/plans.ts';
import { listAudit } from '../audit/audit.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { Organisations, PLAN_CACHE_TTL_MS } from './organisations.ts';

for (const backend of STORAGE_BACKENDS) {
  describe(`organisations on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now: number;
    const clock = () => now;
    let orgs: Organisations;

    before(async () => {
      handle = await backend.open([accountsMigration]);
    });
    after(() => handle.cleanup());
    beforeEach(() => {
      now = Date.parse('2026-05-04T08:00:00.000Z');
      orgs = new Organisations(handle.database, { clock });
    });

    const keyOf = (organisation_id: string | null): Principal => ({ key_id: 'key_x', organisation_id, environment: 'production', admin: organisation_id === null });

    test('create stores the organisation and audits it', async () => {
      const org = await orgs.create({ name: ' Coastal Freight ', plan: 'starter', actor: 'user:usr_1' });
      assert.match(org.id, /^org_[0-9A-Za-z]{16}$/);
      assert.deepEqual(org, { id: org.id, name: 'Coastal Freight', plan: 'starter', created_at: '2026-05-04T08:00:00.000Z' });
      assert.deepEqual({ ...(await orgs.get(org.id)) }, org);
      assert.equal(await orgs.get('org_nosuchorg00000'), undefined);
      const audit = await listAudit(handle.database, org.id);
      assert.deepEqual(audit.data.map((e) => [e.action, e.actor, e.target, e.detail]), [['org.created', 'user:usr_1', org.id, { name: 'Coastal Freight', plan: 'starter' }]]);
    });

    test('create refuses an empty name and an unknown plan', async () => {
      await assert.rejects(orgs.create({ name: '  ', plan: 'pro', actor: 'operator' }), RangeError);
      await assert.rejects(orgs.create({ name: 'x', plan: 'gold' as 'pro', actor: 'operator' }), /unknown plan "gold"/);
    });

    test('a plan change is audited with what it was and who changed it; setting the same plan changes nothing', async () => {
      const org = await orgs.create({ name: 'Tugs Ltd', plan: 'starter', actor: 'operator' });
      now += 1000;
      assert.deepEqual(await orgs.setPlan(org.id, 'pro', 'user:usr_owner'), { status: 'changed', organisation: { ...org, plan: 'pro' }, previous: 'starter' });
      assert.equal((await orgs.get(org.id))!.plan, 'pro');
      const same = await orgs.setPlan(org.id, 'pro', 'operator');
      assert.equal(same.status, 'unchanged');
      assert.deepEqual(same.status === 'unchanged' && { ...same.organisation }, { ...org, plan: 'pro' });
      assert.deepEqual(await orgs.setPlan('org_nosuchorg00000', 'pro', 'operator'), { status: 'not_found' });
      const audit = await listAudit(handle.database, org.id);
      assert.deepEqual(audit.data.map((e) => [e.action, e.actor, e.detail, e.at]), [
        ['plan.changed', 'user:usr_owner', { from: 'starter', to: 'pro' }, '2026-05-04T08:00:01.000Z'],
        ['org.created', 'operator', { name: 'Tugs Ltd', plan: 'starter' }, '2026-05-04T08:00:00.000Z'],
      ]);
    });

    test('concurrent plan changes each log the plan they replaced', async () => {
      const org = await orgs.create({ name: 'Race', plan: 'starter', actor: 'operator' });
      // Node's SQLite is synchronous, so a second connection in this process would wait on the first
      // while blocking it; on one connection the two changes still interleave between read and write.
      const other = backend.name === 'SQLite' ? handle.database : handle.reopen();
      try {
        const results = await Promise.all([orgs.setPlan(org.id, 'pro', 'operator'), new Organisations(other, { clock }).setPlan(org.id, 'enterprise', 'operator')]);
        assert.deepEqual(results.map((r) => r.status), ['changed', 'changed']);
      } finally {
        if (other !== handle.database) await other.close();
      }
      const changes = (await listAudit(handle.database, org.id)).data.filter((e) => e.action === 'plan.changed').reverse();
      assert.equal(changes.length, 2);
      assert.equal(changes[0]!.detail.from, 'starter');
      assert.equal(changes[1]!.detail.from, changes[0]!.detail.to);
      assert.equal((await orgs.get(org.id))!.plan, changes[1]!.detail.to);
    });

    test('planOf: the organisation\'s plan; none for the instance\'s configured keys', async () => {
      const org = await orgs.create({ name: 'Plans', plan: 'starter', actor: 'operator' });
      assert.equal(await orgs.planOf(keyOf(null)), null);
      assert.equal(await orgs.planOf(keyOf(org.id)), PLANS.starter);
      await orgs.setPlan(org.id, 'enterprise', 'operator');
      assert.equal(await orgs.planOf(keyOf(org.id)), PLANS.enterprise);
    });

    test('planOf sees a change made by another process within the cache time', async () => {
      const org = await orgs.create({ name: 'Cached', plan: 'starter', actor: 'operator' });
      assert.equal(await orgs.planOf(keyOf(org.id)), PLANS.starter);
      await new Organisations(handle.database, { clock }).setPlan(org.id, 'pro', 'operator');
      now += PLAN_CACHE_TTL_MS - 1;
      assert.equal(await orgs.planOf(keyOf(org.id)), PLANS.starter);
      now += 1;
      assert.equal(await orgs.planOf(keyOf(org.id)), PLANS.pro);
    });
  });
}
