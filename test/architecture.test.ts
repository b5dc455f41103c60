// The layout guards itself: no import cycle (type imports count), the platform reaches no
// feature, features meet only at each other's index, and the dashboard and the SDK stay out of
// the server's code. The rules are proved on small trees that break each of them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { importGraph, reachable, violations } from './support/architecture.ts';

const repository = path.join(import.meta.dirname, '..');

test('the source keeps every rule of the layout', () => {
  const graph = importGraph(repository);
  assert.ok(graph.edges.size > 300, `only ${graph.edges.size} modules were read`);
  assert.deepEqual(violations(graph), []);
});

test('the settings table reaches only settings: commands that read it load no feature', () => {
  const graph = importGraph(repository);
  const beyondPlatform = [...reachable(graph, 'src/config.ts').keys()].filter((m) => !m.startsWith('src/platform/')).sort();
  assert.deepEqual(beyondPlatform, [
    'src/accounts/settings.ts',
    'src/aviation/settings.ts',
    'src/config.ts',
    'src/events/settings.ts',
    'src/intelligence/settings.ts',
    'src/maritime/feeds/spec.ts',
    'src/maritime/settings.ts',
    'src/webhooks/settings.ts',
  ]);
});

test('migrations are frozen: each imports only the migrator, never live code', () => {
  const graph = importGraph(repository);
  const migrations = [...graph.edges.keys()].filter((module) => /^src\/(\w+)\/migrations\/\d{4}_\w+\.ts$/.test(module));
  for (const owner of ['platform', 'accounts', 'fleet', 'aviation', 'maritime', 'zones', 'events', 'watchlist', 'webhooks', 'notifications']) {
    assert.ok(migrations.some((module) => module.startsWith(`src/${owner}/migrations/`)), `the migrations of ${owner} are in src/${owner}/migrations/`);
  }
  for (const module of migrations) assert.deepEqual(graph.edges.get(module), ['src/platform/db/migrate.ts'], module);
});

/** Violations in a tree of the given files (path → source). */
function check(files: Record<string, string>): string[] {
  const root = mkdtempSync(path.join(tmpdir(), 'lamis-architecture-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return violations(importGraph(root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('each rule fails when it is broken', () => {
  test('a tree that keeps the rules passes', () => {
    assert.deepEqual(check({
      'src/platform/db.ts': 'export const db = 1;\n',
      'src/aviation/index.ts': "export { weather } from './weather/metar.ts';\n",
      'src/aviation/weather/metar.ts': "import { db } from '../../platform/db.ts';\nexport const weather = db;\n",
      'src/fleet/vehicles.ts': "import { weather } from '../aviation/index.ts';\nexport const v = weather;\n",
      'common/plans.ts': 'export const plans = [];\n',
      'web/src/app.tsx': "import { plans } from '../../common/plans.ts';\nimport { client } from '@lamis/sdk';\n",
      'sdk/src/index.ts': 'export const client = 1;\n',
    }), []);
  });

  test('a cycle, type imports included', () => {
    assert.deepEqual(check({
      'src/fleet/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
      'src/fleet/b.ts': "import type { A } from './a.ts';\nexport type B = A | 1;\n",
    }), ['import cycle: src/fleet/a.ts → src/fleet/b.ts']);
  });

  test('a cycle through a dynamic import', () => {
    assert.deepEqual(check({
      'src/fleet/a.ts': "export const load = () => import('./b.ts');\n",
      'src/fleet/b.ts': "export { load } from './a.ts';\n",
    }), ['import cycle: src/fleet/a.ts → src/fleet/b.ts']);
  });

  test('the platform reaching a feature, even through a top-level module', () => {
    assert.deepEqual(check({
      'src/platform/http.ts': "import { settings } from '../config.ts';\nexport const http = settings;\n",
      'src/config.ts': "export { settings } from './aviation/index.ts';\n",
      'src/aviation/index.ts': 'export const settings = {};\n',
    }), [
      'platform reaches src/config.ts: src/platform/http.ts → src/config.ts',
    ]);
  });

  test('a feature reaching into another feature past its index', () => {
    assert.deepEqual(check({
      'src/aviation/index.ts': "export * from './reference/types.ts';\n",
      'src/aviation/reference/types.ts': 'export const types = [];\n',
      'src/fleet/vehicles.ts': "import { types } from '../aviation/reference/types.ts';\n",
    }), ["fleet reaches past aviation's index: src/fleet/vehicles.ts → src/aviation/reference/types.ts"]);
  });

  test('the dashboard importing server code or SDK internals', () => {
    assert.deepEqual(check({
      'src/platform/plans.ts': 'export const plans = [];\n',
      'sdk/src/index.ts': "export * from './errors.ts';\n",
      'sdk/src/errors.ts': 'export class ApiError {}\n',
      'web/src/page.tsx': "import { plans } from '../../src/platform/plans.ts';\nimport { ApiError } from '../../sdk/src/errors.ts';\n",
    }), [
      'web imports server code: web/src/page.tsx → src/platform/plans.ts',
      'web imports the SDK past its public exports: web/src/page.tsx → sdk/src/errors.ts',
    ]);
  });

  test('the SDK or common code importing the server', () => {
    assert.deepEqual(check({
      'src/platform/plans.ts': 'export const plans = [];\n',
      'sdk/src/index.ts': "export { plans } from '../../src/platform/plans.ts';\n",
      'common/countries.ts': "export { plans } from '../src/platform/plans.ts';\n",
    }), [
      'common imports outside common: common/countries.ts → src/platform/plans.ts',
      'the SDK imports server code: sdk/src/index.ts → src/platform/plans.ts',
    ]);
  });
});
