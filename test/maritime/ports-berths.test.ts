// Berth records over a real server: who sees them (every caller the shared ones, an organisation
// its own) and who may write them (operators, organisations' production keys for their own records;
// development keys only read), validation against the port, names unique within what one
// organisation sees, Idempotency-Key, pages, and the capacity estimate for ports without records.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { json } from '../support/http.ts';
import { TEST_API_KEY, startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
let server: TestServer;
const keys = { operator: TEST_API_KEY, harbour: '', rival: '', development: '' };

async function lamis(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [bin, ...args, '--json'], { env: { ...process.env, LAMIS_DATA_DIR: server.config.dataDir } });
  return JSON.parse(stdout);
}

/** A key of a new organisation, or, with `org`, one more key of that organisation. */
async function orgKey(name: string, env: 'production' | 'development', org?: string): Promise<{ secret: string; org: string }> {
  const id = org ?? (await lamis('org', 'create', '--name', name, '--plan', 'enterprise')).id;
  const key = await lamis('keys', 'create', '--org', id, '--env', env, '--name', 'berths');
  return { secret: key.secret, org: id };
}

let harbourOrg = '';
before(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-berths-'));
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', lat: 51.9, lon: 4.4833, harbour_size: 'large', channel_depth_m: 11 }),
  ]);
  server = await startTestServer({ config: { dataDir } });
  const harbour = await orgKey('Harbour Agents', 'production');
  harbourOrg = harbour.org;
  keys.harbour = harbour.secret;
  keys.rival = (await orgKey('Rival Agents', 'production')).secret;
  keys.development = (await orgKey('Harbour Agents', 'development', harbourOrg)).secret;
});
after(() => server.close());

async function call(method: string, pathname: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + pathname, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: response.status === 204 ? null : await json(response) };
}

const BERTHS = '/v3/maritime/ports/NLRTM/berths';

test('an operator and an organisation add berths; each record names who made it', async () => {
  const byOperator = await call('POST', BERTHS, keys.operator, { name: 'Waalhaven 1', length_m: 250, depth_m: 12.5, cargo_types: ['container'] });
  assert.equal(byOperator.status, 201);
  assert.equal(byOperator.headers.get('location'), `${BERTHS}/${byOperator.body.id}`);
  assert.match(byOperator.body.id, /^brt_[0-9A-Za-z]{16}$/);
  assert.deepEqual([byOperator.body.port_id, byOperator.body.organisation_id, byOperator.body.lat], ['NLRTM', null, null]);

  const byOrg = await call('POST', BERTHS, keys.harbour, { name: 'Europahaven 2', length_m: 400, depth_m: 16, cargo_types: ['liquid_bulk', 'container'], lat: 51.95, lon: 4.3 });
  assert.equal(byOrg.status, 201);
  assert.equal(byOrg.body.organisation_id, harbourOrg);
  assert.deepEqual(byOrg.body.cargo_types, ['container', 'liquid_bulk']);

  const read = await call('GET', `${BERTHS}/${byOrg.body.id}`, keys.development);
  assert.deepEqual(read.body, byOrg.body, 'every key of the organisation reads its records');
  assert.equal((await call('GET', `${BERTHS}/${byOrg.body.id}`, keys.rival)).body.code, 'berth_not_found', 'another organisation does not see them');
  assert.deepEqual((await call('GET', `${BERTHS}/${byOperator.body.id}`, keys.rival)).body, byOperator.body, 'every key reads the shared records');
});

test('who may change and delete: the maker and operators; development keys only read; other organisations find nothing', async () => {
  const made = await call('POST', BERTHS, keys.harbour, { name: 'Botlek 5', cargo_types: ['dry_bulk'] });
  const url = `${BERTHS}/${made.body.id}`;
  const own = await call('PATCH', url, keys.harbour, { depth_m: 14, lat: 51.89, lon: 4.3 });
  assert.equal(own.status, 200);
  assert.deepEqual([own.body.depth_m, own.body.name, own.body.cargo_types], [14, 'Botlek 5', ['dry_bulk']], 'only the fields sent change');
  assert.ok(own.body.updated_at > made.body.updated_at || own.body.updated_at === made.body.updated_at);

  const rival = await call('PATCH', url, keys.rival, { depth_m: 2 });
  assert.deepEqual([rival.status, rival.body.code], [404, 'berth_not_found']);
  assert.equal((await call('DELETE', url, keys.rival)).body.code, 'berth_not_found');
  const development = await call('POST', BERTHS, keys.development, { name: 'Test quay' });
  assert.deepEqual([development.status, development.body.reason], [403, 'development_key']);
  assert.equal((await call('PATCH', url, keys.development, { depth_m: 2 })).body.reason, 'development_key');

  const operatorFix = await call('PATCH', url, keys.operator, { length_m: null });
  assert.deepEqual([operatorFix.status, operatorFix.body.length_m, operatorFix.body.organisation_id], [200, null, harbourOrg]);
  const operatorMade = (await call('GET', BERTHS + '?limit=100', keys.operator)).body.data.find((b: { name: string }) => b.name === 'Waalhaven 1');
  assert.equal((await call('PATCH', `${BERTHS}/${operatorMade.id}`, keys.harbour, { depth_m: 3 })).body.reason, 'other_organisation');

  assert.equal((await call('DELETE', url, keys.harbour)).status, 204);
  assert.equal((await call('GET', url, keys.harbour)).body.code, 'berth_not_found');
  assert.equal((await call('DELETE', url, keys.harbour)).body.code, 'berth_not_found');
});

test('names are unique per port; an Idempotency-Key makes retries safe', async () => {
  const taken = await call('POST', BERTHS, keys.operator, { name: 'waalhaven-1' });
  assert.deepEqual([taken.status, taken.body.code], [409, 'berth_name_taken']);
  const first = await call('POST', BERTHS, keys.harbour, { name: 'Eemhaven 3', length_m: 300 }, { 'idempotency-key': 'eem-3' });
  const retry = await call('POST', BERTHS, keys.harbour, { name: 'Eemhaven 3', length_m: 300 }, { 'idempotency-key': 'eem-3' });
  assert.deepEqual([first.status, retry.status, retry.body.id], [201, 200, first.body.id]);
  const reused = await call('POST', BERTHS, keys.harbour, { name: 'Eemhaven 4' }, { 'idempotency-key': 'eem-3' });
  assert.deepEqual([reused.status, reused.body.code], [422, 'berth_idempotency_key_reused']);
  const renamed = await call('PATCH', `${BERTHS}/${first.body.id}`, keys.harbour, { name: 'WAALHAVEN 1' });
  assert.deepEqual([renamed.status, renamed.body.code], [409, 'berth_name_taken']);
});

test('bad fields are 400s naming the field; unknown ports and berths 404', async () => {
  const path400 = async (body: unknown, method = 'POST', url = BERTHS) => {
    const answer = await call(method, url, keys.operator, body);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    return answer.body.errors.map((error: { path: string }) => error.path).join(' ');
  };
  assert.match(await path400({ name: 'Far away', lat: 52.5, lon: 3 }), /\/body\/lat/);
  assert.match(await path400({ name: 'Half', lat: 51.9 }), /\/body\/lon/);
  assert.match(await path400({ name: '   ' }), /\/body\/name/);
  assert.match(await path400({ name: 'Negative', length_m: -5 }), /length_m/);
  assert.match(await path400({ name: 'Odd cargo', cargo_types: ['bananas'] }), /cargo_types/);
  assert.match(await path400({ name: 'Extra', colour: 'red' }), /colour|body/);
  assert.match(await path400({}), /name|body/);
  const some = (await call('GET', BERTHS, keys.operator)).body.data[0];
  assert.match(await path400({}, 'PATCH', `${BERTHS}/${some.id}`), /body/);
  assert.match((await call('POST', BERTHS, keys.operator, { name: 'Far', lat: 52.5, lon: 3 })).body.detail, /nm from Rotterdam, outside its port area \(`area` of \/v3\/maritime\/ports\/NLRTM\); a berth must lie within it/);

  assert.equal((await call('GET', '/v3/maritime/ports/NLXXX/berths', keys.operator)).body.code, 'port_not_found');
  assert.equal((await call('POST', '/v3/maritime/ports/NLXXX/berths', keys.operator, { name: 'Q' })).body.code, 'port_not_found');
  assert.equal((await call('GET', `${BERTHS}/brt_nothere`, keys.operator)).body.code, 'berth_not_found');
  assert.equal((await call('GET', `${BERTHS}?cursor=abc`, keys.operator)).body.code, 'invalid_cursor');
});

test('pages by name, with capacity from the records, or an estimate where there are none', async () => {
  for (const name of ['Maasvlakte 1', 'Maasvlakte 2', 'Maasvlakte 3']) await call('POST', BERTHS, keys.operator, { name });
  const names: string[] = [];
  let cursor: string | null = null;
  let capacity: any;
  do {
    const page: any = (await call('GET', `${BERTHS}?limit=2${cursor ? `&cursor=${cursor}` : ''}`, keys.rival)).body;
    names.push(...page.data.map((berth: { name: string }) => berth.name));
    cursor = page.next_cursor;
    capacity = page.capacity;
  } while (cursor !== null);
  assert.deepEqual(names, [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  assert.ok(names.includes('Maasvlakte 2') && !names.includes('Europahaven 2'), 'the shared records, not another organisation\'s');
  assert.deepEqual(capacity, { basis: 'berths', berths: names.length, by_harbour_size: null, observed_peak: null });

  const none = (await call('GET', '/v3/maritime/ports/DEHAM/berths', keys.rival)).body;
  assert.deepEqual(none.data, []);
  assert.deepEqual(none.capacity, { basis: 'estimate', berths: 10, by_harbour_size: 10, observed_peak: 0 });
});
