import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { installErrorHandling } from './http/errors.ts';
import { RouteInventory } from './http/routes.ts';
import { installReferenceWait, ReferenceData, type Loading } from './reference-data.ts';

/** An app whose /v3/code/:code route answers from a loading map of codes, as the airport routes do. */
async function appReading(reference: ReferenceData, codes: Loading<Map<string, string>>, waitMs: number) {
  const app = Fastify();
  const routes = new RouteInventory();
  routes.install(app);
  installErrorHandling(app, routes);
  installReferenceWait(app, reference, waitMs);
  app.get('/v3/code/:code', async (request, reply) => {
    const name = codes.value.get((request.params as { code: string }).code);
    return name === undefined ? reply.status(404).send({ found: false }) : { name };
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/v3/other', async () => ({ other: true }));
  await app.ready();
  return app;
}

test('a request that comes while reference data loads waits for it and gets the loaded answer, not a 404', async () => {
  const reference = new ReferenceData();
  let finish!: (value: Map<string, string>) => void;
  const codes = reference.load('codes', ['/v3/code/'], () => new Promise<Map<string, string>>((resolve) => (finish = resolve)));
  const app = await appReading(reference, codes, 5000);
  assert.equal((await reference.check()).state, 'degraded');
  const answer = app.inject('/v3/code/EGLL');
  setTimeout(() => finish(new Map([['EGLL', 'London Heathrow']])), 50);
  const response = await answer;
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { name: 'London Heathrow' });
  const check = await reference.check();
  assert.equal(check.state, 'up');
  assert.equal((check.detail!.codes as { state: string }).state, 'loaded');
  await app.close();
});

test('past the wait a request gets a 503 reference_data_loading with Retry-After; routes that do not read the data do not wait', async () => {
  const reference = new ReferenceData();
  const codes = reference.load('codes', ['/v3/code/'], () => new Promise<Map<string, string>>(() => {}));
  const app = await appReading(reference, codes, 30);
  const response = await app.inject('/v3/code/EGLL');
  assert.equal(response.statusCode, 503);
  assert.equal(response.headers['retry-after'], '2');
  assert.equal(response.json().code, 'reference_data_loading');
  assert.match(response.json().detail, /codes are still loading/);
  const started = performance.now();
  assert.equal((await app.inject('/healthz')).statusCode, 200);
  assert.equal((await app.inject('/v3/other')).statusCode, 200);
  assert.ok(performance.now() - started < 30, 'answered without the wait');
  await app.close();
});

test('a pattern of paths: a route with a parameter before what it reads waits, its siblings do not', () => {
  const reference = new ReferenceData();
  const ports = reference.load('ports', ['/v3/ports', /^\/v3\/vessels\/[^/]+\/eta\b/], () => new Promise<void>(() => {}));
  assert.deepEqual(reference.awaitedBy('/v3/vessels/244110001/eta?speed=12'), [ports]);
  assert.deepEqual(reference.awaitedBy('/v3/ports/NLRTM'), [ports]);
  assert.deepEqual(reference.awaitedBy('/v3/vessels/244110001'), []);
  assert.deepEqual(reference.awaitedBy('/v3/vessels/244110001/track'), []);
});

test('a load that failed is a 503 service_unavailable naming why, and readiness is down', async () => {
  const reference = new ReferenceData();
  const codes = reference.load('codes', ['/v3/code/'], async () => {
    throw new Error('the code file is damaged');
  });
  await assert.rejects(codes.loaded, /damaged/);
  const app = await appReading(reference, codes, 30);
  const response = await app.inject('/v3/code/EGLL');
  assert.equal(response.statusCode, 503);
  assert.equal(response.json().code, 'service_unavailable');
  assert.match(response.json().detail, /codes could not be loaded: the code file is damaged/);
  const check = await reference.check();
  assert.equal(check.state, 'down');
  assert.deepEqual(check.detail, { codes: { state: 'failed', error: 'the code file is damaged' } });
  await app.close();
});
