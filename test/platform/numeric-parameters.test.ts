// Numbers in requests are finite. Query strings, path parameters and headers arrive as text, and
// "Infinity", "-Infinity", "1e309" and "NaN" read as numbers that pass no sane limit (`limit`
// at most 100, a radius, a draught). For every route of the running server with a numeric query
// parameter (found in the API description, so a new route is covered without being listed here),
// each such value must answer 400 `validation_failed` naming the parameter. JSON bodies can spell
// an infinite number too (`1e309`), and get the same answer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { onboarded, type Member } from '../accounts/members-support.ts';
import { startAccountsServer, type AccountsServer } from '../accounts/support.ts';
import { json } from '../support/http.ts';
import { AUTH } from '../support/server.ts';

const NOT_FINITE = ['Infinity', '-Infinity', '1e309', 'NaN'];

/** Path parameters the schemas accept, so each call gets as far as its query. */
const PATH_VALUES: { route: RegExp; param: string; value: (member: Member) => string }[] = [
  { route: /^\/v3\/organisations\/:orgId\//, param: 'orgId', value: (member) => member.ownOrgId },
  { route: /^\/v3\/maritime\/ports\/:id\//, param: 'id', value: () => 'GBSOU' },
  { route: /^\/v3\/maritime\/vessels\/:mmsi\//, param: 'mmsi', value: () => '235000000' },
  // The query is refused before the vehicle is looked up, so any well-formed id serves.
  { route: /\/fleet\/vehicles\/:id\/arrivals$/, param: 'id', value: () => 'veh_0000000000000000' },
  { route: /^\/v3\/webhooks\/:id\/deliveries$/, param: 'id', value: () => 'whk_0000000000000000' },
];

let accounts: AccountsServer;
let member: Member;

before(async () => {
  accounts = await startAccountsServer({}, async () => {});
  member = await onboarded(accounts, 'numbers');
});
after(() => accounts?.close());

const isNumeric = (schema: any): boolean =>
  [schema?.type].flat().some((type) => type === 'number' || type === 'integer') || (schema?.anyOf ?? schema?.oneOf ?? []).some(isNumeric);

test('every numeric query parameter of every route refuses Infinity, 1e309 and NaN with a 400 naming it', { timeout: 120_000 }, async () => {
  const document = await json(await fetch(`${accounts.server.url}/v3/openapi.json`));
  const checked: string[] = [];
  const unknownPaths: string[] = [];
  for (const { method, url, hidden } of accounts.server.app.routeInventory.entries) {
    if (hidden) continue;
    const operation = document.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    const numeric: string[] = (operation?.parameters ?? [])
      .filter((parameter: any) => parameter.in === 'query' && isNumeric(parameter.schema))
      .map((parameter: any) => parameter.name);
    if (numeric.length === 0) continue;
    const path = url.replace(/:(\w+)/g, (_, param: string) => {
      const known = PATH_VALUES.find((entry) => entry.param === param && entry.route.test(url));
      if (!known) unknownPaths.push(`${method} ${url} (:${param})`);
      return known?.value(member) ?? param;
    });
    const bySession = Object.keys(operation.security?.[0] ?? {})[0] === 'session';
    for (const name of numeric) {
      for (const value of NOT_FINITE) {
        const target = `${path}?${name}=${value}`;
        const response = bySession ? await member.browser.call(method, target) : await fetch(accounts.server.url + target, { method, headers: AUTH });
        const text = await response.text();
        assert.equal(response.status, 400, `${method} ${target}: ${response.status} ${text.slice(0, 300)}`);
        const body = JSON.parse(text);
        assert.equal(body.code, 'validation_failed', `${method} ${target}`);
        assert.ok(body.errors.some((error: { path: string }) => error.path === `/querystring/${name}`), `${method} ${target} does not name ${name}: ${text}`);
      }
      checked.push(`${method} ${url} ${name}`);
    }
  }
  assert.deepEqual(unknownPaths, [], 'routes whose path parameters this test has no value for: add them to PATH_VALUES');
  // The limits of lists, radii, the tide and ETA parameters: a walk that found few has missed them.
  assert.ok(checked.length >= 20, `only ${checked.length} numeric query parameters found:\n${checked.join('\n')}`);
  assert.ok(checked.includes('GET /v3/maritime/vessels limit') && checked.includes('GET /v3/organisations/:orgId/members limit'), checked.join('\n'));
});

test('a JSON body with an infinite number is refused, naming the field', async () => {
  const response = await fetch(`${accounts.server.url}/v3/fleet/vehicles`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: '{"vehicle_type":"aircraft","registration":"G-NUMB","icao_type":"A320","crosswind_limit_kt":1e309}',
  });
  const body = await json(response);
  assert.equal(response.status, 400, JSON.stringify(body));
  assert.equal(body.code, 'validation_failed');
  assert.deepEqual(body.errors.map((error: { path: string }) => error.path), ['/body/crosswind_limit_kt']);
});
