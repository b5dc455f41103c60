// Sessions on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL), on an injected clock:
// idle and absolute ends, revocation, lists, and CSRF tokens.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { csrfTokenFor, csrfTokenMatches, SessionStore } from './sessions.ts';
import { usersMigration } from '../migrations/0008_users.ts';
import { Users } from '../users/users.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

test('CSRF tokens belong to one session secret', () => {
  const secret = 'a'.repeat(43);
  const token = csrfTokenFor(secret);
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(csrfTokenMatches(secret, token), true);
  assert.equal(csrfTokenMatches('b'.repeat(43), token), false);
  assert.equal(csrfTokenMatches(secret, undefined), false);
  assert.equal(csrfTokenMatches(secret, token.slice(1)), false);
  assert.equal(csrfTokenMatches(secret, secret), false);
});

for (const backend of STORAGE_BACKENDS) {
  describe(`sessions on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now: number;
    let sessions: SessionStore;
    let userId: string;
    let serial = 0;

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration]);
      sessions = new SessionStore(handle.database, { clock: () => now });
    });
    after(() => handle?.cleanup());
    beforeEach(async () => {
      now = Date.parse('2026-03-01T08:00:00.000Z');
      const email = `pilot${++serial}@example.com`;
      userId = (await new Users(handle.database).signUp({ fullName: 'A B', email, emailKey: email, passwordHash: 'x' })).user.id;
    });

    test('a session opens with its secret only, and records the client', async () => {
      const { session, secret } = await sessions.create(userId, { userAgent: 'Mozilla/5.0', address: '192.0.2.1' });
      assert.match(session.id, /^ses_[0-9A-Za-z]{16}$/);
      assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(session.secret_hash, secret);
      assert.equal(session.expires_at, '2026-03-01T20:00:00.000Z');
      const check = await sessions.authenticate(secret);
      assert.ok(check.ok);
      assert.deepEqual([check.session.id, check.session.user_agent, check.session.address], [session.id, 'Mozilla/5.0', '192.0.2.1']);
      assert.deepEqual(await sessions.authenticate('b'.repeat(43)), { ok: false, reason: 'unknown' });
      assert.deepEqual(await sessions.authenticate('short'), { ok: false, reason: 'unknown' });
    });

    test('ends after 30 minutes without a request', async () => {
      const { secret } = await sessions.create(userId);
      now += 29 * MINUTE;
      assert.equal((await sessions.authenticate(secret)).ok, true);
      now += 29 * MINUTE;
      assert.equal((await sessions.authenticate(secret)).ok, true);
      now += 30 * MINUTE;
      assert.deepEqual(await sessions.authenticate(secret), { ok: false, reason: 'expired' });
    });

    test('records activity at most once a minute', async () => {
      const { session, secret } = await sessions.create(userId);
      now += 30_000;
      const early = await sessions.authenticate(secret);
      assert.equal(early.ok && early.session.last_seen_at, session.last_seen_at);
      now += 40_000;
      const later = await sessions.authenticate(secret);
      assert.equal(later.ok && later.session.last_seen_at, new Date(now).toISOString());
    });

    test('ends 12 hours after sign-in, however busy', async () => {
      const { secret } = await sessions.create(userId);
      for (let i = 0; i < 12 * 3; i++) {
        now += 20 * MINUTE;
        const check = await sessions.authenticate(secret);
        if (i < 12 * 3 - 1) assert.equal(check.ok, true, `after ${(i + 1) * 20} minutes`);
        else assert.deepEqual(check, { ok: false, reason: 'expired' });
      }
    });

    test('a new sign-in clears away the user\'s sessions past their end', async () => {
      const old = await sessions.create(userId);
      now += 12 * HOUR;
      await sessions.create(userId);
      const ids = (await handle.database.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).map((r) => r.id);
      assert.equal(ids.length, 1);
      assert.ok(!ids.includes(old.session.id));
    });

    test('other lifetimes can be set', async () => {
      const short = new SessionStore(handle.database, { clock: () => now, idleMs: 5 * MINUTE, absoluteMs: HOUR });
      const { session, secret } = await short.create(userId);
      assert.equal(session.expires_at, '2026-03-01T09:00:00.000Z');
      now += 6 * MINUTE;
      assert.deepEqual(await short.authenticate(secret), { ok: false, reason: 'expired' });
    });

    test('revoking ends a session; revoking the others keeps one', async () => {
      const a = await sessions.create(userId);
      const b = await sessions.create(userId);
      const c = await sessions.create(userId);
      assert.equal(await sessions.revoke(userId, a.session.id), true);
      assert.equal(await sessions.revoke(userId, a.session.id), false);
      assert.deepEqual(await sessions.authenticate(a.secret), { ok: false, reason: 'revoked' });
      assert.equal(await sessions.revokeOthers(userId, c.session.id), 1);
      assert.deepEqual(await sessions.authenticate(b.secret), { ok: false, reason: 'revoked' });
      assert.equal((await sessions.authenticate(c.secret)).ok, true);
    });

    test("nobody revokes another user's session", async () => {
      const mine = await sessions.create(userId);
      const email = `other${serial}@example.com`;
      const other = (await new Users(handle.database).signUp({ fullName: 'C D', email, emailKey: email, passwordHash: 'x' })).user.id;
      assert.equal(await sessions.revoke(other, mine.session.id), false);
      assert.equal((await sessions.authenticate(mine.secret)).ok, true);
    });

    test('lists live sessions newest first, page by page', async () => {
      const made = [];
      for (let i = 0; i < 5; i++) {
        made.push(await sessions.create(userId));
        now += MINUTE;
      }
      await sessions.revoke(userId, made[1]!.session.id);
      const first = await sessions.list(userId, { limit: 2 });
      assert.deepEqual(first.data.map((s) => s.id), [made[4]!.session.id, made[3]!.session.id]);
      const second = await sessions.list(userId, { limit: 2, before: first.next! });
      assert.deepEqual(second.data.map((s) => s.id), [made[2]!.session.id, made[0]!.session.id]);
      assert.equal(second.next, null);
      assert.equal(first.data[0]!.idle_expires_at, new Date(Date.parse(first.data[0]!.last_seen_at) + 30 * MINUTE).toISOString());
      // Idle ones drop out of the list.
      now += 28 * MINUTE;
      assert.deepEqual((await sessions.list(userId, { limit: 10 })).data.map((s) => s.id), [made[4]!.session.id]);
    });
  });
}
