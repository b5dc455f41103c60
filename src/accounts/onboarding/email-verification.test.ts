// Verification links and the throttle under them, on SQLite (always) and PostgreSQL
// (LAMIS_TEST_DATABASE_URL), on an injected clock.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { EmailVerifications } from './email-verification.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { Throttle } from '../sessions/throttle.ts';
import { usersMigration } from '../migrations/0008_users.ts';
import { Users } from '../users/users.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

for (const backend of STORAGE_BACKENDS) {
  describe(`e-mail verification on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now: number;
    const clock = () => now;
    let throttle: Throttle;
    let verifications: EmailVerifications;
    let users: Users;
    let userId: string;
    let serial = 0;

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration]);
      throttle = new Throttle(handle.database, clock);
      verifications = new EmailVerifications(handle.database, throttle, clock);
      users = new Users(handle.database, clock);
    });
    after(() => handle?.cleanup());
    beforeEach(async () => {
      now = Date.parse('2026-03-01T08:00:00.000Z');
      const email = `pilot${++serial}@example.com`;
      userId = (await users.signUp({ fullName: 'A B', email, emailKey: email, passwordHash: 'x' })).user.id;
    });

    async function issued() {
      const result = await verifications.issue(userId);
      assert.equal(result.status, 'issued');
      return result.status === 'issued' ? result : assert.fail();
    }

    test('a link verifies the address once', async () => {
      const { token, expiresAt } = await issued();
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(expiresAt, '2026-03-02T08:00:00.000Z');
      now += HOUR;
      assert.deepEqual(await verifications.redeem(token), { status: 'verified', userId });
      assert.equal((await users.get(userId))?.email_verified_at, '2026-03-01T09:00:00.000Z');
      assert.deepEqual(await verifications.redeem(token), { status: 'used' });
    });

    test('a link expires after 24 hours', async () => {
      const { token } = await issued();
      now += 24 * HOUR;
      assert.deepEqual(await verifications.redeem(token), { status: 'expired' });
      assert.equal((await users.get(userId))?.email_verified_at, null);
      // Asking for a new link clears the expired ones away.
      await issued();
      assert.deepEqual(await verifications.redeem(token), { status: 'unknown' });
    });

    test('unknown and malformed tokens verify nothing', async () => {
      assert.deepEqual(await verifications.redeem('A'.repeat(43)), { status: 'unknown' });
      assert.deepEqual(await verifications.redeem('not a token'), { status: 'unknown' });
    });

    test('an older link still works after a resend; the other links die with the verification', async () => {
      const first = await issued();
      now += 2 * MINUTE;
      const second = await issued();
      assert.deepEqual(await verifications.redeem(first.token), { status: 'verified', userId });
      assert.deepEqual(await verifications.redeem(second.token), { status: 'unknown' });
    });

    test('links go out at most once a minute and five times a day', async () => {
      await issued();
      now += 30_000;
      assert.deepEqual(await verifications.issue(userId), { status: 'throttled', retryAfterSeconds: 30 });
      for (let i = 0; i < 4; i++) {
        now += MINUTE;
        await issued();
      }
      now += MINUTE;
      // The fifth went out 4.5 minutes after the first: the sixth may go 24 hours after the first.
      const refused = await verifications.issue(userId);
      assert.equal(refused.status, 'throttled');
      assert.equal(refused.status === 'throttled' && refused.retryAfterSeconds, 24 * 3600 - 330);
      now = Date.parse('2026-03-02T08:00:00.001Z');
      await issued();
    });
  });

  describe(`throttle on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now = Date.parse('2026-03-01T08:00:00.000Z');
    let throttle: Throttle;
    const limits = [{ count: 3, windowMs: 15 * MINUTE }];

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration]);
      throttle = new Throttle(handle.database, () => now);
    });
    after(() => handle?.cleanup());

    test('counts per subject over a sliding window, and forgets when cleared', async () => {
      for (let i = 0; i < 3; i++) {
        assert.equal(await throttle.retryAfterSeconds('sign-in:a', limits), 0);
        await throttle.record('sign-in:a');
        now += MINUTE;
      }
      // The oldest of the three leaves the window 15 minutes after it came: 12 minutes from now.
      assert.equal(await throttle.retryAfterSeconds('sign-in:a', limits), 12 * 60);
      assert.equal(await throttle.retryAfterSeconds('sign-in:b', limits), 0);
      now += 12 * MINUTE;
      assert.equal(await throttle.retryAfterSeconds('sign-in:a', limits), 0);
      await throttle.record('sign-in:a');
      assert.ok((await throttle.retryAfterSeconds('sign-in:a', limits)) > 0);
      await throttle.clear('sign-in:a');
      assert.equal(await throttle.retryAfterSeconds('sign-in:a', limits), 0);
    });

    test('keeps subjects only as hashes', async () => {
      await throttle.record('sign-in-account:anna@example.com');
      const rows = await handle.database.db.selectFrom('throttle_events').select('subject').execute();
      assert.ok(rows.length > 0);
      for (const row of rows) assert.match(row.subject, /^[0-9a-f]{64}$/);
    });
  });
}
