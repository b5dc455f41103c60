// Organisation keys made with the operator commands against a running server: they work at once,
// draw on their plan's budget with the rate-limit headers on every answer, and stop working when
// revoked, with a 401 that says why.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { json } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
let server: TestServer;

async function lamis(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [bin, ...args, '--json'], { env: { ...process.env, LAMIS_DATA_DIR: server.config.dataDir } });
  return JSON.parse(stdout);
}

const flags = (path: string, secret: string) => fetch(server.url + path, { headers: { authorization: `Bearer ${secret}` } });

before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('a Starter production key gets 100 requests a minute, then 429 with its headers', { timeout: 60_000 }, async () => {
  const org = await lamis('org', 'create', '--name', 'Harbour Ops', '--plan', 'starter');
  const key = await lamis('keys', 'create', '--org', org.id, '--env', 'production', '--name', 'dispatch');
  assert.match(key.secret, /^lamis_live_/);

  const first = await flags('/v3/maritime/flags', key.secret);
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('ratelimit-policy'), '"organisation";q=100;w=60');
  assert.match(first.headers.get('ratelimit') ?? '', /^"organisation";r=99;t=\d+$/);
  assert.equal(first.headers.get('x-ratelimit-limit'), '100');
  assert.equal(first.headers.get('x-ratelimit-remaining'), '99');

  for (let i = 2; i <= 100; i++) assert.equal((await flags('/v3/maritime/flags', key.secret)).status, 200, `request ${i}`);
  const refused = await flags('/v3/maritime/flags', key.secret);
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
  const problem = await json(refused);
  assert.equal(problem.code, 'rate_limited');

  // The 100 served requests are the key's usage; the refused one is not. Servers write their
  // counts every 10 s; all 101 were answered before the first read, so a count of 100 or more
  // holds every one that was counted.
  const deadline = Date.now() + 20_000;
  let requests = 0;
  while (requests < 100 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    requests = (await lamis('usage', '--org', org.id)).data.reduce((sum: number, row: { requests: number }) => sum + row.requests, 0);
  }
  assert.equal(requests, 100);

  // The operator keys of the instance are not limited.
  assert.equal((await flags('/v3/maritime/flags', server.config.apiKeys[0]!)).headers.get('ratelimit-policy'), null);
});

test('a development key draws on its own, lower budget', { timeout: 30_000 }, async () => {
  const org = await lamis('org', 'create', '--name', 'Flight School', '--plan', 'pro');
  const key = await lamis('keys', 'create', '--org', org.id, '--env', 'development', '--name', 'laptop');
  assert.match(key.secret, /^lamis_test_/);
  const response = await flags('/v3/maritime/flags', key.secret);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('ratelimit-policy'), '"key";q=60;w=60');
});

test('a revoked key answers 401 saying so', { timeout: 30_000 }, async () => {
  const org = await lamis('org', 'create', '--name', 'Short Lived', '--plan', 'enterprise');
  const key = await lamis('keys', 'create', '--org', org.id, '--env', 'production', '--name', 'temp');
  assert.equal((await flags('/v3/maritime/flags', key.secret)).status, 200);
  await lamis('keys', 'revoke', key.id);
  // The server caches a verified key for up to 10 s; a revocation made by another process
  // takes effect within that time.
  const deadline = Date.now() + 15_000;
  let response: Response;
  do {
    await new Promise((resolve) => setTimeout(resolve, 500));
    response = await flags('/v3/maritime/flags', key.secret);
  } while (response.status === 200 && Date.now() < deadline);
  assert.equal(response.status, 401);
  assert.equal((await json(response)).reason, 'revoked');
});
