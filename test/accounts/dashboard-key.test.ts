// The dashboard's key over HTTP: a user who opens the dashboard in 16 browser sessions (16
// sign-ins, each followed by the dashboard's key step, as web/src/api/data-key.ts takes it) has
// one live `dashboard` key in the organisation, made once and audited once, whose secret every
// session gets and can call the data routes with.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json } from '../support/http.ts';
import { newEmail, newMember, onboarded, setPlan, type Member } from './members-support.ts';
import { ACCOUNT_BACKENDS, Browser, problem, type AccountsServer } from './support.ts';

const PASSWORD = 'a long enough password';
const SESSIONS = 16;

for (const backend of ACCOUNT_BACKENDS) {
  describe(`the dashboard's key on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;

    before(async () => {
      accounts = await backend.start();
    });
    after(() => accounts?.close());

    /** The dashboard's key step in a new session: the secret it calls the data routes with. */
    async function dashboardKeyStep(session: Browser, orgId: string): Promise<string> {
      const response = await session.call('POST', `/v3/organisations/${orgId}/dashboard-key`);
      assert.equal(response.status, 200, await response.clone().text());
      assert.equal(response.headers.get('cache-control'), 'no-store');
      return (await json(response)).secret;
    }

    /** A data route's status with the key; a development key waits out load shedding (503 `overloaded`) on a busy machine. */
    async function dataCall(secret: string): Promise<number> {
      for (;;) {
        const response = await fetch(`${accounts.server.url}/v3/maritime/flags`, { headers: { authorization: `Bearer ${secret}` } });
        await response.arrayBuffer();
        if (response.status !== 503) return response.status;
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
      }
    }

    const dashboardKeys = async (owner: Member) =>
      (await json(await owner.browser.call('GET', `/v3/organisations/${owner.ownOrgId}/keys?limit=100`))).data.filter((key: any) => key.name === 'dashboard');
    const keyEvents = async (owner: Member) =>
      (await json(await owner.browser.call('GET', `/v3/organisations/${owner.ownOrgId}/audit-log?limit=100`))).data.filter((event: any) => event.action.startsWith('key.'));

    test(`${SESSIONS} browser sessions leave one live dashboard key and one audit event`, { timeout: 120_000 }, async () => {
      const owner = await onboarded(accounts, 'owner');
      const secrets: string[] = [];
      for (let i = 0; i < SESSIONS; i++) {
        const session = new Browser(accounts.server.url);
        assert.equal((await session.signIn(owner.email, PASSWORD)).status, 201);
        secrets.push(await dashboardKeyStep(session, owner.ownOrgId));
      }
      const live = (await dashboardKeys(owner)).filter((key: any) => key.status === 'active' || key.status === 'rotating');
      const events = await keyEvents(owner);
      console.log(`${backend.name}: ${SESSIONS} sessions: ${live.length} live dashboard keys, ${events.length} key events in the audit log`);
      assert.equal(live.length, 1, 'live dashboard keys');
      assert.deepEqual(events.map((event: any) => event.action), ['key.created']);
      assert.equal(new Set(secrets).size, 1, 'every session gets the same secret');
      assert.equal(live[0].environment, 'development');
      assert.equal(await dataCall(secrets[0]!), 200);
    });

    test('a revoked dashboard key is made again on the next call; members cannot have one', { timeout: 60_000 }, async () => {
      const owner = await onboarded(accounts, 'owner');
      const secret = await dashboardKeyStep(owner.browser, owner.ownOrgId);
      const [key] = await dashboardKeys(owner);
      assert.equal((await owner.browser.call('POST', `/v3/organisations/${owner.ownOrgId}/keys/${key.id}/revoke`)).status, 200);
      assert.equal(await dataCall(secret), 401);
      const renewed = await dashboardKeyStep(owner.browser, owner.ownOrgId);
      assert.notEqual(renewed, secret);
      assert.equal(await dataCall(renewed), 200);
      assert.deepEqual((await keyEvents(owner)).map((event: any) => event.action), ['key.created', 'key.revoked', 'key.created']);

      await setPlan(owner, owner.ownOrgId, 'pro');
      const member = await newMember(accounts, owner, owner.ownOrgId, 'member');
      const refused = await problem(await member.browser.call('POST', `/v3/organisations/${owner.ownOrgId}/dashboard-key`), 403, 'role_not_allowed');
      assert.deepEqual(refused.allowed_roles, ['owner', 'admin']);
      const stranger = await onboarded(accounts, 'stranger');
      await problem(await stranger.browser.call('POST', `/v3/organisations/${owner.ownOrgId}/dashboard-key`), 404, 'organisation_not_found');
      const unverified = new Browser(accounts.server.url);
      const signedUp = await unverified.signUp(newEmail('unverified'));
      await problem(await unverified.call('POST', `/v3/organisations/${signedUp.account.organisations[0].org_id}/dashboard-key`), 403, 'identity_required');
    });
  });
}
