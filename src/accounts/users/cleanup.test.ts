// The clean-up of sign-ups never verified, on SQLite (always) and PostgreSQL
// (LAMIS_TEST_DATABASE_URL): what goes after the period, what stays, and an organisation that
// holds more than a sign-up kept without the account.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import type { Tables } from '../../platform/db/database.ts';
import { listAudit } from '../audit/audit.ts';
import { UnverifiedAccountCleanup } from './cleanup.ts';
import { EmailVerifications } from '../onboarding/email-verification.ts';
import { KeyStore } from '../keys/keys.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { Organisations } from '../organisations/organisations.ts';
import { passwordResetsMigration } from '../migrations/0010_password_resets.ts';
import { PasswordResets } from '../password-reset/password-reset.ts';
import { SessionStore } from '../sessions/sessions.ts';
import { Throttle } from '../sessions/throttle.ts';
import { usersMigration } from '../migrations/0008_users.ts';
import { Users } from './users.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-20T12:00:00.000Z');

for (const backend of STORAGE_BACKENDS) {
  describe(`unverified account clean-up on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now = NOW;
    const clock = () => now;
    let users: Users;
    let serial = 0;

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration, passwordResetsMigration]);
      users = new Users(handle.database, clock);
    });
    after(() => handle?.cleanup());

    /** A sign-up made `daysAgo` days before NOW, with a session, a verification link and a reset link. */
    async function signUp(daysAgo: number, email = `pilot${++serial}@example.com`) {
      now = NOW - daysAgo * DAY;
      const { user, existing } = await users.signUp({ fullName: 'Anna Eriksson', email, emailKey: email.toLowerCase(), passwordHash: 'hash' });
      await new SessionStore(handle.database, { clock }).create(user.id);
      await new EmailVerifications(handle.database, new Throttle(handle.database, clock), clock).issue(user.id);
      await new PasswordResets(handle.database, users, clock).issue(user.id);
      const [membership] = await users.memberships(user.id);
      now = NOW;
      return { user, existing, orgId: membership!.org_id };
    }

    async function verify(userId: string): Promise<void> {
      await handle.database.db.updateTable('users').set({ email_verified_at: new Date(now).toISOString() }).where('id', '=', userId).execute();
    }

    async function rowsOf(table: keyof Tables & ('sessions' | 'email_verifications' | 'password_resets' | 'memberships'), userId: string): Promise<number> {
      return (await handle.database.db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute()).length;
    }

    const sweep = (days = 7) => new UnverifiedAccountCleanup(handle.database, { maxAgeDays: days, clock }).sweep();
    const organisation = (id: string) => new Organisations(handle.database).get(id);

    test('an account unverified after the period goes with its organisation, sessions and links; younger and verified ones stay', async () => {
      const abandoned = await signUp(8);
      const young = await signUp(6);
      const verified = await signUp(30);
      await verify(verified.user.id);

      assert.deepEqual(await sweep(), { users: 1, organisations: 1 });
      assert.equal(await users.get(abandoned.user.id), undefined);
      assert.equal(await organisation(abandoned.orgId), undefined);
      assert.deepEqual((await listAudit(handle.database, abandoned.orgId)).data, []);
      for (const table of ['sessions', 'email_verifications', 'password_resets', 'memberships'] as const) {
        assert.equal(await rowsOf(table, abandoned.user.id), 0, table);
      }
      for (const kept of [young, verified]) {
        assert.ok(await users.get(kept.user.id));
        assert.ok(await organisation(kept.orgId));
        assert.equal(await rowsOf('sessions', kept.user.id), 1);
      }
      // The period is a setting.
      assert.deepEqual(await sweep(5), { users: 1, organisations: 1 });
      assert.equal(await users.get(young.user.id), undefined);
      assert.deepEqual(await sweep(), { users: 0, organisations: 0 });
    });

    test('duplicate sign-ups never verify, so they go after the period; the owner of the address stays', async () => {
      const owner = await signUp(20, 'harbour.master@example.org');
      await verify(owner.user.id);
      const shadow = await signUp(8, 'Harbour.Master@example.org');
      assert.equal(shadow.user.duplicate_of, owner.user.id);
      const recentShadow = await signUp(1, 'HARBOUR.MASTER@example.org');

      assert.deepEqual(await sweep(), { users: 1, organisations: 1 });
      assert.equal(await users.get(shadow.user.id), undefined);
      assert.equal(await organisation(shadow.orgId), undefined);
      assert.ok(await users.get(owner.user.id));
      assert.ok(await users.get(recentShadow.user.id));
    });

    test('an unverified owner takes the duplicates of its address along, however recent', async () => {
      const owner = await signUp(9, 'deckhand@example.org');
      const shadow = await signUp(2, 'Deckhand@example.org');
      assert.equal(shadow.user.duplicate_of, owner.user.id);

      assert.deepEqual(await sweep(), { users: 2, organisations: 2 });
      assert.equal(await users.get(owner.user.id), undefined);
      assert.equal(await users.get(shadow.user.id), undefined);
      assert.equal(await organisation(shadow.orgId), undefined);
    });

    test('an organisation with more than the sign-up in it stays, without the account, and says so in its audit log', async () => {
      const withKey = await signUp(10);
      const key = await new KeyStore(handle.database, { clock }).createKey({ orgId: withKey.orgId, environment: 'production', name: 'dispatch', actor: 'operator' });
      assert.equal(key.status, 'created');
      const upgraded = await signUp(10);
      assert.equal((await new Organisations(handle.database, { clock }).setPlan(upgraded.orgId, 'pro', 'operator')).status, 'changed');

      assert.deepEqual(await sweep(), { users: 2, organisations: 0 });
      for (const kept of [withKey, upgraded]) {
        assert.equal(await users.get(kept.user.id), undefined);
        assert.ok(await organisation(kept.orgId));
        assert.equal(await rowsOf('memberships', kept.user.id), 0);
        const [latest] = (await listAudit(handle.database, kept.orgId)).data;
        assert.deepEqual([latest?.actor, latest?.action, latest?.target, latest?.detail], ['system', 'member.removed', kept.user.id, { reason: 'email_never_verified' }]);
      }
    });

    test('a sweep walks past its first batch of a hundred', async () => {
      now = NOW - 8 * DAY;
      for (let i = 0; i < 130; i++) {
        const email = `batch${i}@example.com`;
        await users.signUp({ fullName: 'Batch Sign-up', email, emailKey: email, passwordHash: 'hash' });
      }
      now = NOW;
      assert.deepEqual(await sweep(), { users: 130, organisations: 130 });
    });

    test('the schedule sweeps at start and close waits for it', async () => {
      const abandoned = await signUp(8);
      const cleanup = new UnverifiedAccountCleanup(handle.database, { maxAgeDays: 7, clock, everyMs: 60_000 });
      cleanup.start();
      await cleanup.close();
      assert.equal(await users.get(abandoned.user.id), undefined);
    });
  });
}
