// Nobody sees another organisation's data. For every route of the running server that takes an id
// in its path (taken from the server's route inventory, so a new route cannot be forgotten), a
// member of organisation A calls it with an id that belongs to organisation B and gets 404, with
// the same problem as for an id that does not exist, never 403: existence does not leak. Routes
// whose ids are not an organisation's (airports, vessels, ports...) are listed as exempt with the
// reason. Each call is then made as B, which must not answer 404, so the ids are real. Shared data
// that organisations write (METAR, TAF, NOTAMs, AIS) is in shared-data.test.ts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { EventStore } from '../../src/events/index.ts';
import { createMemoryBus } from '../../src/platform/bus/memory.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { json } from '../support/http.ts';
import { newEmail, newMember, onboarded, setPlan, type Member } from './members-support.ts';
import { ACCOUNT_BACKENDS, Browser, type AccountsServer } from './support.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;

/** What organisation B owns, by the ids the routes take. */
interface Owned {
  org: string;
  member: string;
  invitation: string;
  key: string;
  session: string;
  vehicle: string;
  /** A second vehicle, for the fleet routes under the organisation's path: each mount's DELETE removes one. */
  orgVehicle: string;
  booking: string;
  /** A berth record of B's own. */
  berth: string;
  /** An event of B's, opened through the store on the server's storage. */
  event: string;
  /** An aircraft kept for the arrival routes, with an arrival for each mount: no DELETE of a vehicle removes them first. */
  arrivalVehicle: string;
  arrival: string;
  orgArrival: string;
  zone: string;
  watchEntry: string;
  webhook: string;
}

/** Path parameters that name something of an organisation, and the problem a foreign one gets. */
const OWNED_PARAMS: { route: RegExp; param: string; value: (b: Owned) => string; code: string }[] = [
  { route: /^\/v3\/organisations\/:orgId/, param: 'orgId', value: (b) => b.org, code: 'organisation_not_found' },
  { route: /^\/v3\/organisations\/:orgId\/members\/:userId/, param: 'userId', value: (b) => b.member, code: 'member_not_found' },
  { route: /^\/v3\/organisations\/:orgId\/invitations\/:invitationId/, param: 'invitationId', value: (b) => b.invitation, code: 'invitation_not_found' },
  { route: /^\/v3\/organisations\/:orgId\/keys\/:keyId/, param: 'keyId', value: (b) => b.key, code: 'key_not_found' },
  { route: /^\/v3\/accounts\/sessions\/:id$/, param: 'id', value: (b) => b.session, code: 'session_not_found' },
  { route: /^\/v3\/fleet\/vehicles\/:id\/arrivals/, param: 'id', value: (b) => b.arrivalVehicle, code: 'vehicle_not_found' },
  { route: /^\/v3\/fleet\/vehicles\/:id\/arrivals\/:arrivalId$/, param: 'arrivalId', value: (b) => b.arrival, code: 'arrival_not_found' },
  { route: /^\/v3\/organisations\/:orgId\/fleet\/vehicles\/:id\/arrivals/, param: 'id', value: (b) => b.arrivalVehicle, code: 'vehicle_not_found' },
  { route: /^\/v3\/organisations\/:orgId\/fleet\/vehicles\/:id\/arrivals\/:arrivalId$/, param: 'arrivalId', value: (b) => b.orgArrival, code: 'arrival_not_found' },
  { route: /^\/v3\/fleet\/vehicles\/:id/, param: 'id', value: (b) => b.vehicle, code: 'vehicle_not_found' },
  { route: /^\/v3\/organisations\/:orgId\/fleet\/vehicles\/:id/, param: 'id', value: (b) => b.orgVehicle, code: 'vehicle_not_found' },
  { route: /^\/v3\/aviation\/airports\/:icao\/slots\/bookings\/:id$/, param: 'id', value: (b) => b.booking, code: 'booking_not_found' },
  { route: /^\/v3\/maritime\/ports\/:id\/berths\/:berthId/, param: 'berthId', value: (b) => b.berth, code: 'berth_not_found' },
  { route: /^\/v3\/events\/:id/, param: 'id', value: (b) => b.event, code: 'event_not_found' },
  { route: /^\/v3\/zones\/:id$/, param: 'id', value: (b) => b.zone, code: 'zone_not_found' },
  { route: /^\/v3\/watch-list\/:id$/, param: 'id', value: (b) => b.watchEntry, code: 'watch_entry_not_found' },
  { route: /^\/v3\/webhooks\/:id/, param: 'id', value: (b) => b.webhook, code: 'webhook_not_found' },
];

/** Path parameters that name nothing of an organisation: the same for every caller. */
const EXEMPT_PARAMS: { route: RegExp; param: string; value: string; reason: string }[] = [
  { route: /^\/v3\/aviation\/airports\/:icao/, param: 'icao', value: 'EGLL', reason: 'an airport: OurAirports reference data, public' },
  { route: /^\/v3\/aviation\/aircraft-types\/:designator/, param: 'designator', value: 'A320', reason: 'an ICAO aircraft type designator: reference data' },
  { route: /^\/v3\/maritime\/vessels\/:mmsi/, param: 'mmsi', value: '235000000', reason: 'a vessel by MMSI: AIS broadcasts are public' },
  { route: /^\/v3\/maritime\/ports\/:id/, param: 'id', value: 'GBSOU', reason: 'a port of the port index: reference data' },
  { route: /^\/problems\/:code$/, param: 'code', value: 'not_found', reason: 'a problem code: public documentation' },
];

/** Routes whose path has a wildcard rather than an id. */
const EXEMPT_ROUTES: Record<string, string> = {
  '*': 'the CORS preflight catch-all: no id',
  '/docs/static/*': 'the API reference\'s static files: file names, no ids',
  '/assets/*': 'the dashboard\'s built files: file names, no ids',
};

const ETA = new Date(Date.now() + 6 * 3_600_000).toISOString();

/** Bodies, where a route reads one, that would be accepted for the caller's own ids. */
const BODIES: Record<string, unknown> = {
  'POST /v3/fleet/vehicles/:id/arrivals': { destination_icao: 'EGLL', eta_utc: ETA },
  'PATCH /v3/fleet/vehicles/:id/arrivals/:arrivalId': { eta_utc: ETA },
  'POST /v3/organisations/:orgId/fleet/vehicles/:id/arrivals': { destination_icao: 'EGLL', eta_utc: ETA },
  'PATCH /v3/organisations/:orgId/fleet/vehicles/:id/arrivals/:arrivalId': { eta_utc: ETA },
  'PATCH /v3/zones/:id': { name: 'Renamed' },
  'PATCH /v3/watch-list/:id': { note: 'Renamed' },
  'PATCH /v3/webhooks/:id': { description: 'Renamed' },
  'PUT /v3/organisations/:orgId/plan': { plan: 'enterprise' },
  'PATCH /v3/organisations/:orgId/members/:userId': { role: 'viewer' },
  'POST /v3/organisations/:orgId/invitations': { email: newEmail('crew'), role: 'viewer' },
  'POST /v3/organisations/:orgId/keys/:keyId/rotate': { overlap_hours: 1 },
  'PATCH /v3/fleet/vehicles/:id': { crosswind_limit_kt: 25 },
  'PUT /v3/fleet/vehicles/:id/notification-settings': { thresholds: {} },
  'POST /v3/organisations/:orgId/fleet/vehicles': { vehicle_type: 'vessel', mmsi: 235012345 },
  'PUT /v3/organisations/:orgId/fleet/notification-settings': { thresholds: {} },
  'PATCH /v3/organisations/:orgId/fleet/vehicles/:id': { crosswind_limit_kt: 25 },
  'PUT /v3/organisations/:orgId/fleet/vehicles/:id/notification-settings': { thresholds: {} },
  'PATCH /v3/maritime/ports/:id/berths/:berthId': { depth_m: 12 },
};

interface Call {
  route: string;
  method: string;
  path: string;
  caller: 'session' | 'apiKey';
  body: unknown;
  /** The problem code a foreign id gets; null for HEAD, which has no body. */
  code: string | null;
}

const paramsOf = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);

for (const backend of ACCOUNT_BACKENDS) {
  describe(`cross-organisation access on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;

    before(async () => {
      accounts = await backend.start();
    });
    after(() => accounts?.close());

    /** A production key for the organisation, made by the operator command (no identity check, no load shedding). */
    async function operatorKey(orgId: string): Promise<{ id: string; secret: string }> {
      const { stdout } = await run(process.execPath, [bin, 'keys', 'create', '--org', orgId, '--env', 'production', '--name', 'cross-org test', '--json'],
        { env: { ...process.env, ...accounts.env } });
      return JSON.parse(stdout);
    }

    /** An owner, their organisation on Enterprise and a production key for it. */
    async function organisation(label: string): Promise<{ owner: Member; org: string; key: { id: string; secret: string } }> {
      const owner = await onboarded(accounts, label);
      await setPlan(owner, owner.ownOrgId, 'enterprise');
      return { owner, org: owner.ownOrgId, key: await operatorKey(owner.ownOrgId) };
    }

    /** An event of the organisation, opened in the server's storage as a rule would. */
    async function raisedEvent(orgId: string): Promise<string> {
      const database = openDatabase(accounts.server.config);
      try {
        const { event } = await new EventStore(database, createMemoryBus(() => {})).open(orgId, {
          kind: 'vessel.zone_entered', severity: 'info', subject: { type: 'vessel', id: '235000000', mmsi: 235000000 },
          summary: 'Vessel 235000000 entered a zone.', data: {},
        });
        return event.id;
      } finally {
        await database.close();
      }
    }

    const send = (call: { method: string; path: string; body: unknown }, as: { browser: Browser; secret: string }, caller: Call['caller']) =>
      caller === 'session'
        ? as.browser.call(call.method, call.path, call.body)
        : fetch(accounts.server.url + call.path, {
          method: call.method,
          headers: { authorization: `Bearer ${as.secret}`, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
        });

    test('a member of one organisation gets 404 for every id of another', { timeout: 120_000 }, async () => {
      const a = await organisation('alpha');
      const b = await organisation('bravo');
      const apiKey = (secret: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(accounts.server.url + path, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

      // Something of every kind in B: a member, an open invitation, a key, a second session, a vehicle by key and one
      // through the organisation's path, a slot booking, a berth record, an aircraft with two planned arrivals, a zone,
      // a webhook.
      const member = await newMember(accounts, b.owner, b.org, 'admin');
      const invitation = await json(await b.owner.browser.call('POST', `/v3/organisations/${b.org}/invitations`, { email: newEmail('invitee'), role: 'viewer' }));
      const secondSession = new Browser(accounts.server.url);
      assert.equal((await secondSession.signIn(b.owner.email, 'a long enough password')).status, 201);
      const session = (await json(await secondSession.call('GET', '/v3/accounts/session'))).session.id;
      const vehicle = await apiKey(b.key.secret, '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320' });
      assert.equal(vehicle.status, 201, await vehicle.clone().text());
      const orgVehicle = await b.owner.browser.call('POST', `/v3/organisations/${b.org}/fleet/vehicles`, { vehicle_type: 'helicopter', registration: 'G-EUPU', icao_type: 'EC35' });
      assert.equal(orgVehicle.status, 201, await orgVehicle.clone().text());
      const booking = await apiKey(b.key.secret, '/v3/aviation/airports/EGLL/slots/bookings',
        { eta_utc: new Date(Date.now() + 3 * 3_600_000).toISOString(), registration: 'G-EUPT' }, { 'idempotency-key': 'cross-organisation' });
      assert.equal(booking.status, 201, await booking.clone().text());
      const berth = await apiKey(b.key.secret, '/v3/maritime/ports/GBSOU/berths', { name: 'Bravo Quay' });
      assert.equal(berth.status, 201, await berth.clone().text());
      const arrivalVehicle = await json(await apiKey(b.key.secret, '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-EUPV', icao_type: 'A320' }));
      const arrivals = [];
      for (let i = 0; i < 2; i++) {
        const arrival = await apiKey(b.key.secret, `/v3/fleet/vehicles/${arrivalVehicle.id}/arrivals`, { destination_icao: 'EGLL', eta_utc: ETA });
        assert.equal(arrival.status, 201, await arrival.clone().text());
        arrivals.push((await json(arrival)).id);
      }
      const zone = await apiKey(b.key.secret, '/v3/zones', { name: 'Bravo waters', geometry: { type: 'Circle', center: { lat: 50.8, lon: -1.3 }, radius_nm: 5 } });
      assert.equal(zone.status, 201, await zone.clone().text());
      const watchEntry = await apiKey(b.key.secret, '/v3/watch-list', { type: 'airport', icao: 'EGLL' });
      assert.equal(watchEntry.status, 201, await watchEntry.clone().text());
      // A name that resolves to loopback: B's own test send is refused when connecting, without leaving the machine.
      const webhook = await apiKey(b.key.secret, '/v3/webhooks', { url: 'https://localhost:9/bravo' });
      assert.equal(webhook.status, 201, await webhook.clone().text());
      const owned: Owned = {
        org: b.org, member: member.userId, invitation: invitation.id, key: b.key.id, session, vehicle: (await json(vehicle)).id,
        orgVehicle: (await json(orgVehicle)).id, booking: (await json(booking)).id, berth: (await json(berth)).id, event: await raisedEvent(b.org),
        arrivalVehicle: arrivalVehicle.id, arrival: arrivals[0], orgArrival: arrivals[1], zone: (await json(zone)).id,
        watchEntry: (await json(watchEntry)).id,
        webhook: (await json(webhook)).id,
      };

      const document = await json(await fetch(`${accounts.server.url}/v3/openapi.json`));
      const security = (method: string, url: string): Call['caller'] | null => {
        const item = document.paths[url.replace(/:(\w+)/g, '{$1}')];
        const operation = item?.[method === 'HEAD' ? 'get' : method.toLowerCase()];
        const scheme = Object.keys(operation?.security?.[0] ?? {})[0];
        return scheme === 'session' || scheme === 'apiKey' ? scheme : null;
      };

      const calls: Call[] = [];
      const exempt: string[] = [];
      const unclassified: string[] = [];
      for (const { method, url } of accounts.server.app.routeInventory.entries) {
        const route = `${method} ${url}`;
        if (!/[:*]/.test(url)) continue;
        if (url in EXEMPT_ROUTES) {
          if (method !== 'HEAD') exempt.push(`${route}: ${EXEMPT_ROUTES[url]}`);
          continue;
        }
        const values = new Map<string, { value: (b: Owned) => string; code: string | null; reason?: string }>();
        for (const param of paramsOf(url)) {
          const ownedParam = OWNED_PARAMS.find((p) => p.param === param && p.route.test(url));
          const exemptParam = EXEMPT_PARAMS.find((p) => p.param === param && p.route.test(url));
          if (ownedParam) values.set(param, { value: ownedParam.value, code: ownedParam.code });
          else if (exemptParam) values.set(param, { value: () => exemptParam.value, code: null, reason: exemptParam.reason });
        }
        if (values.size !== paramsOf(url).length || url.includes('*')) {
          unclassified.push(route);
          continue;
        }
        const ownedParams = [...values].filter(([, v]) => v.code !== null);
        if (ownedParams.length === 0) {
          if (method !== 'HEAD') exempt.push(`${route}: ${[...values.values()].map((v) => v.reason).join('; ')}`);
          continue;
        }
        const caller = security(method, url);
        if (caller === null) {
          unclassified.push(`${route} (takes an organisation's id but needs neither a session nor an API key)`);
          continue;
        }
        const body = BODIES[`${method} ${url}`];
        // All of B's ids; then, under A's own organisation, each further id of B's.
        const variants: Map<string, string>[] = [new Map(ownedParams.map(([param, v]) => [param, v.value(owned)]))];
        if (ownedParams[0]![0] === 'orgId' && ownedParams.length > 1) variants.push(new Map([...variants[0]!, ['orgId', a.org]]));
        for (const variant of variants) {
          const path = url.replace(/:(\w+)/g, (_, param: string) => variant.get(param) ?? values.get(param)!.value(owned));
          const foreign = ownedParams.find(([param]) => variant.get(param) !== a.org)!;
          calls.push({ route, method, path, caller, body, code: method === 'HEAD' ? null : foreign[1].code });
        }
      }
      assert.deepEqual(unclassified, [], 'routes with path parameters this test does not know: add them to OWNED_PARAMS or EXEMPT_PARAMS');

      // Every id route of the organisation features is covered.
      const covered = new Set(calls.map((c) => c.route));
      for (const route of [
        'DELETE /v3/accounts/sessions/:id', 'GET /v3/fleet/vehicles/:id', 'DELETE /v3/aviation/airports/:icao/slots/bookings/:id',
        'GET /v3/organisations/:orgId', 'DELETE /v3/organisations/:orgId/members/:userId', 'DELETE /v3/organisations/:orgId/invitations/:invitationId',
        'POST /v3/organisations/:orgId/keys/:keyId/rotate', 'GET /v3/organisations/:orgId/fleet/vehicles',
        'PATCH /v3/organisations/:orgId/fleet/vehicles/:id', 'DELETE /v3/organisations/:orgId/fleet/vehicles/:id',
        'PUT /v3/organisations/:orgId/fleet/vehicles/:id/notification-settings',
        'DELETE /v3/fleet/vehicles/:id/arrivals/:arrivalId', 'PATCH /v3/organisations/:orgId/fleet/vehicles/:id/arrivals/:arrivalId',
        'GET /v3/zones/:id', 'DELETE /v3/zones/:id', 'GET /v3/watch-list/:id', 'PATCH /v3/watch-list/:id', 'DELETE /v3/watch-list/:id',
        'GET /v3/maritime/ports/:id/berths/:berthId', 'PATCH /v3/maritime/ports/:id/berths/:berthId', 'DELETE /v3/maritime/ports/:id/berths/:berthId',
        'GET /v3/events/:id', 'POST /v3/events/:id/acknowledge',
      ]) assert.ok(covered.has(route), route);

      const asA = { browser: a.owner.browser, secret: a.key.secret };
      for (const call of calls) {
        const response = await send(call, asA, call.caller);
        const text = await response.text();
        assert.equal(response.status, 404, `${call.method} ${call.path} as organisation A: ${response.status} ${text}`);
        if (call.code !== null) assert.equal(JSON.parse(text).code, call.code, `${call.method} ${call.path}`);
      }

      // As B, the same ids are found. Key routes first (a revocation ends B's key), deletions last.
      const asB = { browser: b.owner.browser, secret: b.key.secret };
      const rank = (c: Call) => (c.caller === 'apiKey' ? 0 : 2) + (c.method === 'DELETE' ? 1 : 0);
      const mine = calls.filter((c) => c.method !== 'HEAD' && !c.path.includes(a.org)).sort((x, y) => rank(x) - rank(y));
      for (const call of mine) {
        const response = await send(call, asB, call.caller);
        const text = await response.text();
        assert.ok(response.status !== 404 && response.status !== 401, `${call.method} ${call.path} as organisation B: ${response.status} ${text}`);
      }
      // Printed for the record: what was tried and what was left out, and why.
      console.log(`checked ${calls.length} calls on ${covered.size} routes; exempt:\n  ${exempt.join('\n  ')}`);
    });
  });
}
