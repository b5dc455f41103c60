// The API description must list exactly the routes that exist, each fully described, and pass an
// OpenAPI 3.1 validator; /docs must work with no internet.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { json } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let document: any;

before(async () => {
  server = await startTestServer();
  document = await json(await fetch(`${server.url}/v3/openapi.json`));
});
after(() => server.close());

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function documented(): string[] {
  return Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item).filter((key) => HTTP_METHODS.includes(key)).map((method) => `${method.toUpperCase()} ${path}`));
}

test('the document lists exactly the registered routes', () => {
  const registered = server.app.routeInventory.entries
    .filter((route) => !route.hidden)
    .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
  assert.ok(registered.length > 0);
  assert.deepEqual([...new Set(documented())].sort(), [...new Set(registered)].sort());
});

test('every operation has a summary, a tag, and its responses including problem documents', () => {
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      const name = `${method.toUpperCase()} ${path}`;
      assert.ok(operation.summary, `${name} has no summary`);
      assert.ok(operation.tags?.length, `${name} has no tag`);
      const statuses = Object.keys(operation.responses ?? {});
      assert.ok(statuses.some((s) => s.startsWith('2')), `${name} documents no success response`);
      for (const errorClass of ['4XX', '5XX']) {
        assert.ok(operation.responses[errorClass]?.content?.['application/problem+json'], `${name} lacks ${errorClass} problem`);
      }
    }
  }
});

test('the document is valid OpenAPI 3.1', async () => {
  const validator = new Validator();
  const result = await validator.validate(document);
  assert.equal(validator.version, '3.1');
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
});

test("Redocly's recommended rules find no error and no warning", async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'lamis-openapi-'));
  try {
    const file = path.join(folder, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const cli = path.join(import.meta.dirname, '../../node_modules/@redocly/cli/bin/cli.js');
    // The CLI exits non-zero when it finds errors; its JSON report is what the test reads.
    const run = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--extends=recommended', '--format=json'], { maxBuffer: 64 << 20 })
      .catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    const found = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual([report.totals.errors, report.totals.warnings, found], [0, 0, []]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('/docs is served from local assets only', async () => {
  const response = await fetch(`${server.url}/docs/`);
  assert.equal(response.status, 200);
  const html = await response.text();
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
  assert.ok(assets.length > 0);
  for (const asset of assets) {
    assert.doesNotMatch(asset, /^(https?:)?\/\//, `${asset} is not local`);
    const loaded = await fetch(new URL(asset, `${server.url}/docs/`));
    assert.equal(loaded.status, 200, `${asset} does not load`);
    await loaded.arrayBuffer();
  }
});
