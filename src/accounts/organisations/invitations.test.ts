import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { listAudit } from '../audit/audit.ts';
import { INVITATION_LIMITS, INVITATION_TTL_MS, Invitations, invitationMail } from './invitations.ts';
import { Members } from './members.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { Organisations } from './organisations.ts';
import { teamsMigration } from '../migrations/0009_teams.ts';
import { Throttle } from '../sessions/throttle.ts';
import { usersMigration } from '../migrations/0008_users.ts';
import type { Role } from './roles.ts';
import type { UserRow } from '../users/users.table.ts';
import { Users } from '../users/users.ts';

for (const backend of STORAGE_BACKENDS) {
  describe(`invitations on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now: number;
    const clock = () => now;
    let users: Users;
    let invitations: Invitations;
    let members: Members;
    let serial = 0;

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration, teamsMigration]);
    });
    after(() => handle.cleanup());
    beforeEach(() => {
      now = Date.parse('2026-05-04T08:00:00.000Z');
      users = new Users(handle.database, clock);
      invitations = new Invitations(handle.database, new Throttle(handle.database, clock), clock);
      members = new Members(handle.database, clock);
    });

    async function signUp(email = `person${++serial}@example.com`): Promise<{ user: UserRow; orgId: string }> {
      const { user } = await users.signUp({ fullName: `Person ${serial}`, email, emailKey: email.toLowerCase(), passwordHash: 'not a real hash' });
      const [own] = await users.memberships(user.id);
      return { user, orgId: own!.org_id };
    }

    /** An owner whose organisation is on Pro. */
    async function proOwner() {
      const owner = await signUp();
      await new Organisations(handle.database).setPlan(owner.orgId, 'pro', 'operator');
      return owner;
    }

    const invite = (orgId: string, email: string, role: Role, inviterId: string) =>
      invitations.invite({ orgId, email, emailKey: email.toLowerCase(), role, inviterId });

    test('an invitation is previewed, then accepted once by the account with its address', async () => {
      const owner = await proOwner();
      const invited = await invite(owner.orgId, 'Pilot.One@example.com', 'member', owner.user.id);
      assert.equal(invited.status, 'invited');
      if (invited.status !== 'invited') return;
      assert.match(invited.token, /^[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(invited.invitation, {
        id: invited.invitation.id, email: 'Pilot.One@example.com', role: 'member', invited_by: owner.user.id,
        created_at: '2026-05-04T08:00:00.000Z', expires_at: new Date(now + INVITATION_TTL_MS).toISOString(),
      });
      // Only the hash of the token is stored.
      const stored = JSON.stringify(await handle.database.db.selectFrom('invitations').selectAll().execute());
      assert.ok(!stored.includes(invited.token));

      const preview = await invitations.preview(invited.token);
      assert.deepEqual(preview, { status: 'open', preview: {
        organisation_name: `Person ${serial}`, email: 'Pilot.One@example.com', role: 'member', invited_by_name: owner.user.full_name, expires_at: invited.invitation.expires_at,
      } });

      const someoneElse = await signUp();
      assert.deepEqual(await invitations.accept(invited.token, someoneElse.user), { status: 'wrong_address' });
      const pilot = await signUp('pilot.one@EXAMPLE.com');
      now += 60_000;
      const accepted = await invitations.accept(invited.token, pilot.user);
      assert.equal(accepted.status, 'accepted');
      assert.equal((await members.access(owner.orgId, pilot.user.id))?.role, 'member');
      assert.deepEqual(await invitations.accept(invited.token, pilot.user), { status: 'used' });
      assert.deepEqual(await invitations.preview(invited.token), { status: 'used' });
      assert.deepEqual(await invitations.preview('x'.repeat(43)), { status: 'unknown' });
      assert.deepEqual(await invitations.accept('not a token', pilot.user), { status: 'unknown' });
      assert.deepEqual((await invitations.list(owner.orgId, { limit: 10 })).data, []);

      const log = await listAudit(handle.database, owner.orgId, { limit: 2 });
      assert.deepEqual(log.data.map((e) => [e.action, e.actor, e.target, e.detail]), [
        ['member.added', `user:${pilot.user.id}`, pilot.user.id, { role: 'member', invitation_id: invited.invitation.id, invited_by: owner.user.id }],
        ['member.invited', `user:${owner.user.id}`, invited.invitation.id, { email: 'Pilot.One@example.com', role: 'member', replaces: null }],
      ]);
    });

    test('Starter organisations cannot invite, and an invitation waits while its organisation is on Starter', async () => {
      const starter = await signUp();
      assert.deepEqual(await invite(starter.orgId, 'a@example.com', 'member', starter.user.id), { status: 'plan', plan: 'starter' });
      const owner = await proOwner();
      const invited = await invite(owner.orgId, 'late@example.com', 'viewer', owner.user.id);
      assert.equal(invited.status, 'invited');
      if (invited.status !== 'invited') return;
      await new Organisations(handle.database).setPlan(owner.orgId, 'starter', 'operator');
      const late = await signUp('late@example.com');
      assert.deepEqual(await invitations.accept(invited.token, late.user), { status: 'plan', plan: 'starter' });
      await new Organisations(handle.database).setPlan(owner.orgId, 'enterprise', 'operator');
      assert.equal((await invitations.accept(invited.token, late.user)).status, 'accepted');
    });

    test('who may invite whom', async () => {
      const owner = await proOwner();
      const admin = await signUp();
      const viewer = await signUp();
      const at = new Date(now).toISOString();
      await handle.database.db.insertInto('memberships').values([
        { org_id: owner.orgId, user_id: admin.user.id, role: 'admin', created_at: at },
        { org_id: owner.orgId, user_id: viewer.user.id, role: 'viewer', created_at: at },
      ]).execute();
      assert.deepEqual(await invite(owner.orgId, 'x@example.com', 'owner', admin.user.id), { status: 'forbidden', role: 'admin' });
      assert.equal((await invite(owner.orgId, 'x@example.com', 'admin', admin.user.id)).status, 'invited');
      assert.equal((await invite(owner.orgId, 'y@example.com', 'owner', owner.user.id)).status, 'invited');
      assert.deepEqual(await invite(owner.orgId, 'z@example.com', 'viewer', viewer.user.id), { status: 'forbidden', role: 'viewer' });
      const stranger = await signUp();
      assert.deepEqual(await invite(owner.orgId, 'z@example.com', 'viewer', stranger.user.id), { status: 'not_member' });
      assert.deepEqual(await invite(owner.orgId, admin.user.email.toUpperCase(), 'member', owner.user.id), { status: 'already_member' });
    });

    test('a new invitation to the same address replaces the open one; revoked and expired links stop working', async () => {
      const owner = await proOwner();
      const first = await invite(owner.orgId, 'crew@example.com', 'member', owner.user.id);
      now += 1000;
      const second = await invite(owner.orgId, 'CREW@example.com', 'admin', owner.user.id);
      assert.ok(first.status === 'invited' && second.status === 'invited');
      assert.equal(second.replaced, first.invitation.id);
      assert.deepEqual(await invitations.preview(first.token), { status: 'revoked' });
      assert.deepEqual((await invitations.list(owner.orgId, { limit: 10 })).data.map((i) => i.id), [second.invitation.id]);

      assert.deepEqual(await invitations.revoke(owner.orgId, first.invitation.id, owner.user.id), { status: 'not_found' });
      const other = await proOwner();
      assert.deepEqual(await invitations.revoke(other.orgId, second.invitation.id, other.user.id), { status: 'not_found' });
      assert.equal((await invitations.revoke(owner.orgId, second.invitation.id, owner.user.id)).status, 'revoked');
      assert.deepEqual(await invitations.preview(second.token), { status: 'revoked' });
      const crew = await signUp('crew@example.com');
      assert.deepEqual(await invitations.accept(second.token, crew.user), { status: 'revoked' });

      const third = await invite(owner.orgId, 'crew@example.com', 'viewer', owner.user.id);
      assert.ok(third.status === 'invited');
      now += INVITATION_TTL_MS;
      assert.deepEqual(await invitations.preview(third.token), { status: 'expired' });
      assert.deepEqual(await invitations.accept(third.token, crew.user), { status: 'expired' });
      assert.deepEqual((await invitations.list(owner.orgId, { limit: 10 })).data, []);
      assert.deepEqual(await invitations.revoke(owner.orgId, third.invitation.id, owner.user.id), { status: 'not_found' });
    });

    test('open invitations are listed newest first, page by page', async () => {
      const owner = await proOwner();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        now += 1000;
        const result = await invite(owner.orgId, `crew${i}@example.com`, 'member', owner.user.id);
        assert.ok(result.status === 'invited');
        ids.unshift(result.invitation.id);
      }
      const first = await invitations.list(owner.orgId, { limit: 3 });
      const second = await invitations.list(owner.orgId, { limit: 3, before: first.next! });
      assert.deepEqual([...first.data, ...second.data].map((i) => i.id), ids);
      assert.equal(second.next, null);
    });

    test('an organisation may send 50 invitations a day', async () => {
      const owner = await proOwner();
      assert.equal(INVITATION_LIMITS[0]!.count, 50);
      for (let i = 0; i < 50; i++) assert.equal((await invite(owner.orgId, `bulk${i}@example.com`, 'viewer', owner.user.id)).status, 'invited');
      const refused = await invite(owner.orgId, 'bulk50@example.com', 'viewer', owner.user.id);
      assert.deepEqual(refused, { status: 'throttled', retryAfterSeconds: 24 * 3600 });
      now += 24 * 3_600_000;
      assert.equal((await invite(owner.orgId, 'bulk50@example.com', 'viewer', owner.user.id)).status, 'invited');
    });
  });
}

test('the invitation mail names the organisation, the inviter, the role, the link and how to accept', () => {
  const mail = invitationMail('crew@example.com', {
    organisation: 'North Sea Ferries', inviter: 'Olga Owner', role: 'admin', link: 'https://lamis.example/v3/accounts/invitations/preview?token=abc', expiresAt: '2026-05-11T08:00:00.000Z',
  });
  assert.equal(mail.to, 'crew@example.com');
  assert.equal(mail.subject, 'Olga Owner invited you to North Sea Ferries on LAMIS');
  assert.match(mail.text, /join North Sea Ferries on LAMIS as an admin\./);
  assert.match(mail.text, /^https:\/\/lamis\.example\/v3\/accounts\/invitations\/preview\?token=abc$/m);
  assert.match(mail.text, /sign up with this\naddress and verify it first/);
  assert.match(mail.text, /until 2026-05-11 08:00 UTC \(7 days\)/);
});
