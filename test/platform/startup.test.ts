// Start-up: the service listens before its reference data has loaded (see
// src/platform/reference-data.ts), so the first requests after the start must still get the right
// answers: they wait for the airport index, the port data, the port areas and the sea lanes rather than
// answering "not found".
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { buildPending } from '../../src/platform/http/build-later.ts';
import { AJV_SETTINGS, defaultValidatorFactory } from '../../src/platform/http/validation.ts';
import { FEATURES } from '../../src/server.ts';
import { featureApp } from '../support/in-process.ts';
import { startServe } from '../support/serve.ts';

type Answer = { status: number; body: Record<string, unknown> };

/**
 * The answer to a request sent right after the start: it waits for the reference data it reads; on
 * a machine too slow to load it within the wait, the answer is a 503 reference_data_loading with
 * Retry-After, and the retry then answers. Never a 404.
 */
async function answer(url: string, init: RequestInit): Promise<Answer> {
  for (;;) {
    const response = await fetch(url, init);
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status !== 503) return { status: response.status, body };
    assert.equal(body.code, 'reference_data_loading', JSON.stringify(body));
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
  }
}

test('on a new data folder (the airport index compiled on this start), the first airport and port requests get their answers, not a 404', { timeout: 180_000 }, async () => {
  // No LAMIS_REFERENCE_CACHE_DIR: the cache goes into the new data folder, as on an operator's first start.
  const serve = startServe({ env: { LAMIS_REFERENCE_CACHE_DIR: undefined } });
  try {
    const port = await serve.listening;
    const url = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${readFileSync(path.join(serve.dataDir, 'api-key'), 'utf8').trim()}` };
    const get = (route: string) => answer(`${url}${route}`, { headers });
    const readyz = await fetch(`${url}/readyz`);
    const [heathrow, byIata, rotterdam] = await Promise.all([get('/v3/aviation/airports/EGLL'), get('/v3/aviation/airports/LHR'), get('/v3/maritime/ports/NLRTM')]);
    assert.equal(heathrow.status, 200, JSON.stringify(heathrow.body));
    assert.equal(heathrow.body.name, 'London Heathrow Airport');
    assert.equal(byIata.status, 200);
    assert.equal(byIata.body.icao, 'EGLL');
    assert.equal(rotterdam.status, 200, JSON.stringify(rotterdam.body));
    // Ready while the reference data loads: requests wait for it.
    assert.equal(readyz.status, 200);
    const loading = ((await readyz.json()) as { checks: Record<string, { state: string }> }).checks.reference_data!;
    assert.ok(['degraded', 'up'].includes(loading.state), JSON.stringify(loading));

    const loaded = ((await (await fetch(`${url}/readyz`)).json()) as {
      checks: { reference_data: { state: string; detail: { airports: { state: string } } }; aviation: { detail: { airports: number } } };
    }).checks;
    assert.equal(loaded.reference_data.state, 'up');
    assert.equal(loaded.reference_data.detail.airports.state, 'loaded');
    assert.ok(loaded.aviation.detail.airports > 40_000);
    assert.match(serve.output(), /"cache":"compiled"/);
    serve.child.kill('SIGTERM');
    assert.equal((await serve.exited).code, 0, serve.output());
  } finally {
    await serve.cleanup();
  }
});

test('right after the start, the routes that read the port data and the port areas wait for them, and watchers reading ports wait too', { timeout: 180_000 }, async () => {
  // The embedded defaults: the AIS simulator sails once the server listens, its changes held until the port areas are made.
  const serve = startServe();
  try {
    const port = await serve.listening;
    const url = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${readFileSync(path.join(serve.dataDir, 'api-key'), 'utf8').trim()}` };
    const get = (route: string) => answer(`${url}${route}`, { headers });
    const asked = fetch(`${url}/readyz`).then(async (response) => (await response.json()) as { checks: { reference_data: { detail: Record<string, { state: string }> } } });
    const [rotterdam, congestion, arrivals, route, watched] = await Promise.all([
      get('/v3/maritime/ports/NLRTM'),
      get('/v3/maritime/ports/NLRTM/congestion'),
      get('/v3/maritime/ports/NLRTM/arrivals'),
      get('/v3/maritime/routes?from=NLRTM&to=SGSIN'),
      // Another route, which does not wait: the watch list's check of the port waits for the port data itself.
      answer(`${url}/v3/watch-list`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'port', port_id: 'nlrtm' }) }),
    ]);
    assert.equal(rotterdam.status, 200, JSON.stringify(rotterdam.body));
    assert.equal(rotterdam.body.id, 'NLRTM');
    // The port areas made: the port's own is part of the answer (already refined by the simulator's
    // stops, `evidence`, when they came in first on a slow machine).
    assert.ok(['base', 'seeded', 'evidence'].includes((rotterdam.body.area as { derivation: { method: string } }).derivation.method));
    assert.equal(congestion.status, 200, JSON.stringify(congestion.body));
    assert.equal(arrivals.status, 200, JSON.stringify(arrivals.body));
    assert.equal(route.status, 200, JSON.stringify(route.body));
    assert.ok((route.body.distance_nm as number) > 8000);
    assert.equal(watched.status, 201, JSON.stringify(watched.body));
    assert.equal(watched.body.port_id, 'NLRTM');
    // While it loaded, /readyz named each load.
    const loading = (await asked).checks.reference_data.detail;
    assert.deepEqual(Object.keys(loading).sort(), ['airports', 'port areas', 'ports', 'sea lanes']);

    const loaded = ((await (await fetch(`${url}/readyz`)).json()) as { checks: { reference_data: { state: string; detail: Record<string, { state: string }> } } }).checks.reference_data;
    assert.equal(loaded.detail.ports!.state, 'loaded');
    assert.equal(loaded.detail['port areas']!.state, 'loaded');
    assert.equal(loaded.detail['sea lanes']!.state, 'loaded');
    serve.child.kill('SIGTERM');
    assert.equal((await serve.exited).code, 0, serve.output());
    // Nothing read the port data before it was there: no failed rule, bus handler or listener.
    assert.doesNotMatch(serve.output(), /rule evaluation failed|bus handler failed|listener failed|could not be/);
    assert.match(serve.output(), /port index loaded/);
  } finally {
    await serve.cleanup();
  }
});

test('every request validator and response serialiser of the whole service builds: they are built in the background, so a broken schema would not stop the start', { timeout: 120_000 }, async () => {
  const service = await featureApp(FEATURES);
  try {
    // Built in the background since the routes were in (and here too): all of them build, none is left.
    await buildPending();
    assert.equal(await buildPending(), 0);
    // Built, a route answers as before: a validator's failures reach the problem document.
    const refused = await service.call('GET', '/v3/maritime/ports?limit=0');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors.map((error: { path: string }) => error.path), ['/querystring/limit']);
    // The service's validators skip checking the shared shapes against JSON Schema's meta-schema
    // (validation.ts): here they are checked, with the same compiler.
    const checking = { customOptions: { ...AJV_SETTINGS.customOptions, validateSchema: true }, plugins: AJV_SETTINGS.plugins };
    const shapes = service.app.getSchemas();
    assert.ok(Object.keys(shapes).length > 50);
    const compile = defaultValidatorFactory(shapes, checking);
    compile({ schema: { type: 'object', properties: { of: { $ref: Object.keys(shapes)[0] } } }, method: 'GET', url: '/', httpPart: 'body' } as never);
  } finally {
    await service.close();
  }
});

test('on the embedded defaults the service loads no client of a back end it does not use: PostgreSQL, Redis, NATS, SMTP', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lamis-serve-modules-'));
  const file = path.join(dir, 'modules.txt');
  const recorder = new URL('../support/record-modules.ts', import.meta.url).pathname;
  const serve = startServe({
    env: {
      // Its threads take the options too; each writes what it loaded as it ends.
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${recorder}`,
      LAMIS_TEST_MODULES_FILE: file,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      NATS_URL: undefined,
      SMTP_URL: undefined,
    },
  });
  try {
    const url = `http://127.0.0.1:${await serve.listening}`;
    await waitFor(async () => {
      const readyz = (await (await fetch(`${url}/readyz`)).json()) as { checks: { reference_data: { state: string } } };
      return readyz.checks.reference_data.state === 'up';
    }, 'the reference data loaded', 120_000);
    serve.child.kill('SIGTERM');
    assert.equal((await serve.exited).code, 0, serve.output());
    const loaded = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    assert.ok(loaded.some((url) => url.endsWith('/src/server.ts')), "the serving thread's modules were recorded");
    assert.ok(loaded.some((url) => url.endsWith('/src/maritime/ingest/worker.ts')), "the ingest thread's modules were recorded");
    const clients = loaded.filter((url) => /\/node_modules\/(pg|pg-pool|ioredis|@nats-io\/[^/]+|nodemailer)\//.test(url));
    assert.deepEqual(clients, []);
  } finally {
    await serve.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});
