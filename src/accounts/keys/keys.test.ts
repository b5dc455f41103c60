import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { redisUrl, skipRedis, STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { waitFor } from '../../maritime/feeds/testing.ts';
import { openBus, type Bus } from '../../platform/bus/index.ts';
import { apiKeyChanges } from './changes.ts';
import { TEST_API_KEY } from '../../../test/support/server.ts';
import { listAudit } from '../audit/audit.ts';
import { BASE62 } from '../../platform/ids.ts';
import { KEY_CACHE_TTL_MS, KeyStore, newSecret, secretEnvironment, type DerivedKeyInput } from './keys.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { Organisations, type Organisation } from '../organisations/organisations.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('API key secrets', () => {
  test('carry their environment in the prefix and a checksum at the end', () => {
    const live = newSecret('production');
    const test = newSecret('development');
    assert.match(live, /^lamis_live_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    assert.match(test, /^lamis_test_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    assert.equal(secretEnvironment(live), 'production');
    assert.equal(secretEnvironment(test), 'development');
    assert.notEqual(newSecret('production'), live);
  });

  test('any one mistyped character, or two neighbours swapped, fails the checksum', () => {
    const secret = newSecret('production');
    for (let i = 0; i < secret.length; i++) {
      if (secret[i] === '_') continue;
      for (const c of BASE62.replace(secret[i]!, '')) {
        const typo = secret.slice(0, i) + c + secret.slice(i + 1);
        assert.equal(secretEnvironment(typo), null, typo);
      }
      const j = i + 1;
      if (j < secret.length && secret[j] !== secret[i] && secret[j] !== '_') {
        const swapped = secret.slice(0, i) + secret[j] + secret[i] + secret.slice(j + 1);
        assert.equal(secretEnvironment(swapped), null, swapped);
      }
    }
  });

  test('a development key relabelled as production is not a key', () => {
    const secret = newSecret('development');
    assert.equal(secretEnvironment(secret.replace('lamis_test_', 'lamis_live_')), null);
  });

  test('look-alikes are not keys', () => {
    const secret = newSecret('development');
    for (const candidate of [TEST_API_KEY, '', ` ${secret}`, `${secret} `, secret.slice(0, -1), `${secret}0`, secret.replace('lamis_', 'LAMIS_')]) {
      assert.equal(secretEnvironment(candidate), null, candidate);
    }
  });
});

for (const backend of STORAGE_BACKENDS) {
  describe(`API keys on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now: number;
    const clock = () => now;
    let keys: KeyStore;
    let org: Organisation;

    before(async () => {
      handle = await backend.open([accountsMigration]);
    });
    after(() => handle.cleanup());
    beforeEach(async () => {
      now = Date.parse('2026-03-01T12:00:00.000Z');
      keys = new KeyStore(handle.database, { clock });
      org = await new Organisations(handle.database, { clock }).create({ name: 'Harbour Pilots', plan: 'pro', actor: 'operator' });
    });

    const listed = async (id: string) => (await keys.listKeys(org.id)).find((k) => k.id === id)!;

    async function created(input: Partial<Parameters<KeyStore['createKey']>[0]> = {}) {
      const result = await keys.createKey({ orgId: org.id, environment: 'development', name: 'ci', actor: 'user:usr_owner', ...input });
      assert.equal(result.status, 'created');
      return result;
    }

    test('a created key verifies as its organisation; listings show its prefix and last four only', async () => {
      const { key, secret } = await created({ name: '  dashboard ' });
      assert.match(key.id, /^key_[0-9A-Za-z]{16}$/);
      assert.deepEqual(await keys.verify(secret), {
        ok: true,
        principal: { key_id: key.id, organisation_id: org.id, environment: 'development', admin: false },
      });
      const listed = await keys.listKeys(org.id);
      assert.equal(listed.length, 1);
      const [shown] = listed;
      assert.equal(shown!.id, key.id);
      assert.equal(shown!.name, 'dashboard');
      assert.equal(shown!.prefix, 'lamis_test_');
      assert.equal(shown!.last4, secret.slice(-4));
      assert.equal(shown!.created_by, 'usr_owner');
      assert.equal(shown!.created_at, '2026-03-01T12:00:00.000Z');
      assert.equal(shown!.status, 'active');
      const text = JSON.stringify(listed);
      assert.equal(text.includes(secret.slice(11, -7)), false);
      assert.equal('secret_hash' in shown!, false);
      assert.doesNotMatch(text, /[0-9a-f]{64}/);
      const audit = await listAudit(handle.database, org.id);
      assert.deepEqual(audit.data.map((e) => [e.action, e.actor, e.target]), [['key.created', 'user:usr_owner', key.id], ['org.created', 'operator', org.id]]);
    });

    test('a secret never issued is unknown; one with a typo is malformed', async () => {
      const { secret } = await created();
      assert.deepEqual(await keys.verify(newSecret('development')), { ok: false, reason: 'unknown' });
      const typo = `${secret.slice(0, 20)}${secret[20] === 'a' ? 'b' : 'a'}${secret.slice(21)}`;
      assert.deepEqual(await keys.verify(typo), { ok: false, reason: 'malformed' });
      assert.deepEqual(await keys.verify('not a key'), { ok: false, reason: 'malformed' });
    });

    test('a revoked key is refused: at once by the store that revoked it, within the cache time by others not told', async () => {
      const { key, secret } = await created();
      const elsewhere = handle.reopen();
      try {
        const operator = new KeyStore(elsewhere, { clock });
        assert.equal((await keys.verify(secret)).ok, true);
        const revoked = await operator.revokeKey(key.id, { actor: 'operator' });
        assert.equal(revoked.status, 'revoked');
        assert.equal(revoked.status === 'revoked' && revoked.key.revoked_at, '2026-03-01T12:00:00.000Z');
        assert.deepEqual(await operator.verify(secret), { ok: false, reason: 'revoked' });
        // The serving store read the key just now and trusts that for KEY_CACHE_TTL_MS.
        now += KEY_CACHE_TTL_MS - 1;
        assert.equal((await keys.verify(secret)).ok, true);
        now += 1;
        assert.deepEqual(await keys.verify(secret), { ok: false, reason: 'revoked' });
        assert.equal((await keys.listKeys(org.id))[0]!.status, 'revoked');
        const again = await operator.revokeKey(key.id, { actor: 'operator' });
        assert.equal(again.status === 'revoked' && again.key.revoked_at, '2026-03-01T12:00:00.000Z');
        const audit = await listAudit(handle.database, org.id);
        assert.deepEqual(audit.data.filter((e) => e.action === 'key.revoked').map((e) => [e.actor, e.target]), [['operator', key.id]]);
      } finally {
        await elsewhere.close();
      }
    });

    test('a key revoked or rotated on one instance is refused at once on another that is told over Redis', { skip: skipRedis }, async () => {
      // Two instances on one storage, each with its own connection to Redis; the clock stands still,
      // so only the announcement can end what the serving store holds.
      const prefix = `lamis:test:${randomUUID()}:`;
      const buses: Bus[] = [];
      const elsewhere = handle.reopen();
      try {
        const instance = async (database: StorageHandle['database']) => {
          const bus = await openBus({ redisUrl }, (error) => assert.fail(String(error)), prefix);
          buses.push(bus);
          const store = new KeyStore(database, { clock, announce: (change) => bus.publish(apiKeyChanges, change) });
          await bus.subscribe(apiKeyChanges, (change) => store.forget(change.key_id));
          return store;
        };
        const [serving, operator] = [await instance(handle.database), await instance(elsewhere)];
        const [revoked, rotated, untouched] = [await created({ name: 'revoked' }), await created({ name: 'rotated' }), await created({ name: 'untouched' })];
        for (const { secret } of [revoked, rotated, untouched]) assert.equal((await serving.verify(secret)).ok, true);

        assert.equal((await operator.revokeKey(revoked.key.id, { actor: 'operator' })).status, 'revoked');
        await waitFor(async () => !(await serving.verify(revoked.secret)).ok, 'the revocation on the serving instance');
        assert.deepEqual(await serving.verify(revoked.secret), { ok: false, reason: 'revoked' });
        assert.equal((await operator.rotateKey(rotated.key.id, 0, { actor: 'operator' })).status, 'rotated');
        await waitFor(async () => !(await serving.verify(rotated.secret)).ok, 'the rotation on the serving instance');
        assert.equal((await serving.verify(untouched.secret)).ok, true, 'other keys are unaffected');
      } finally {
        await Promise.all(buses.map((bus) => bus.close()));
        await elsewhere.close();
      }
    });

    test('a store told of a change elsewhere reads the key again; one not told keeps it for the cache time', async () => {
      const [{ key, secret }, other] = [await created(), await created({ name: 'other' })];
      const elsewhere = handle.reopen();
      try {
        const operator = new KeyStore(elsewhere, { clock });
        const told = new KeyStore(handle.database, { clock });
        for (const store of [keys, told]) assert.equal((await store.verify(secret)).ok, true);
        assert.equal((await told.verify(other.secret)).ok, true);
        await operator.revokeKey(key.id, { actor: 'operator' });
        told.forget(key.id);
        assert.deepEqual(await told.verify(secret), { ok: false, reason: 'revoked' });
        assert.equal((await keys.verify(secret)).ok, true, 'not told: held until the cache time is over');
        assert.equal((await told.verify(other.secret)).ok, true);
      } finally {
        await elsewhere.close();
      }
    });

    test('revoking through the serving store takes effect within the cache time', async () => {
      const { key, secret } = await created();
      assert.equal((await keys.verify(secret)).ok, true);
      await keys.revokeKey(key.id, { actor: 'key:key_admin' });
      assert.deepEqual(await keys.verify(secret), { ok: false, reason: 'revoked' });
    });

    test('a key acting for one organisation cannot revoke or rotate the keys of another', async () => {
      const { key, secret } = await created();
      const stranger = { actor: 'user:usr_x', orgId: 'org_someoneelse00' } as const;
      assert.deepEqual(await keys.revokeKey(key.id, stranger), { status: 'not_found' });
      assert.deepEqual(await keys.rotateKey(key.id, 1, stranger), { status: 'not_found' });
      assert.deepEqual(await keys.revokeKey('key_nosuchkey00000', { actor: 'operator' }), { status: 'not_found' });
      assert.equal((await keys.verify(secret)).ok, true);
    });

    test('an expired key is refused as expired, whatever the cache holds', async () => {
      const { key, secret } = await created({ expiresAt: '2026-03-01T13:00:00Z' });
      assert.equal(key.expires_at, '2026-03-01T13:00:00.000Z');
      now = Date.parse('2026-03-01T12:59:59.999Z');
      assert.equal((await keys.verify(secret)).ok, true);
      now += 1;
      assert.deepEqual(await keys.verify(secret), { ok: false, reason: 'expired' });
      assert.equal((await listed(key.id)).status, 'expired');
      assert.equal((await keys.rotateKey(key.id, 1, { actor: 'operator' })).status, 'not_active');
    });

    test('rotation: a new key at once, the old one until the overlap ends', async () => {
      const { key: old, secret: oldSecret } = await created({ environment: 'production', actor: 'operator', name: 'feed' });
      assert.equal((await keys.verify(oldSecret)).ok, true);
      const rotated = await keys.rotateKey(old.id, 2, { actor: 'user:usr_owner', orgId: org.id });
      assert.equal(rotated.status, 'rotated');
      if (rotated.status !== 'rotated') return;
      assert.match(rotated.secret, /^lamis_live_/);
      assert.equal(rotated.key.rotated_from, old.id);
      assert.equal(rotated.key.name, 'feed');
      assert.equal(rotated.key.environment, 'production');
      assert.equal(rotated.previous.overlap_until, '2026-03-01T14:00:00.000Z');
      assert.equal(rotated.previous.status, 'rotating');
      assert.deepEqual(await keys.verify(rotated.secret), {
        ok: true,
        principal: { key_id: rotated.key.id, organisation_id: org.id, environment: 'production', admin: false },
      });

      now += 2 * HOUR - 1;
      assert.equal((await keys.verify(oldSecret)).ok, true);
      now += 1;
      assert.deepEqual(await keys.verify(oldSecret), { ok: false, reason: 'revoked' });
      assert.equal((await keys.verify(rotated.secret)).ok, true);
      assert.equal((await keys.rotateKey(old.id, 2, { actor: 'operator' })).status, 'not_active');

      const audit = await listAudit(handle.database, org.id);
      const rotation = audit.data.find((e) => e.action === 'key.rotated')!;
      assert.equal(rotation.target, old.id);
      assert.deepEqual(rotation.detail, { new_key_id: rotated.key.id, overlap_until: '2026-03-01T14:00:00.000Z' });
      assert.ok(audit.data.some((e) => e.action === 'key.created' && e.target === rotated.key.id && e.detail.rotated_from === old.id));
    });

    test('a rotation with no overlap stops the old key at once, even where it is cached', async () => {
      const { key, secret } = await created();
      assert.equal((await keys.verify(secret)).ok, true);
      assert.equal((await keys.rotateKey(key.id, 0, { actor: 'operator' })).status, 'rotated');
      assert.deepEqual(await keys.verify(secret), { ok: false, reason: 'revoked' });
    });

    test('a derived key: one per user, the same secret again, rotated once aged, replaced for another environment', async () => {
      const material = (id: string) => createHash('sha512').update(`test material ${id}`).digest();
      const input: DerivedKeyInput = { orgId: org.id, userId: 'usr_anna', name: 'dashboard', environment: 'development', material, rotateAfterMs: 12 * HOUR, overlapHours: 12 };
      const derived = async (change: Partial<DerivedKeyInput> = {}) => {
        const result = await keys.derivedKey({ ...input, ...change });
        if (result.status === 'org_not_found') throw new Error('the organisation exists');
        return result;
      };
      // Someone's own key of that name, made by hand, is not it.
      const { key: handMadeKey, secret: handMade } = await created({ name: 'dashboard', actor: 'user:usr_anna' });
      const first = await derived();
      assert.equal(first.status, 'created');
      assert.match(first.secret, /^lamis_test_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
      assert.equal(first.key.created_by, 'usr_anna');
      now += 12 * HOUR - 1;
      assert.deepEqual(await derived(), { ...first, status: 'reused' });
      assert.equal((await keys.verify(first.secret)).ok, true);
      // Another user of the organisation has a key of their own, made once however many sessions ask at once.
      const others = await Promise.all(Array.from({ length: 4 }, () => derived({ userId: 'usr_bert' })));
      assert.deepEqual(others.map((other) => other.status).sort(), ['created', 'reused', 'reused', 'reused']);
      assert.deepEqual(new Set(others.map((other) => other.secret)).size, 1);
      assert.notEqual(others[0]!.secret, first.secret);

      now += 1;
      const rotated = await derived();
      assert.equal(rotated.status, 'rotated');
      assert.notEqual(rotated.secret, first.secret);
      assert.equal(rotated.key.rotated_from, first.key.id);
      assert.deepEqual(await derived(), { ...rotated, status: 'reused' });
      now += 12 * HOUR - 1;
      assert.equal((await keys.verify(first.secret)).ok, true, 'the old key works while a session may last');
      now += 1;
      assert.deepEqual(await keys.verify(first.secret), { ok: false, reason: 'revoked' });

      const production = await derived({ environment: 'production' });
      assert.equal(production.status, 'created');
      assert.match(production.secret, /^lamis_live_/);
      assert.deepEqual(await keys.verify(rotated.secret), { ok: false, reason: 'revoked' });
      assert.equal((await keys.verify(handMade)).ok, true);
      const mine = (await keys.listKeys(org.id)).filter((key) => key.created_by === 'usr_anna' && (key.status === 'active' || key.status === 'rotating'));
      assert.deepEqual(mine.map((key) => key.id).sort(), [production.key.id, handMadeKey.id].sort());
      const actions = (await listAudit(handle.database, org.id)).data.map((e) => e.action).reverse();
      assert.deepEqual(actions, ['org.created', 'key.created', 'key.created', 'key.created', 'key.created', 'key.rotated', 'key.created', 'key.revoked']);
    });

    test('production keys need a verified identity, except from operators', async () => {
      const input = { orgId: org.id, environment: 'production', name: 'prod' } as const;
      assert.deepEqual(await keys.createKey({ ...input, actor: 'user:usr_owner' }), { status: 'identity_required' });
      assert.equal((await keys.createKey({ ...input, actor: 'user:usr_owner', identityVerified: true })).status, 'created');
      assert.equal((await keys.createKey({ ...input, actor: 'operator' })).status, 'created');
      assert.equal((await keys.listKeys(org.id)).length, 2);
    });

    test('keys need an existing organisation, a name and a future expiry', async () => {
      assert.deepEqual(await keys.createKey({ orgId: 'org_nosuchorg00000', environment: 'development', name: 'x', actor: 'operator' }), { status: 'org_not_found' });
      await assert.rejects(created({ name: '   ' }), RangeError);
      await assert.rejects(created({ expiresAt: '2026-03-01T12:00:00.000Z' }), /in the future/);
      await assert.rejects(created({ expiresAt: 'tomorrow' }), /ISO 8601/);
      const { key } = await created();
      await assert.rejects(keys.rotateKey(key.id, -1, { actor: 'operator' }), RangeError);
      assert.equal((await keys.listKeys(org.id)).length, 1);
    });

    test('last_used_at is written at most once a minute per key', async () => {
      const { key, secret } = await created();
      assert.equal(key.last_used_at, null);
      await keys.verify(secret);
      assert.equal((await listed(key.id)).last_used_at, '2026-03-01T12:00:00.000Z');
      now += MINUTE - 1;
      await keys.verify(secret);
      assert.equal((await listed(key.id)).last_used_at, '2026-03-01T12:00:00.000Z');
      now += 1;
      await keys.verify(secret);
      assert.equal((await listed(key.id)).last_used_at, '2026-03-01T12:01:00.000Z');
    });

    test('servers sharing the storage do not each write last_used_at within the same minute', async () => {
      const { key, secret } = await created();
      // `slow` still holds what it read first, as if its cache time were long.
      const slow = new KeyStore(handle.database, { clock, cacheTtlMs: 10 * MINUTE });
      await slow.verify(secret);
      now += MINUTE;
      await keys.verify(secret);
      now += 1000;
      await slow.verify(secret);
      assert.equal((await listed(key.id)).last_used_at, '2026-03-01T12:01:00.000Z');
    });
  });
}
