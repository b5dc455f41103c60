// Password-reset links on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL), on an
// injected clock: a link works once for an hour, a password change retires it, and completing a
// reset sets the password, ends every session and is audited, all or nothing.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { listAudit } from '../audit/audit.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { Organisations } from '../organisations/organisations.ts';
import { passwordResetsMigration } from '../migrations/0010_password_resets.ts';
import { PasswordResets } from './password-reset.ts';
import { SessionStore } from '../sessions/sessions.ts';
import { usersMigration } from '../migrations/0008_users.ts';
import { Users } from '../users/users.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

for (const backend of STORAGE_BACKENDS) {
  describe(`password resets on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now: number;
    const clock = () => now;
    let users: Users;
    let resets: PasswordResets;
    let sessions: SessionStore;
    let userId: string;
    let serial = 0;

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration, passwordResetsMigration]);
      assert.deepEqual(handle.migrated, ['0006_accounts', '0008_users', '0010_password_resets']);
      users = new Users(handle.database, clock);
      resets = new PasswordResets(handle.database, users, clock);
      sessions = new SessionStore(handle.database, { clock });
    });
    after(() => handle?.cleanup());
    beforeEach(async () => {
      now = Date.parse('2026-03-01T08:00:00.000Z');
      const email = `dispatcher${++serial}@example.com`;
      userId = (await users.signUp({ fullName: 'A B', email, emailKey: email, passwordHash: 'old hash' })).user.id;
    });

    test('a link works once: it sets the password, ends every session, and is audited in each organisation', async () => {
      await sessions.create(userId);
      await sessions.create(userId);
      const team = await new Organisations(handle.database, { clock }).create({ name: 'Harbour Ops', plan: 'pro', actor: 'operator' });
      await handle.database.db.insertInto('memberships').values({ org_id: team.id, user_id: userId, role: 'member', created_at: new Date(now).toISOString() }).execute();
      const { token, expiresAt } = await resets.issue(userId);
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(expiresAt, '2026-03-01T09:00:00.000Z');
      const stored = await handle.database.db.selectFrom('password_resets').selectAll().where('user_id', '=', userId).execute();
      assert.equal(stored.length, 1);
      assert.match(stored[0]!.token_hash, /^[0-9a-f]{64}$/);
      assert.notEqual(stored[0]!.token_hash, token);

      now += 10 * MINUTE;
      const checked = await resets.check(token);
      assert.equal(checked.status, 'valid');
      assert.equal(checked.status === 'valid' && checked.user.id, userId);
      const result = await resets.complete(token, 'new hash');
      assert.equal(result.status, 'reset');
      assert.equal(result.status === 'reset' && result.endedSessions, 2);

      const user = await users.get(userId);
      assert.equal(user?.password_hash, 'new hash');
      assert.equal(user?.password_changed_at, '2026-03-01T08:10:00.000Z');
      assert.equal((await sessions.list(userId, { limit: 10 })).data.length, 0);
      const memberships = await users.memberships(userId);
      assert.equal(memberships.length, 2);
      for (const { org_id } of memberships) {
        const [latest] = (await listAudit(handle.database, org_id)).data;
        assert.deepEqual([latest?.actor, latest?.action, latest?.target, latest?.detail], [`user:${userId}`, 'password.reset', userId, { ended_sessions: 2 }]);
      }

      assert.deepEqual(await resets.check(token), { status: 'used' });
      assert.deepEqual(await resets.complete(token, 'another hash'), { status: 'used' });
      assert.equal((await users.get(userId))?.password_hash, 'new hash');
    });

    test('a link expires after an hour', async () => {
      const { token } = await resets.issue(userId);
      now += HOUR;
      assert.deepEqual(await resets.check(token), { status: 'expired' });
      assert.deepEqual(await resets.complete(token, 'new hash'), { status: 'expired' });
      assert.equal((await users.get(userId))?.password_hash, 'old hash');
      // The next link clears the expired ones away.
      await resets.issue(userId);
      assert.deepEqual(await resets.check(token), { status: 'unknown' });
    });

    test('every link sent works until one is used; then the others are gone', async () => {
      const first = await resets.issue(userId);
      now += MINUTE;
      const second = await resets.issue(userId);
      assert.equal((await resets.check(first.token)).status, 'valid');
      assert.equal((await resets.complete(first.token, 'new hash')).status, 'reset');
      assert.deepEqual(await resets.check(second.token), { status: 'unknown' });
      assert.deepEqual(await resets.complete(second.token, 'other hash'), { status: 'unknown' });
    });

    test('a password change after the link was sent retires it', async () => {
      const { token } = await resets.issue(userId);
      now += MINUTE;
      await users.setPasswordHash(userId, 'changed while signed in');
      assert.deepEqual(await resets.check(token), { status: 'superseded' });
      assert.deepEqual(await resets.complete(token, 'new hash'), { status: 'superseded' });
      assert.equal((await users.get(userId))?.password_hash, 'changed while signed in');
    });

    test('of two completions racing with one link, exactly one sets its password', async () => {
      const { token } = await resets.issue(userId);
      const results = await Promise.all([resets.complete(token, 'hash one'), resets.complete(token, 'hash two')]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['reset', 'used']);
      const winner = results[0]!.status === 'reset' ? 'hash one' : 'hash two';
      assert.equal((await users.get(userId))?.password_hash, winner);
    });

    test('tokens that are not ours are unknown without a lookup', async () => {
      for (const token of ['', 'x', 'A'.repeat(43), `${'A'.repeat(42)}!`]) {
        assert.deepEqual(await resets.check(token), { status: 'unknown' });
        assert.deepEqual(await resets.complete(token, 'new hash'), { status: 'unknown' });
      }
    });
  });
}
