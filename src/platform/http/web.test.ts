import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandling } from './errors.ts';
import { RouteInventory } from './routes.ts';
import { installDashboard, isDashboardPath } from './web.ts';

/** An app shaped like the server's: problem documents for misses, one API route, the dashboard. */
async function appServing(dir: string): Promise<FastifyInstance> {
  const app = Fastify();
  const routes = new RouteInventory();
  routes.install(app);
  installErrorHandling(app, routes);
  app.get('/v3/accounts/verify-email', async () => ({ email_verified: true }));
  app.post('/v3/things', async () => ({}));
  await installDashboard(app, { dir });
  await app.ready();
  return app;
}

test('dashboard paths are those outside the service prefixes that name no file', () => {
  for (const page of ['/', '/fleet', '/ports/GBSOU', '/reset-password', '/settings/keys', '/v3x']) assert.equal(isDashboardPath(page), true, page);
  for (const other of ['/v3', '/v3/nothing', '/docs/x', '/problems/zzz', '/healthz', '/metrics', '/assets/a.js', '/favicon.ico', '/robots.txt']) {
    assert.equal(isDashboardPath(other), false, other);
  }
});

describe('a built dashboard', () => {
  let dir: string;
  let app: FastifyInstance;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lamis-web-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>LAMIS</title><script type="module" src="/assets/index-abc123.js"></script>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("dashboard")');
    app = await appServing(dir);
  });
  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('pages get index.html, checked again on every visit', async () => {
    for (const url of ['/', '/settings/keys', '/ports/GBSOU?tab=tides']) {
      const page = await app.inject({ url });
      assert.equal(page.statusCode, 200, url);
      assert.match(page.headers['content-type'] as string, /^text\/html/);
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.match(page.body, /index-abc123\.js/);
    }
    assert.equal((await app.inject({ method: 'HEAD', url: '/fleet' })).statusCode, 200);
  });

  test('hashed assets are cached for a year', async () => {
    const asset = await app.inject({ url: '/assets/index-abc123.js' });
    assert.equal(asset.statusCode, 200);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(asset.body, 'console.log("dashboard")');
  });

  test('misses under the service prefixes and other methods stay problem documents', async () => {
    for (const url of ['/assets/missing.js', '/v3/nothing', '/favicon.ico']) {
      const miss = await app.inject({ url });
      assert.equal(miss.statusCode, 404, url);
      assert.match(miss.headers['content-type'] as string, /^application\/problem\+json/);
    }
    assert.equal((await app.inject({ method: 'POST', url: '/settings' })).statusCode, 404);
    // A path that exists with another method still answers 405.
    assert.equal((await app.inject({ method: 'GET', url: '/v3/things' })).statusCode, 405);
  });

  test('a mailed link opened in a browser goes to the dashboard page; API clients get JSON', async () => {
    const browser = await app.inject({ url: '/v3/accounts/verify-email?token=abc', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.equal(browser.statusCode, 303);
    assert.equal(browser.headers.location, '/verify-email?token=abc');
    assert.equal(browser.headers['cache-control'], 'no-store');
    const client = await app.inject({ url: '/v3/accounts/verify-email?token=abc', headers: { accept: 'application/json' } });
    assert.equal(client.statusCode, 200);
    assert.deepEqual(client.json(), { email_verified: true });
    assert.equal((await app.inject({ url: '/v3/accounts/verify-email?token=abc' })).statusCode, 200);
  });
});

test('before a build, pages say how to build the dashboard and the server still answers', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lamis-web-'));
  const app = await appServing(path.join(dir, 'not-built'));
  try {
    const page = await app.inject({ url: '/' });
    assert.equal(page.statusCode, 503);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    assert.match(page.body, /npm run build:web/);
    assert.equal((await app.inject({ url: '/assets/index.js' })).statusCode, 404);
    assert.equal((await app.inject({ url: '/v3/accounts/verify-email', headers: { accept: 'application/json' } })).statusCode, 200);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
