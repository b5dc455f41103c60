// The HTTP conventions, over a real loopback server: problem documents, request ids, security
// headers, CORS, deprecation, metrics and logs.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { Type } from 'typebox';
import { newSecret } from '../../src/accounts/keys/keys.ts';
import { defaultConfig } from '../../src/config.ts';
import { loggerOptions } from '../../src/server.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const logLines: Record<string, unknown>[] = [];
const logSink = new Writable({
  write(chunk, _encoding, callback) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    callback();
  },
});

let server: TestServer;

before(async () => {
  server = await startTestServer({
    config: { corsOrigins: ['https://ops.example'] },
    logger: pino(loggerOptions(defaultConfig({ logLevel: 'info' })), logSink),
    // Probe routes that exercise the platform the way feature routes will.
    beforeListen(app) {
      app.post('/v3/probe/echo', {
        schema: { body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 20 }), count: Type.Optional(Type.Integer({ minimum: 0 })) }) },
      }, async (request) => request.body);
      app.get('/v3/probe/fail', async () => {
        throw new Error('secret internals at /srv/lamis');
      });
      app.get('/v3/probe/old', {
        config: { deprecation: { since: '2026-06-01T00:00:00Z', sunset: '2027-06-01T00:00:00Z', link: 'https://lamis.example/changes' } },
      }, async () => ({ ok: true }));
    },
  });
});
after(() => server.close());

async function problem(response: Response, status: number, code: string) {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(body.type, `/problems/${code}`);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.equal(body.request_id, response.headers.get('request-id'));
  assert.ok(body.request_id);
  return body;
}

const post = (path: string, body: string | Uint8Array, contentType = 'application/json') =>
  fetch(server.url + path, { method: 'POST', headers: { ...AUTH, 'content-type': contentType }, body });

describe('API keys', () => {
  const echo = (headers: Record<string, string>) =>
    fetch(`${server.url}/v3/probe/echo`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"name":"EGLL"}' });

  test('a /v3 route without a key answers 401 with a Bearer challenge', async () => {
    const response = await echo({});
    const body = await problem(response, 401, 'unauthorized');
    assert.equal(body.reason, 'missing');
    assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="LAMIS"');
    assert.match(body.detail, /Authorization: Bearer/);
  });

  test('a malformed header, a mistyped key or an unknown key answers 401 saying which', async () => {
    assert.equal((await problem(await echo({ authorization: 'Basic dXNlcjpwYXNz' }), 401, 'unauthorized')).reason, 'bad_header');
    assert.equal((await problem(await echo({ authorization: 'Bearer lamis_live_not_a_real_key' }), 401, 'unauthorized')).reason, 'malformed');
    const unknown = await problem(await echo({ authorization: `Bearer ${newSecret('production')}` }), 401, 'unauthorized');
    assert.equal(unknown.reason, 'unknown');
    assert.match(unknown.detail, /not recognised/);
  });

  test('the key is checked before the body is read, and a valid key passes', async () => {
    await problem(await fetch(`${server.url}/v3/probe/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }), 401, 'unauthorized');
    assert.equal((await echo(AUTH)).status, 200);
    assert.equal((await echo({ authorization: AUTH.authorization.replace('Bearer', 'bearer') })).status, 200, 'the scheme is case-insensitive');
  });

  test('operational routes and the OpenAPI document need no key; protected operations say so', async () => {
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    const document = await json(await fetch(`${server.url}/v3/openapi.json`));
    assert.deepEqual(document.paths['/v3/probe/echo'].post.security, [{ apiKey: [] }]);
    assert.deepEqual(document.paths['/v3/openapi.json'].get.security, [], 'public operations say so');
  });
});

describe('problem documents', () => {
  test('an unknown route answers 404', async () => {
    const body = await problem(await fetch(`${server.url}/v3/no/such/thing?x=1`), 404, 'not_found');
    assert.equal(body.instance, '/v3/no/such/thing');
  });

  test('a wrong method answers 405 with Allow', async () => {
    const response = await fetch(`${server.url}/healthz`, { method: 'DELETE' });
    await problem(response, 405, 'method_not_allowed');
    assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });

  test('malformed JSON answers 400', async () => {
    await problem(await post('/v3/probe/echo', '{"name": "EGLL",'), 400, 'malformed_json');
  });

  test('an empty JSON body answers 400', async () => {
    await problem(await post('/v3/probe/echo', ''), 400, 'malformed_json');
  });

  test('a body over 1 MiB answers 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    await problem(await post('/v3/probe/echo', big), 413, 'payload_too_large');
  });

  test('a body that is not JSON answers 415', async () => {
    const body = await problem(await post('/v3/probe/echo', 'name=EGLL', 'text/plain'), 415, 'unsupported_media_type');
    assert.match(body.detail, /text\/plain/);
  });

  test('validation failures name each field', async () => {
    const body = await problem(await post('/v3/probe/echo', JSON.stringify({ count: -1 })), 400, 'validation_failed');
    const paths = body.errors.map((e: { path: string }) => e.path).sort();
    assert.deepEqual(paths, ['/body/count', '/body/name']);
    assert.ok(body.errors.every((e: { message: string }) => e.message.length > 0));
  });

  test('a valid body passes through', async () => {
    const response = await post('/v3/probe/echo', JSON.stringify({ name: 'EGLL', count: 2 }));
    assert.equal(response.status, 200);
    assert.deepEqual(await json(response), { name: 'EGLL', count: 2 });
  });

  test('an internal error answers 500 without internals', async () => {
    const response = await fetch(`${server.url}/v3/probe/fail`, { headers: AUTH });
    const body = await problem(response, 500, 'internal_error');
    const text = JSON.stringify(body);
    assert.doesNotMatch(text, /secret internals|\/srv\/lamis|at .*\.ts/);
    assert.match(body.detail, new RegExp(body.request_id));
  });

  test('each code is described at /problems/{code}', async () => {
    const response = await fetch(`${server.url}/problems/payload_too_large`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(await json(response)).sort(), ['code', 'description', 'status', 'title']);
    await problem(await fetch(`${server.url}/problems/no_such_code`), 404, 'not_found');
  });
});

describe('request ids', () => {
  test('every response carries one, unique per request', async () => {
    const [a, b] = await Promise.all([fetch(`${server.url}/healthz`), fetch(`${server.url}/healthz`)]);
    assert.match(a.headers.get('request-id') ?? '', /^req_[0-9a-f]{32}$/);
    assert.notEqual(a.headers.get('request-id'), b.headers.get('request-id'));
  });

  test('a sane inbound X-Request-Id is kept, an unsafe one replaced', async () => {
    const kept = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'dispatch-42.a:b' } });
    assert.equal(kept.headers.get('request-id'), 'dispatch-42.a:b');
    const replaced = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'x'.repeat(200) } });
    assert.match(replaced.headers.get('request-id') ?? '', /^req_/);
  });
});

describe('headers', () => {
  test('security headers are set', async () => {
    const response = await fetch(`${server.url}/healthz`);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.doesNotMatch(response.headers.get('content-security-policy') ?? '', /upgrade-insecure-requests/);
    assert.equal(response.headers.get('x-frame-options'), 'SAMEORIGIN');
  });

  test('CORS allows only the configured origins', async () => {
    const allowed = await fetch(`${server.url}/healthz`, { headers: { origin: 'https://ops.example' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://ops.example');
    const other = await fetch(`${server.url}/healthz`, { headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  test('a deprecated route announces Deprecation, Sunset and its Link', async () => {
    const response = await fetch(`${server.url}/v3/probe/old`, { headers: AUTH });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('deprecation'), `@${Date.parse('2026-06-01T00:00:00Z') / 1000}`);
    assert.equal(response.headers.get('sunset'), 'Tue, 01 Jun 2027 00:00:00 GMT');
    assert.equal(response.headers.get('link'), '<https://lamis.example/changes>; rel="deprecation"; type="text/html"');
    const current = await fetch(`${server.url}/healthz`);
    assert.equal(current.headers.get('deprecation'), null);
    const document = await json(await fetch(`${server.url}/v3/openapi.json`));
    assert.equal(document.paths['/v3/probe/old'].get.deprecated, true);
  });
});

describe('operations', () => {
  test('/readyz reports storage and bus', async () => {
    const response = await fetch(`${server.url}/readyz`);
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.equal(body.status, 'ready');
    assert.equal(body.checks.storage.state, 'up');
    assert.equal(body.checks.storage.detail.dialect, 'sqlite');
    assert.equal(body.checks.bus.state, 'up');
  });

  test('/metrics counts requests by route and status', async () => {
    await fetch(`${server.url}/v3/no/such/thing`);
    const response = await fetch(`${server.url}/metrics`);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await response.text();
    assert.match(text, /lamis_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    assert.match(text, /lamis_http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
    assert.match(text, /lamis_http_request_duration_seconds_bucket/);
    assert.match(text, /process_resident_memory_bytes/);
  });

  test('one log line per request, without credentials', async () => {
    const response = await fetch(`${server.url}/healthz`, {
      headers: { authorization: 'Bearer lamis_dev_supersecret', cookie: 'session=alsosecret' },
    });
    const id = response.headers.get('request-id');
    await new Promise((r) => setTimeout(r, 50));
    const lines = logLines.filter((line) => line.request_id === id);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.status, 200);
    assert.equal(lines[0]?.route, '/healthz');
    assert.doesNotMatch(JSON.stringify(logLines), /supersecret|alsosecret/);
  });
});
