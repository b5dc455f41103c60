// The generated types are the server's documents as they are now: a route or frame schema changed
// without `npm run sdk:types` fails here, naming the file and the first line that differs.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { GENERATED_DIR, operationName, readServerDocuments, renderAll } from '../scripts/generate-types.ts';

test('sdk/src/generated is up to date with the server\'s documents', { timeout: 120_000 }, async () => {
  const files = await renderAll(await readServerDocuments());
  for (const [name, expected] of Object.entries(files)) {
    const actual = readFileSync(path.join(GENERATED_DIR, name), 'utf8');
    if (actual === expected) continue;
    const actualLines = actual.split('\n');
    const expectedLines = expected.split('\n');
    const line = expectedLines.findIndex((text, i) => text !== actualLines[i]);
    assert.fail(`sdk/src/generated/${name} is out of date (line ${line + 1}: ${JSON.stringify(actualLines[line])}, ` +
      `expected ${JSON.stringify(expectedLines[line])}): run \`npm run sdk:types\``);
  }
  assert.deepEqual(readdirSync(GENERATED_DIR).sort(), Object.keys(files).sort(), 'no other files in sdk/src/generated');
});

test('operation names follow METHOD /path', () => {
  assert.equal(operationName('get', '/v3/maritime/vessels/{mmsi}/track'), 'GetMaritimeVesselsMmsiTrack');
  assert.equal(operationName('put', '/v3/aviation/airports/{icao}/slots/capacity'), 'PutAviationAirportsIcaoSlotsCapacity');
  assert.equal(operationName('post', '/v3/accounts/sign-up'), 'PostAccountsSignUp');
});
