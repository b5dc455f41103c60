// The limits on a real fastify app over loopback, with the platform's authentication and errors.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import Fastify from 'fastify';
import { json } from '../../../test/support/http.ts';
import { installAuth, type KeyVerifier, type Principal } from '../http/auth.ts';
import { installErrorHandling } from '../http/errors.ts';
import { RouteInventory } from '../http/routes.ts';
import { LoadShedder, PLANS, installRateLimits, type CounterStore } from './index.ts';
import { createMemoryCounterStore } from './memory.ts';

const KEYS: Record<string, Principal> = {
  'starter-prod': { key_id: 'key_1', organisation_id: 'org_small', environment: 'production', admin: false },
  'starter-dev': { key_id: 'key_2', organisation_id: 'org_small', environment: 'development', admin: false },
  'enterprise-prod': { key_id: 'key_3', organisation_id: 'org_big', environment: 'production', admin: false },
};
const verify: KeyVerifier = async (secret) => {
  const principal = KEYS[secret];
  return principal ? { ok: true, principal } : { ok: false, reason: 'unknown' };
};

async function serve(options: { store?: CounterStore; shedder?: LoadShedder } = {}) {
  const store = options.store ?? createMemoryCounterStore();
  const app = Fastify();
  const routes = new RouteInventory();
  routes.install(app);
  installErrorHandling(app, routes);
  installAuth(app, verify);
  installRateLimits(app, {
    store,
    shedder: options.shedder,
    planOf: (principal) => (principal.organisation_id === 'org_big' ? PLANS.enterprise : PLANS.starter),
    clock: () => 1_800_000_000_000,
  });
  app.get('/v3/things', async () => ({ in_flight: options.shedder?.inFlight }));
  app.post('/v3/things', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }, async () => ({}));
  app.get('/v3/open', { config: { public: true } }, async () => ({}));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    call: (path: string, secret?: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { ...(secret ? { authorization: `Bearer ${secret}` } : {}), ...init.headers } }),
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

test('responses carry the rate-limit headers; over the limit a 429 problem document with Retry-After', async () => {
  const server = await serve();
  try {
    for (let i = 1; i <= 100; i++) {
      const response = await server.call('/v3/things', 'starter-prod');
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('ratelimit-policy'), '"organisation";q=100;w=60');
      assert.equal(response.headers.get('ratelimit'), `"organisation";r=${100 - i};t=60`);
      assert.equal(response.headers.get('x-ratelimit-limit'), '100');
      assert.equal(response.headers.get('x-ratelimit-remaining'), String(100 - i));
      assert.equal(response.headers.get('x-ratelimit-reset'), '60');
      await response.arrayBuffer();
    }
    const refused = await server.call('/v3/things', 'starter-prod');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal(refused.headers.get('ratelimit'), '"organisation";r=0;t=60');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    const problem = await json(refused);
    assert.equal(problem.type, '/problems/rate_limited');
    assert.equal(problem.code, 'rate_limited');
    assert.equal(problem.status, 429);
    assert.equal(problem.instance, '/v3/things');
    assert.equal(problem.retry_after, 60);
    assert.deepEqual(problem['violated-policies'], ['organisation']);
    assert.match(problem.detail, /100 requests per 60 s/);
  } finally {
    await server.close();
  }
});

test('a request that fails after the check still carries the headers', async () => {
  const server = await serve();
  try {
    const response = await server.call('/v3/things', 'starter-prod', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('ratelimit'), '"organisation";r=99;t=60');
  } finally {
    await server.close();
  }
});

test('development keys show their lower rate, unlimited plans say so, unauthenticated answers carry nothing', async () => {
  const server = await serve();
  try {
    const development = await server.call('/v3/things', 'starter-dev');
    assert.equal(development.headers.get('ratelimit-policy'), '"key";q=10;w=60');
    assert.equal(development.headers.get('ratelimit'), '"key";r=9;t=60');

    const enterprise = await server.call('/v3/things', 'enterprise-prod');
    assert.equal(enterprise.status, 200);
    assert.equal(enterprise.headers.get('x-ratelimit-limit'), 'unlimited');
    assert.equal(enterprise.headers.get('x-ratelimit-remaining'), 'unlimited');
    assert.equal(enterprise.headers.get('ratelimit'), null);
    assert.equal(enterprise.headers.get('x-ratelimit-reset'), null);

    for (const response of [await server.call('/v3/open'), await server.call('/v3/things', 'no-such-key')]) {
      assert.equal(response.headers.get('x-ratelimit-limit'), null);
      assert.equal(response.headers.get('ratelimit'), null);
    }
  } finally {
    await server.close();
  }
});

test('under overload development keys get a 503 problem with Retry-After while production keys pass', async () => {
  // Every request counts itself in flight, so one is already over a limit of none.
  const shedder = new LoadShedder({ maxInFlight: 0, eventLoopDelayMs: () => 0, retryAfterSeconds: 7 });
  const server = await serve({ shedder });
  try {
    const shed = await server.call('/v3/things', 'starter-dev');
    assert.equal(shed.status, 503);
    assert.equal(shed.headers.get('retry-after'), '7');
    const problem = await json(shed);
    assert.equal(problem.code, 'overloaded');
    assert.equal(problem.reason, 'in_flight');
    assert.match(problem.detail, /more than 0 requests are in flight/);

    const served = await server.call('/v3/things', 'starter-prod');
    assert.equal(served.status, 200);
    assert.deepEqual(await served.json(), { in_flight: 1 });
  } finally {
    await server.close();
    shedder.close();
  }
});

test('when the counters cannot be reached requests go through, without headers', async () => {
  const store = createMemoryCounterStore();
  await store.close();
  const server = await serve({ store });
  try {
    const response = await server.call('/v3/things', 'starter-prod');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('ratelimit'), null);
  } finally {
    await server.close();
  }
});
