// The package is a client: its source imports nothing of the server, and nothing outside its own
// folder but the dependencies its package.json names.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const sdkDir = new URL('..', import.meta.url).pathname;
const srcDir = path.join(sdkDir, 'src');
const manifest = JSON.parse(readFileSync(path.join(sdkDir, 'package.json'), 'utf8'));

test('sdk/src imports only its own files and its declared dependencies', () => {
  const allowed = new Set(Object.keys(manifest.dependencies ?? {}));
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  assert.ok(files.length > 5);
  for (const file of files) {
    const text = readFileSync(path.join(srcDir, file), 'utf8');
    for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)) {
      const specifier = (match[1] ?? match[2])!;
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(path.join(srcDir, file)), specifier);
        assert.ok(target.startsWith(srcDir + path.sep), `${file} imports ${specifier}, outside sdk/src`);
      } else {
        assert.ok(allowed.has(specifier), `${file} imports ${specifier}, which sdk/package.json does not declare`);
      }
    }
  }
});

test('the package resolves by its name to its entry point', async () => {
  assert.equal(manifest.name, '@lamis/sdk');
  assert.equal(manifest.type, 'module');
  const byName = await import(manifest.name);
  const byPath = await import('../src/index.ts');
  assert.equal(byName.LamisClient, byPath.LamisClient);
  assert.equal(byName.StreamClient, byPath.StreamClient);
});
