// The fleet for signed-in members, under /v3/organisations/{orgId}/fleet, against a real server
// with members who joined by mailed invitations: each role reads or changes what the README's role
// matrix says, changes need the CSRF token, another organisation's ids answer 404, the fleet is the
// one API keys of the organisation see, and no registration reaches the logs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { invite, newMember, onboarded, setPlan, type Member } from '../accounts/members-support.ts';
import { ACCOUNT_BACKENDS, Browser, problem, startAccountsServer, type AccountsServer } from '../accounts/support.ts';
import { json } from '../support/http.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;

const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
type Role = (typeof ROLES)[number];
const MAY_CHANGE: readonly Role[] = ['owner', 'admin', 'member'];

const fleetOf = (orgId: string) => `/v3/organisations/${orgId}/fleet`;

async function added(who: Member, orgId: string, body: object): Promise<any> {
  const response = await who.browser.call('POST', `${fleetOf(orgId)}/vehicles`, body);
  assert.equal(response.status, 201, await response.clone().text());
  const vehicle = await json(response);
  assert.equal(response.headers.get('location'), `${fleetOf(orgId)}/vehicles/${vehicle.id}`);
  return vehicle;
}

for (const backend of ACCOUNT_BACKENDS) {
  describe(`the fleet for signed-in members on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;
    let org: string;
    const team = {} as Record<Role, Member>;

    before(async () => {
      accounts = await backend.start();
      team.owner = await onboarded(accounts, 'owner');
      org = team.owner.ownOrgId;
      await setPlan(team.owner, org, 'pro');
      for (const role of ['admin', 'member', 'viewer'] as const) team[role] = await newMember(accounts, team.owner, org, role);
    });
    after(() => accounts?.close());

    test('every role reads the fleet; owners, admins and members change it, viewers get 403', { timeout: 60_000 }, async () => {
      const registrations: Record<Role, string> = { owner: 'G-ROLA', admin: 'G-ROLB', member: 'G-ROLC', viewer: 'G-ROLD' };
      for (const role of MAY_CHANGE) {
        const { browser } = team[role];
        const vehicle = await added(team[role], org, { vehicle_type: 'aircraft', registration: registrations[role], icao_type: 'A320' });
        const path = `${fleetOf(org)}/vehicles/${vehicle.id}`;
        assert.deepEqual(await json(await browser.call('GET', path)), vehicle);
        const patched = await browser.call('PATCH', path, { crosswind_limit_kt: 22 });
        assert.equal(patched.status, 200, await patched.clone().text());
        assert.equal((await json(patched)).crosswind_limit_kt, 22);
        const own = await browser.call('PUT', `${path}/notification-settings`, { thresholds: { safety_score_below: 60 } });
        assert.equal(own.status, 200, await own.clone().text());
        const wide = await browser.call('PUT', `${fleetOf(org)}/notification-settings`, { thresholds: { weather_hold: true } });
        assert.equal(wide.status, 200, await wide.clone().text());
        assert.deepEqual((await json(await browser.call('GET', `${path}/notification-settings`))).effective, { safety_score_below: 60, weather_hold: true });
        assert.equal((await browser.call('DELETE', path)).status, 204);
        await problem(await browser.call('GET', path), 404, 'vehicle_not_found');
      }

      // The viewer reads everything the others left, and changes nothing.
      const kept = await added(team.member, org, { vehicle_type: 'vessel', mmsi: 235012345 });
      const path = `${fleetOf(org)}/vehicles/${kept.id}`;
      const { browser } = team.viewer;
      const list = await json(await browser.call('GET', `${fleetOf(org)}/vehicles?limit=100`));
      assert.ok(list.data.some((v: { id: string }) => v.id === kept.id));
      assert.deepEqual(await json(await browser.call('GET', path)), kept);
      assert.deepEqual((await json(await browser.call('GET', `${fleetOf(org)}/notification-settings`))).thresholds, { weather_hold: true });
      assert.deepEqual((await json(await browser.call('GET', `${path}/notification-settings`))).effective, { weather_hold: true });
      const feed = await json(await browser.call('GET', `${fleetOf(org)}/feed`));
      assert.deepEqual(feed.data.map((entry: { vehicle: { id: string } }) => entry.vehicle.id), list.data.map((v: { id: string }) => v.id), 'the fleet feed has one entry per vehicle');
      for (const [method, url, body] of [
        ['POST', `${fleetOf(org)}/vehicles`, { vehicle_type: 'aircraft', registration: registrations.viewer, icao_type: 'A320' }],
        ['PATCH', path, { imo: 9074729 }],
        ['DELETE', path],
        ['PUT', `${fleetOf(org)}/notification-settings`, { thresholds: {} }],
        ['PUT', `${path}/notification-settings`, { thresholds: { weather_hold: false } }],
      ] as const) {
        const refused = await problem(await browser.call(method, url, body), 403, 'role_not_allowed');
        assert.deepEqual([refused.role, refused.allowed_roles], ['viewer', MAY_CHANGE], `${method} ${url}`);
      }
      assert.deepEqual(await json(await team.owner.browser.call('GET', path)), kept, 'unchanged');
      assert.deepEqual((await json(await team.owner.browser.call('GET', `${fleetOf(org)}/notification-settings`))).thresholds, { weather_hold: true });
      const names = (await json(await team.owner.browser.call('GET', `${fleetOf(org)}/vehicles?limit=100`))).data.map((v: { registration: string | null }) => v.registration);
      assert.ok(!names.includes(registrations.viewer));
    });

    test('members plan arrivals on the organisation\'s path, viewers see them and change nothing', { timeout: 60_000 }, async () => {
      const vehicle = await added(team.member, org, { vehicle_type: 'aircraft', registration: 'G-ARRS', icao_type: 'A320' });
      const arrivals = `${fleetOf(org)}/vehicles/${vehicle.id}/arrivals`;
      const eta = new Date(Date.now() + 3_600_000).toISOString();
      const planned = await team.member.browser.call('POST', arrivals, { destination_icao: 'EGKK', eta_utc: eta });
      assert.equal(planned.status, 201, await planned.clone().text());
      const arrival = await json(planned);
      assert.equal(planned.headers.get('location'), `${arrivals}/${arrival.id}`);
      const { browser } = team.viewer;
      assert.deepEqual((await json(await browser.call('GET', arrivals))).data, [arrival]);
      assert.deepEqual(await json(await browser.call('GET', `${arrivals}/${arrival.id}`)), arrival);
      for (const [method, url, body] of [
        ['POST', arrivals, { destination_icao: 'EGLL', eta_utc: eta }],
        ['PATCH', `${arrivals}/${arrival.id}`, { eta_utc: eta }],
        ['DELETE', `${arrivals}/${arrival.id}`],
      ] as const) {
        await problem(await browser.call(method, url, body), 403, 'role_not_allowed');
      }
      assert.equal((await team.admin.browser.call('DELETE', `${arrivals}/${arrival.id}`)).status, 204);
      await problem(await browser.call('GET', `${arrivals}/${arrival.id}`), 404, 'arrival_not_found');
    });

    test('a role taken away a moment ago grants nothing; a removed member sees no fleet', { timeout: 60_000 }, async () => {
      const crew = await newMember(accounts, team.owner, org, 'member');
      await added(crew, org, { vehicle_type: 'helicopter', registration: 'G-ROLE', icao_type: 'EC35' });
      const demoted = await team.owner.browser.call('PATCH', `/v3/organisations/${org}/members/${crew.userId}`, { role: 'viewer' });
      assert.equal(demoted.status, 200, await demoted.clone().text());
      await problem(await crew.browser.call('POST', `${fleetOf(org)}/vehicles`, { vehicle_type: 'vessel', mmsi: 235012346 }), 403, 'role_not_allowed');
      assert.equal((await crew.browser.call('GET', `${fleetOf(org)}/vehicles`)).status, 200);
      assert.equal((await team.owner.browser.call('DELETE', `/v3/organisations/${org}/members/${crew.userId}`)).status, 204);
      await problem(await crew.browser.call('GET', `${fleetOf(org)}/vehicles`), 404, 'organisation_not_found');
    });

    test('changes need the session\'s CSRF token; every route needs a session, an API key is not one', async () => {
      const { browser } = team.owner;
      const vehicle = await added(team.owner, org, { vehicle_type: 'aircraft', registration: 'G-CSRF', icao_type: 'B738' });
      const path = `${fleetOf(org)}/vehicles/${vehicle.id}`;
      for (const [method, url, body] of [
        ['POST', `${fleetOf(org)}/vehicles`, { vehicle_type: 'aircraft', registration: 'G-CSRG', icao_type: 'A320' }],
        ['PATCH', path, { crosswind_limit_kt: 10 }],
        ['DELETE', path],
        ['PUT', `${fleetOf(org)}/notification-settings`, { thresholds: {} }],
        ['PUT', `${path}/notification-settings`, { thresholds: {} }],
      ] as const) {
        await problem(await browser.call(method, url, body, { 'x-csrf-token': '' }), 403, 'csrf_token_invalid');
        await problem(await browser.call(method, url, body, { 'x-csrf-token': 'A'.repeat(43) }), 403, 'csrf_token_invalid');
      }
      assert.deepEqual(await json(await browser.call('GET', path)), vehicle, 'nothing changed');
      assert.equal((await browser.call('GET', path, undefined, { 'x-csrf-token': '' })).status, 200, 'reading needs no token');

      const key = await json(await browser.call('POST', '/v3/accounts/keys', { org_id: org, environment: 'development', name: 'fleet by key' }));
      const byKey = await fetch(accounts.server.url + path, { headers: { authorization: `Bearer ${key.secret}` } });
      assert.equal((await problem(byKey, 401, 'session_required')).reason, 'missing');
    });

    test('API keys of the organisation and its members share one fleet', async () => {
      const { browser } = team.admin;
      // A production key made by the operator command: development keys are shed first when the machine is busy.
      const { stdout } = await run(process.execPath, [bin, 'keys', 'create', '--org', org, '--env', 'production', '--name', 'dispatch', '--json'],
        { env: { ...process.env, ...accounts.env } });
      const key = JSON.parse(stdout);
      const byKey = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => fetch(accounts.server.url + url, {
        method,
        headers: { authorization: `Bearer ${key.secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

      const fromKey = await byKey('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-KEYA', icao_type: 'A320' });
      assert.equal(fromKey.status, 201);
      const vehicle = await json(fromKey);
      assert.deepEqual(await json(await browser.call('GET', `${fleetOf(org)}/vehicles/${vehicle.id}`)), vehicle);
      await problem(await browser.call('POST', `${fleetOf(org)}/vehicles`, { vehicle_type: 'aircraft', registration: 'gkeya', icao_type: 'A320' }), 409, 'duplicate_registration');

      // An Idempotency-Key means the same on both: a retry through the other door finds the first vehicle.
      const body = { vehicle_type: 'aircraft', registration: 'G-KEYB', icao_type: 'C172' };
      const first = await browser.call('POST', `${fleetOf(org)}/vehicles`, body, { 'idempotency-key': 'add-keyb' });
      assert.equal(first.status, 201);
      const retry = await byKey('POST', '/v3/fleet/vehicles', body, { 'idempotency-key': 'add-keyb' });
      assert.equal(retry.status, 200);
      assert.deepEqual(await json(retry), await json(first));

      const wide = await json(await byKey('PUT', '/v3/fleet/notification-settings', { thresholds: { visibility_nm_below: 2 } }));
      assert.deepEqual(await json(await browser.call('GET', `${fleetOf(org)}/notification-settings`)), wide);
    });

    test('bad input is refused as under /v3/fleet, each field named, the registration not repeated', async () => {
      const { browser } = team.member;
      const bad = await problem(await browser.call('POST', `${fleetOf(org)}/vehicles`, {
        vehicle_type: 'aircraft', registration: 'BAD*ROLX', icao_type: 'A320', mmsi: 235012345, colour: 'red',
      }), 400, 'validation_failed');
      assert.deepEqual(bad.errors.map((e: { path: string }) => e.path), ['/body/colour']);
      const invalid = await problem(await browser.call('POST', `${fleetOf(org)}/vehicles`, {
        vehicle_type: 'aircraft', registration: 'BAD*ROLX', icao_type: 'A320', mmsi: 235012345,
      }), 400, 'validation_failed');
      assert.deepEqual(invalid.errors.map((e: { path: string }) => e.path), ['/body/registration', '/body/mmsi']);
      assert.ok(!JSON.stringify(invalid).includes('ROLX'));
      const thresholds = await problem(await browser.call('PUT', `${fleetOf(org)}/notification-settings`, { thresholds: { sms: true } }), 400, 'validation_failed');
      assert.deepEqual(thresholds.errors.map((e: { path: string }) => e.path), ['/body/thresholds/sms']);
      await problem(await browser.call('GET', `${fleetOf(org)}/vehicles?cursor=not-ours`), 400, 'invalid_cursor');
    });

    test('another organisation\'s fleet and vehicles answer 404, as ones that do not exist', { timeout: 60_000 }, async () => {
      const vehicle = await added(team.owner, org, { vehicle_type: 'aircraft', registration: 'G-OTHR', icao_type: 'A320' });
      const stranger = await onboarded(accounts, 'stranger');
      const other = stranger.ownOrgId;

      // Not a member: the organisation itself does not exist for them.
      for (const [method, url, body] of [
        ['GET', `${fleetOf(org)}/vehicles`], ['POST', `${fleetOf(org)}/vehicles`, { vehicle_type: 'vessel', mmsi: 235012347 }],
        ['GET', `${fleetOf(org)}/notification-settings`], ['PUT', `${fleetOf(org)}/notification-settings`, { thresholds: {} }],
        ['GET', `${fleetOf(org)}/vehicles/${vehicle.id}`], ['DELETE', `${fleetOf(org)}/vehicles/${vehicle.id}`], ['GET', `${fleetOf(org)}/feed`],
      ] as const) {
        const refused = await problem(await stranger.browser.call(method, url, body), 404, 'organisation_not_found');
        const missing = await problem(await stranger.browser.call(method, url.replace(org, 'org_0000000000000000'), body), 404, 'organisation_not_found');
        assert.equal(refused.detail, missing.detail);
      }

      // Under their own organisation's path, ours is no vehicle of theirs; nor once they are a viewer here:
      // the fleet is the one the path names, never any fleet the user may see.
      const vehicleRoutes = (path: string) => [
        ['GET', path], ['PATCH', path, { crosswind_limit_kt: 5 }], ['DELETE', path],
        ['GET', `${path}/notification-settings`], ['PUT', `${path}/notification-settings`, { thresholds: {} }],
      ] as const;
      for (const stage of ['stranger', 'viewer here'] as const) {
        if (stage === 'viewer here') await invite(accounts, team.owner, org, stranger, 'viewer');
        for (const [method, url, body] of vehicleRoutes(`${fleetOf(other)}/vehicles/${vehicle.id}`)) {
          const refused = await problem(await stranger.browser.call(method, url, body), 404, 'vehicle_not_found');
          const missing = await problem(await stranger.browser.call(method, url.replace(vehicle.id, 'veh_0000000000000000'), body), 404, 'vehicle_not_found');
          assert.equal(refused.detail.replace(vehicle.id, 'ID'), missing.detail.replace('veh_0000000000000000', 'ID'), `${stage}: ${method} ${url}`);
        }
        const theirs = await json(await stranger.browser.call('GET', `${fleetOf(other)}/vehicles?limit=100`));
        assert.ok(!theirs.data.some((v: { id: string }) => v.id === vehicle.id));
      }
      // As a viewer here, the vehicle is found on our path.
      assert.deepEqual(await json(await stranger.browser.call('GET', `${fleetOf(org)}/vehicles/${vehicle.id}`)), vehicle);
      assert.deepEqual(await json(await team.owner.browser.call('GET', `${fleetOf(org)}/vehicles/${vehicle.id}`)), vehicle, 'untouched');
    });

    test('the OpenAPI document describes the routes with the session scheme', async () => {
      const document = await json(await fetch(`${accounts.server.url}/v3/openapi.json`));
      const paths = Object.keys(document.paths).filter((p) => p.startsWith('/v3/organisations/{orgId}/fleet/')).sort();
      assert.deepEqual(paths, [
        '/v3/organisations/{orgId}/fleet/feed', '/v3/organisations/{orgId}/fleet/notification-settings', '/v3/organisations/{orgId}/fleet/vehicles',
        '/v3/organisations/{orgId}/fleet/vehicles/{id}', '/v3/organisations/{orgId}/fleet/vehicles/{id}/arrivals',
        '/v3/organisations/{orgId}/fleet/vehicles/{id}/arrivals/{arrivalId}', '/v3/organisations/{orgId}/fleet/vehicles/{id}/notification-settings',
      ]);
      for (const p of paths) {
        for (const [method, operation] of Object.entries(document.paths[p]) as [string, any][]) {
          assert.deepEqual(operation.security, [{ session: [] }], `${method} ${p}`);
          assert.ok(operation.tags.includes('Fleet'));
          assert.match(operation.description, method === 'get' ? /Every member/ : /403 `role_not_allowed` for viewers.*X-CSRF-Token/, `${method} ${p}`);
        }
      }
    });
  });
}

describe('logs of the session routes', () => {
  const logLines: string[] = [];
  let accounts: AccountsServer;

  before(async () => {
    accounts = await startAccountsServer({}, async () => {}, pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }));
  });
  after(() => accounts?.close());

  test('hold the requests but none of the registrations sent', { timeout: 60_000 }, async () => {
    const owner = await onboarded(accounts, 'logger');
    const org = owner.ownOrgId;
    const sent = ['G-SLOA', 'G-SLOB', 'BAD*SLOX'];
    const vehicle = await added(owner, org, { vehicle_type: 'aircraft', registration: 'G-SLOA', icao_type: 'A320' });
    await problem(await owner.browser.call('POST', `${fleetOf(org)}/vehicles`, { vehicle_type: 'aircraft', registration: 'g-sloa', icao_type: 'A320' }), 409, 'duplicate_registration');
    await problem(await owner.browser.call('PATCH', `${fleetOf(org)}/vehicles/${vehicle.id}`, { registration: 'BAD*SLOX' }), 400, 'validation_failed');
    assert.equal((await owner.browser.call('PATCH', `${fleetOf(org)}/vehicles/${vehicle.id}`, { registration: 'G-SLOB' })).status, 200);
    const stranger = new Browser(accounts.server.url);
    await problem(await stranger.call('POST', `${fleetOf(org)}/vehicles`, { vehicle_type: 'aircraft', registration: 'G-SLOB', icao_type: 'A320' }), 401, 'session_required');

    const log = logLines.join('');
    assert.ok(log.includes(`"url":"${fleetOf(org)}/vehicles"`), 'request lines are captured');
    for (const registration of sent) {
      for (const writing of [registration, registration.replace('-', ''), registration.toLowerCase()]) assert.ok(!log.includes(writing), writing);
    }
  });
});
