import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { listAudit } from '../audit/audit.ts';
import { Members } from './members.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { teamsMigration } from '../migrations/0009_teams.ts';
import { usersMigration } from '../migrations/0008_users.ts';
import type { Role } from './roles.ts';
import { Users } from '../users/users.ts';

for (const backend of STORAGE_BACKENDS) {
  describe(`organisation members on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now: number;
    const clock = () => now;
    let users: Users;
    let members: Members;
    let serial = 0;

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration, teamsMigration]);
    });
    after(() => handle.cleanup());
    beforeEach(() => {
      now = Date.parse('2026-05-04T08:00:00.000Z');
      users = new Users(handle.database, clock);
      members = new Members(handle.database, clock);
    });

    /** A new user and the organisation they own. */
    async function signUp(name: string): Promise<{ id: string; orgId: string }> {
      const email = `user${++serial}@example.com`;
      const { user } = await users.signUp({ fullName: name, email, emailKey: email, passwordHash: 'not a real hash' });
      const [own] = await users.memberships(user.id);
      return { id: user.id, orgId: own!.org_id };
    }

    /** An organisation with an owner and one member of each other role, joined a second apart. */
    async function team() {
      const owner = await signUp('Olga Owner');
      const others: Record<string, string> = {};
      for (const role of ['admin', 'member', 'viewer'] as const) {
        now += 1000;
        const user = await signUp(`${role} person`);
        await handle.database.db.insertInto('memberships').values({ org_id: owner.orgId, user_id: user.id, role, created_at: new Date(now).toISOString() }).execute();
        others[role] = user.id;
      }
      return { orgId: owner.orgId, owner: owner.id, admin: others.admin!, member: others.member!, viewer: others.viewer! };
    }

    const roleOf = async (orgId: string, userId: string) => (await members.get(orgId, userId))?.role;

    test('access gives the organisation and the role; none for someone outside it', async () => {
      const t = await team();
      const stranger = await signUp('Stan Stranger');
      const access = await members.access(t.orgId, t.viewer);
      assert.equal(access?.role, 'viewer');
      assert.equal(access?.organisation.id, t.orgId);
      assert.equal(access?.organisation.plan, 'starter');
      assert.equal(await members.access(t.orgId, stranger.id), undefined);
      assert.equal(await members.access(stranger.orgId, t.owner), undefined);
      assert.equal(await members.access('org_nosuchorg00000', t.owner), undefined);
    });

    test('members are listed oldest first, page by page', async () => {
      const t = await team();
      const first = await members.list(t.orgId, { limit: 3 });
      assert.deepEqual(first.data.map((m) => [m.user_id, m.role]), [[t.owner, 'owner'], [t.admin, 'admin'], [t.member, 'member']]);
      assert.equal(first.data[0]!.full_name, 'Olga Owner');
      assert.match(first.data[0]!.email, /^user\d+@example\.com$/);
      const second = await members.list(t.orgId, { limit: 3, after: first.next! });
      assert.deepEqual(second.data.map((m) => m.user_id), [t.viewer]);
      assert.equal(second.next, null);
    });

    test('owners change any role, admins only among admin, member and viewer', async () => {
      const t = await team();
      const change = (userId: string, role: Role, by: string) => members.changeRole(t.orgId, userId, role, by);
      assert.equal((await change(t.member, 'viewer', t.admin)).status, 'changed');
      assert.equal((await change(t.viewer, 'admin', t.admin)).status, 'changed');
      assert.deepEqual(await change(t.member, 'owner', t.admin), { status: 'forbidden', role: 'admin' });
      assert.deepEqual(await change(t.owner, 'admin', t.admin), { status: 'forbidden', role: 'admin' });
      assert.deepEqual(await change(t.admin, 'viewer', t.member), { status: 'forbidden', role: 'viewer' });
      assert.equal((await change(t.member, 'owner', t.owner)).status, 'changed');
      assert.equal(await roleOf(t.orgId, t.member), 'owner');
      const same = await change(t.member, 'owner', t.owner);
      assert.equal(same.status, 'unchanged');
      assert.equal((await change('usr_nosuchuser0000', 'viewer', t.owner)).status, 'not_found');
      const stranger = await signUp('Stan Stranger');
      assert.equal((await change(t.member, 'viewer', stranger.id)).status, 'not_member');
      const log = await listAudit(handle.database, t.orgId, { limit: 3 });
      assert.deepEqual(log.data.map((e) => [e.action, e.actor, e.target, e.detail]), [
        ['member.role_changed', `user:${t.owner}`, t.member, { from: 'viewer', to: 'owner' }],
        ['member.role_changed', `user:${t.admin}`, t.viewer, { from: 'viewer', to: 'admin' }],
        ['member.role_changed', `user:${t.admin}`, t.member, { from: 'member', to: 'viewer' }],
      ]);
    });

    test('the last owner can be neither demoted nor removed, and cannot leave', async () => {
      const t = await team();
      assert.deepEqual(await members.changeRole(t.orgId, t.owner, 'admin', t.owner), { status: 'last_owner' });
      assert.deepEqual(await members.remove(t.orgId, t.owner, t.owner), { status: 'last_owner' });
      assert.equal((await members.changeRole(t.orgId, t.admin, 'owner', t.owner)).status, 'changed');
      // With two owners, either may step down.
      assert.equal((await members.changeRole(t.orgId, t.owner, 'member', t.owner)).status, 'changed');
      assert.deepEqual(await members.remove(t.orgId, t.admin, t.admin), { status: 'last_owner' });
    });

    test('owners remove anyone, admins anyone but owners; everyone may leave', async () => {
      const t = await team();
      assert.deepEqual(await members.remove(t.orgId, t.owner, t.admin), { status: 'forbidden', role: 'admin' });
      assert.deepEqual(await members.remove(t.orgId, t.viewer, t.member), { status: 'forbidden', role: 'member' });
      assert.equal((await members.remove(t.orgId, t.viewer, t.viewer)).status, 'removed');
      assert.equal((await members.remove(t.orgId, t.member, t.admin)).status, 'removed');
      assert.equal((await members.remove(t.orgId, t.member, t.admin)).status, 'not_found');
      assert.equal((await members.remove(t.orgId, t.admin, t.owner)).status, 'removed');
      assert.equal((await members.remove(t.orgId, t.owner, t.admin)).status, 'not_member');
      assert.deepEqual((await members.list(t.orgId, { limit: 10 })).data.map((m) => m.user_id), [t.owner]);
      const log = await listAudit(handle.database, t.orgId, { limit: 3 });
      assert.deepEqual(log.data.map((e) => [e.action, e.actor, e.target, e.detail]), [
        ['member.removed', `user:${t.owner}`, t.admin, { role: 'admin', left: false }],
        ['member.removed', `user:${t.admin}`, t.member, { role: 'member', left: false }],
        ['member.removed', `user:${t.viewer}`, t.viewer, { role: 'viewer', left: true }],
      ]);
    });

    test('two owners demoting each other at once leave one owner', async () => {
      const t = await team();
      await members.changeRole(t.orgId, t.admin, 'owner', t.owner);
      const results = await Promise.all([
        members.changeRole(t.orgId, t.owner, 'member', t.admin),
        members.changeRole(t.orgId, t.admin, 'member', t.owner),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['changed', 'forbidden']);
      const roles = [await roleOf(t.orgId, t.owner), await roleOf(t.orgId, t.admin)].sort();
      assert.deepEqual(roles, ['member', 'owner']);
    });
  });
}
