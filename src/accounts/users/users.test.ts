// Users on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL): sign-up with its
// organisation and owner membership, duplicate sign-ups, the vehicle step and onboarding order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { listAudit } from '../audit/audit.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { usersMigration } from '../migrations/0008_users.ts';
import type { UserRow } from './users.table.ts';
import { checkedFullName, missingStepBefore, onboardingOf, Users, type SignUpInput } from './users.ts';

let serial = 0;
function input(email = `pilot${++serial}@example.com`): SignUpInput {
  return { fullName: 'Anna Maria Eriksson', email, emailKey: email.toLowerCase(), passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA' };
}

test('full names are trimmed, inner spaces collapsed, and must be 1 to 200 characters without control characters', () => {
  assert.equal(checkedFullName('  Anna   Maria  Eriksson '), 'Anna Maria Eriksson');
  assert.equal(checkedFullName('   '), null);
  assert.equal(checkedFullName('x'.repeat(201)), null);
  assert.equal(checkedFullName('Anna\u0000Eriksson'), null);
});

for (const backend of STORAGE_BACKENDS) {
  describe(`users on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let users: Users;
    const now = Date.parse('2026-03-01T10:00:00.000Z');

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration]);
      assert.deepEqual(handle.migrated, ['0006_accounts', '0008_users']);
      users = new Users(handle.database, () => now);
    });
    after(() => handle?.cleanup());

    test('sign-up makes the user the owner of a new Starter organisation, audited as theirs', async () => {
      const { user, existing } = await users.signUp(input('Anna@example.com'));
      assert.equal(existing, null);
      assert.match(user.id, /^usr_[0-9A-Za-z]{16}$/);
      assert.equal(user.duplicate_of, null);
      assert.equal(user.created_at, '2026-03-01T10:00:00.000Z');
      assert.deepEqual({ ...(await users.get(user.id)) }, user);
      const [membership, ...others] = await users.memberships(user.id);
      assert.equal(others.length, 0);
      assert.deepEqual({ ...membership!, org_id: 'x' }, { org_id: 'x', name: 'Anna Maria Eriksson', plan: 'starter', role: 'owner' });
      const audit = await listAudit(handle.database, membership!.org_id);
      assert.deepEqual(audit.data.map((e) => [e.actor, e.action, e.target]).reverse(), [
        [`user:${user.id}`, 'org.created', membership!.org_id],
        [`user:${user.id}`, 'member.added', user.id],
      ]);
    });

    test('a second sign-up for an address makes a duplicate that sign-in never finds', async () => {
      const first = await users.signUp(input('twice@example.com'));
      const second = await users.signUp({ ...input('TWICE@example.com'), emailKey: 'twice@example.com' });
      assert.equal(second.existing?.id, first.user.id);
      assert.equal(second.user.duplicate_of, first.user.id);
      assert.notEqual(second.user.id, first.user.id);
      // Like any account, it has an organisation of its own.
      assert.equal((await users.memberships(second.user.id)).length, 1);
      assert.equal((await users.findByEmail('twice@example.com'))?.id, first.user.id);
    });

    test('sign-ups racing for one new address leave one owner and duplicates of it', async () => {
      const results = await Promise.all([1, 2, 3, 4].map(() => users.signUp(input('race@example.com'))));
      const owners = results.filter((r) => r.user.duplicate_of === null);
      assert.equal(owners.length, 1);
      for (const result of results.filter((r) => r !== owners[0])) assert.equal(result.user.duplicate_of, owners[0]!.user.id);
    });

    test('the vehicle step sets the default feeds of the category', async () => {
      const { user } = await users.signUp(input());
      const vessel = await users.setVehicle(user.id, 'vessel', 'NO');
      assert.deepEqual([vessel?.vehicle_category, vessel?.country, JSON.parse(vessel!.default_feeds!)], ['vessel', 'NO', ['vessels_map', 'ports']]);
      const helicopter = await users.setVehicle(user.id, 'helicopter', 'NO');
      assert.deepEqual(JSON.parse(helicopter!.default_feeds!), ['landing', 'airports', 'weather', 'notams']);
      assert.equal(await users.setVehicle('usr_none', 'vessel', 'NO'), undefined);
    });
  });
}

describe('onboarding order', () => {
  const fresh: UserRow = {
    id: 'usr_x', email: 'a@example.com', email_key: 'a@example.com', full_name: 'A', password_hash: 'x', duplicate_of: null,
    email_verified_at: null, vehicle_category: null, country: null, default_feeds: null, password_changed_at: 'x', created_at: 'x',
  };

  test('names the first step not done before the one asked for', () => {
    assert.equal(missingStepBefore(fresh, 'vehicle'), null);
    assert.equal(missingStepBefore(fresh, 'email'), 'vehicle');
    assert.equal(missingStepBefore(fresh, 'identity'), 'vehicle');
    const vehicle = { ...fresh, vehicle_category: 'aircraft' as const, country: 'GB' };
    assert.equal(missingStepBefore(vehicle, 'email'), null);
    assert.equal(missingStepBefore(vehicle, 'identity'), 'email');
    // A verified address without the vehicle step (not reachable through the API) still misses it.
    assert.equal(missingStepBefore({ ...fresh, email_verified_at: 'x' }, 'identity'), 'vehicle');
  });

  test('the next step is the first not done, null when all are', () => {
    assert.equal(onboardingOf(fresh, null).next_step, 'vehicle');
    const verified = { ...fresh, vehicle_category: 'vessel' as const, email_verified_at: 'x' };
    assert.equal(onboardingOf(verified, 'manual_review').next_step, 'identity');
    assert.deepEqual(onboardingOf(verified, 'verified'), {
      steps: [{ step: 'details', done: true }, { step: 'vehicle', done: true }, { step: 'email', done: true }, { step: 'identity', done: true }],
      next_step: null,
    });
  });
});
