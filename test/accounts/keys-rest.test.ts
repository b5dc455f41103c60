// An organisation's API keys, usage and audit log over REST against a real server: keys listed
// without secrets and revoked, rotation with an overlap after which the old key stops, usage per
// key and day as the servers flush it, and the audit log of it all.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ANNA, pdfWithMrzText, td3Lines } from '../../src/accounts/onboarding/identity/sample-documents.ts';
import { json } from '../support/http.ts';
import { newMember, onboarded, setPlan, type Member } from './members-support.ts';
import { ACCOUNT_BACKENDS, problem, type AccountsServer } from './support.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
const HOUR = 3_600_000;

for (const backend of ACCOUNT_BACKENDS) {
  describe(`API keys over REST on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;

    before(async () => {
      accounts = await backend.start();
    });
    after(() => accounts?.close());

    /** Requests served with each secret: usage leaves out those shed with 503. */
    const sent = new Map<string, number>();
    /**
     * A data request with the key. Development keys are turned away first (503) while the event
     * loop runs late, which a test process doing sign-ups and mail can make it; like a client, it
     * retries then.
     */
    async function call(secret: string): Promise<Response> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const response = await fetch(`${accounts.server.url}/v3/maritime/flags`, { headers: { authorization: `Bearer ${secret}` } });
        if (response.status !== 503) sent.set(secret, (sent.get(secret) ?? 0) + 1);
        if (response.status !== 503 || Date.now() > deadline) return response;
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    async function createKey(owner: Member, orgId: string, name: string): Promise<{ id: string; secret: string }> {
      const response = await owner.browser.call('POST', '/v3/accounts/keys', { org_id: orgId, environment: 'development', name });
      assert.equal(response.status, 201, await response.clone().text());
      assert.equal(response.headers.get('cache-control'), 'no-store');
      return json(response);
    }

    /** A verified owner of an organisation on Pro. */
    async function proOwner(label = 'owner', fullName?: string): Promise<Member & { org: string }> {
      const owner = await onboarded(accounts, label, fullName);
      await setPlan(owner, owner.ownOrgId, 'pro');
      return { ...owner, org: owner.ownOrgId };
    }

    test('keys are listed page by page without secrets, seen by members, revoked by owners', { timeout: 60_000 }, async () => {
      const owner = await proOwner();
      const keys = [];
      for (const name of ['laptop', 'ci', 'dispatch']) keys.push(await createKey(owner, owner.org, name));
      assert.equal((await call(keys[0]!.secret)).status, 200);

      const first = await owner.browser.call('GET', `/v3/organisations/${owner.org}/keys?limit=2`);
      const firstText = await first.text();
      const page = JSON.parse(firstText);
      assert.deepEqual(page.data.map((k: any) => k.name), ['dispatch', 'ci']);
      const second = await json(await owner.browser.call('GET', `/v3/organisations/${owner.org}/keys?limit=2&cursor=${page.next_cursor}`));
      assert.deepEqual(second.data.map((k: any) => k.name), ['laptop']);
      assert.equal(second.next_cursor, null);
      const laptop = second.data[0];
      assert.deepEqual(
        [laptop.id, laptop.environment, laptop.prefix, laptop.last4, laptop.status, laptop.created_by, laptop.revoked_at],
        [keys[0]!.id, 'development', 'lamis_test_', keys[0]!.secret.slice(-4), 'active', owner.userId, null],
      );
      assert.ok(laptop.last_used_at, 'last use recorded');
      for (const key of keys) assert.ok(!firstText.includes(key.secret) && !JSON.stringify(second).includes(key.secret));
      assert.ok(!('secret' in laptop) && !('secret_hash' in laptop));

      const member = await newMember(accounts, owner, owner.org, 'member');
      const seen = await json(await member.browser.call('GET', `/v3/organisations/${owner.org}/keys/${keys[1]!.id}`));
      assert.equal(seen.name, 'ci');
      const refused = await problem(await member.browser.call('POST', `/v3/organisations/${owner.org}/keys/${keys[1]!.id}/revoke`), 403, 'role_not_allowed');
      assert.deepEqual(refused.allowed_roles, ['owner', 'admin']);

      const revoked = await owner.browser.call('POST', `/v3/organisations/${owner.org}/keys/${keys[0]!.id}/revoke`);
      assert.equal(revoked.status, 200);
      const body = await json(revoked);
      assert.equal(body.status, 'revoked');
      const refusedKey = await problem(await call(keys[0]!.secret), 401, 'unauthorized');
      assert.equal(refusedKey.reason, 'revoked');
      const again = await json(await owner.browser.call('POST', `/v3/organisations/${owner.org}/keys/${keys[0]!.id}/revoke`));
      assert.equal(again.revoked_at, body.revoked_at);
      assert.equal((await call(keys[1]!.secret)).status, 200);
      await problem(await owner.browser.call('GET', `/v3/organisations/${owner.org}/keys/key_nosuchkey00000`), 404, 'key_not_found');
    });

    test('a rotated key keeps working for its overlap, then stops', { timeout: 60_000 }, async () => {
      const owner = await proOwner();
      const old = await createKey(owner, owner.org, 'fleet tracker');
      const path = (id: string) => `/v3/organisations/${owner.org}/keys/${id}/rotate`;

      // A few seconds of overlap: both keys work, then only the new one.
      const started = Date.now();
      const rotated = await owner.browser.call('POST', path(old.id), { overlap_hours: 0.001 });
      assert.equal(rotated.status, 201, await rotated.clone().text());
      assert.equal(rotated.headers.get('cache-control'), 'no-store');
      const { key, previous } = await json(rotated);
      assert.match(key.secret, /^lamis_test_/);
      assert.deepEqual([key.name, key.environment, key.rotated_from, key.status], ['fleet tracker', 'development', old.id, 'active']);
      assert.equal(previous.status, 'rotating');
      const until = Date.parse(previous.overlap_until);
      assert.ok(Math.abs(until - (started + 3_600)) < 2_000, previous.overlap_until);
      assert.equal((await call(old.secret)).status, 200);
      assert.equal((await call(key.secret)).status, 200);
      await problem(await owner.browser.call('POST', path(old.id), {}), 409, 'key_not_active');
      await new Promise((resolve) => setTimeout(resolve, until - Date.now() + 100));
      assert.equal((await problem(await call(old.secret), 401, 'unauthorized')).reason, 'revoked');
      assert.equal((await call(key.secret)).status, 200);
      assert.equal((await json(await owner.browser.call('GET', `/v3/organisations/${owner.org}/keys/${old.id}`))).status, 'revoked');

      // By default the overlap is a day; 0 stops the old key at once; more than 30 days is refused.
      const daily = await json(await owner.browser.call('POST', path(key.id), {}));
      assert.ok(Math.abs(Date.parse(daily.previous.overlap_until) - Date.now() - 24 * HOUR) < 5_000);
      await problem(await owner.browser.call('POST', path(daily.key.id), { overlap_hours: 721 }), 400, 'validation_failed');
      const now = await json(await owner.browser.call('POST', path(daily.key.id), { overlap_hours: 0 }));
      assert.equal((await problem(await call(daily.key.secret), 401, 'unauthorized')).reason, 'revoked');
      assert.equal((await call(now.key.secret)).status, 200);
    });

    test('rotating a production key needs a verified identity', { timeout: 90_000 }, async () => {
      const owner = await proOwner('anna', 'Anna Maria Eriksson');
      const { stdout } = await run(process.execPath, [bin, 'keys', 'create', '--org', owner.org, '--env', 'production', '--name', 'ops', '--json'], { env: { ...process.env, ...accounts.env } });
      const production = JSON.parse(stdout);
      const rotate = () => owner.browser.call('POST', `/v3/organisations/${owner.org}/keys/${production.id}/rotate`, {});
      await problem(await rotate(), 403, 'identity_required');
      const upload = await owner.browser.call('POST', '/v3/accounts/identity', Buffer.from(await pdfWithMrzText(td3Lines(ANNA))), { 'content-type': 'application/pdf' });
      assert.equal(upload.status, 202);
      const deadline = Date.now() + 60_000;
      while ((await json(await owner.browser.call('GET', '/v3/accounts/identity'))).status === 'pending' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const rotated = await rotate();
      assert.equal(rotated.status, 201, await rotated.clone().text());
      const { key } = await json(rotated);
      assert.match(key.secret, /^lamis_live_/);
      assert.equal(key.created_by, owner.userId);
    });

    test('usage per key and day, and the audit log of the keys', { timeout: 60_000 }, async () => {
      const owner = await proOwner();
      const first = await createKey(owner, owner.org, 'first');
      const second = await createKey(owner, owner.org, 'second');
      for (let i = 0; i < 3; i++) assert.equal((await call(first.secret)).status, 200);
      for (let i = 0; i < 2; i++) assert.equal((await call(second.secret)).status, 200);
      const usage = (query = '') => owner.browser.call('GET', `/v3/organisations/${owner.org}/usage${query}`);

      // Servers write their counts every 10 s.
      const today = new Date().toISOString().slice(0, 10);
      const deadline = Date.now() + 20_000;
      let all: any;
      // Until both keys' counts are written in full (a flush may fall between two requests).
      do {
        await new Promise((resolve) => setTimeout(resolve, 500));
        all = await json(await usage());
      } while (all.data.reduce((sum: number, row: any) => sum + row.requests, 0) < sent.get(first.secret)! + sent.get(second.secret)! && Date.now() < deadline);
      assert.equal(all.to, today);
      assert.equal(Date.parse(all.to) - Date.parse(all.from), 29 * 24 * HOUR);
      const rows = [...all.data].sort((a: any, b: any) => a.key_name.localeCompare(b.key_name));
      assert.deepEqual(rows, [
        { day: today, key_id: first.id, key_name: 'first', environment: 'development', requests: sent.get(first.secret), streams: 0 },
        { day: today, key_id: second.id, key_name: 'second', environment: 'development', requests: sent.get(second.secret), streams: 0 },
      ]);
      const firstPage = await json(await usage('?limit=1'));
      const secondPage = await json(await usage(`?limit=1&cursor=${firstPage.next_cursor}`));
      assert.deepEqual([...firstPage.data, ...secondPage.data], all.data);
      assert.equal(secondPage.next_cursor, null);
      assert.deepEqual((await json(await usage(`?key_id=${second.id}&from=${today}&to=${today}`))).data.map((r: any) => r.requests), [sent.get(second.secret)]);
      assert.deepEqual((await json(await usage('?from=2020-01-01&to=2020-01-31'))).data, []);
      await problem(await usage('?key_id=key_nosuchkey00000'), 404, 'key_not_found');
      await problem(await usage(`?from=${today}&to=2020-01-01`), 400, 'validation_failed');
      await problem(await usage('?from=2020-01-01&to=2021-06-01'), 400, 'validation_failed');
      await problem(await usage('?from=2020-02-30'), 400, 'validation_failed');

      await owner.browser.call('POST', `/v3/organisations/${owner.org}/keys/${first.id}/revoke`);
      const log = await json(await owner.browser.call('GET', `/v3/organisations/${owner.org}/audit-log?limit=2`));
      assert.deepEqual(log.data.map((e: any) => [e.action, e.actor, e.target]), [
        ['key.revoked', `user:${owner.userId}`, first.id],
        ['key.created', `user:${owner.userId}`, second.id],
      ]);
      assert.deepEqual(log.data[1].detail, { name: 'second', environment: 'development', expires_at: null });
      const rest = await json(await owner.browser.call('GET', `/v3/organisations/${owner.org}/audit-log?limit=100&cursor=${log.next_cursor}`));
      assert.deepEqual(rest.data.map((e: any) => e.action), ['key.created', 'plan.changed', 'member.added', 'org.created']);
      assert.equal(rest.next_cursor, null);
    });
  });
}
