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

type Schema = Record<string, any>;

const COMPONENTS = '#/components/schemas/';
const componentOf = (ref: string): Schema => document.components.schemas[ref.slice(COMPONENTS.length)];

/** Calls `visit` on every schema below `schema`, following references into components (each once). */
function walkSchema(schema: Schema, path: string, visit: (node: Schema, path: string) => void, seen = new Set<string>()): void {
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return;
    seen.add(schema.$ref);
    walkSchema(componentOf(schema.$ref), schema.$ref, visit, seen);
    return;
  }
  visit(schema, path);
  for (const [key, value] of Object.entries(schema)) {
    if (['items', 'additionalProperties', 'not'].includes(key) && value && typeof value === 'object') walkSchema(value, `${path}/${key}`, visit, seen);
    if (['anyOf', 'oneOf', 'allOf'].includes(key)) value.forEach((item: Schema, i: number) => walkSchema(item, `${path}/${key}/${i}`, visit, seen));
    if (['properties', 'patternProperties'].includes(key)) {
      for (const [name, item] of Object.entries(value as Record<string, Schema>)) walkSchema(item, `${path}/${name}`, visit, seen);
    }
  }
}

const TYPING_KEYWORDS = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf'];

test('the landing answer is typed throughout: no field that may hold anything', () => {
  for (const method of ['get', 'post']) {
    const answer = document.paths['/v3/intelligence/landing'][method].responses['200'].content['application/json'].schema;
    const untyped: string[] = [];
    walkSchema(answer, method, (node, path) => {
      if (!TYPING_KEYWORDS.some((keyword) => keyword in node)) untyped.push(path);
      else if (node.type === 'object' && !node.properties) untyped.push(`${path} (an object of any members)`);
    });
    assert.deepEqual(untyped, [], `untyped in the ${method.toUpperCase()} landing answer`);
  }
});

// Shapes a client names, or that appear in several answers: each is one component, referenced.
const NAMED = [
  'Metar', 'MetarDerived', 'MetarReport', 'Taf', 'TafDerived', 'TafReport', 'Wind', 'WindShearReason',
  'Notam', 'NotamSummary', 'NotamFeed', 'Airport', 'AirportSummary', 'Runway', 'RunwayEnd', 'AircraftType', 'Slot',
  'LandingIntelligence', 'RecommendedRunway', 'RunwayChoice', 'ApproachRecommendation', 'SafetyFactor', 'AircraftProfile',
  'Vessel', 'VesselPosition', 'TrackPoint', 'Port', 'PortCall', 'Berth', 'Vehicle', 'ApiKey', 'Organisation', 'Member',
];

test('shared shapes are named components that the operations reference', () => {
  const components = document.components.schemas as Record<string, Schema>;
  for (const name of NAMED) assert.ok(components[name], `no component ${name}`);
  const referenced = new Set<string>();
  for (const item of Object.values(document.paths as Record<string, Record<string, Schema>>)) {
    for (const operation of Object.values(item)) {
      const bodies = [operation.requestBody ?? {}, ...Object.values((operation.responses ?? {}) as Record<string, Schema>)];
      for (const body of bodies) {
        for (const media of Object.values((body.content ?? {}) as Record<string, Schema>)) walkSchema(media.schema, '', () => {}, referenced);
      }
    }
  }
  for (const name of Object.keys(components)) assert.ok(referenced.has(`${COMPONENTS}${name}`), `no operation references ${name}`);
});

test('a named shape is not repeated inline', () => {
  const components = document.components.schemas as Record<string, Schema>;
  const named = new Map(Object.entries(components).map(([name, { title: _title, ...schema }]) => [JSON.stringify(schema), name]));
  const copies: string[] = [];
  const look = (node: unknown, path: string): void => {
    if (!node || typeof node !== 'object') return;
    const name = named.get(JSON.stringify(node));
    if (name !== undefined) copies.push(`${path} is ${name}`);
    for (const [key, value] of Object.entries(node)) look(value, `${path}/${key}`);
  };
  look(document.paths, '#/paths');
  for (const [name, schema] of Object.entries(components)) {
    for (const [key, value] of Object.entries(schema)) look(value, `${COMPONENTS}${name}/${key}`);
  }
  assert.deepEqual(copies, []);
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
