// The example in sdk/README.md, run exactly as written (it imports `@lamis/sdk` by name) against a
// real server with its simulators on and a Pro organisation's key, so the README cannot rot.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { organisationKey, startTestServer, type TestServer } from './support.ts';

const run = promisify(execFile);
const sdkDir = new URL('..', import.meta.url).pathname;
let server: TestServer;

before(async () => {
  server = await startTestServer({ config: { aisSimulator: 'on', aisSimulatorVessels: 300, aviationSimulators: 'on' } });
});
after(() => server.close());

test('the README example runs as written', { timeout: 120_000 }, async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(example, 'sdk/README.md has a ts code block');
  const apiKey = await organisationKey(server, 'pro');
  // The example lists vessels of a running service: wait until the simulator, which starts once
  // the server listens, has put one in its box.
  const deadline = Date.now() + 60_000;
  const inBox = async () => {
    const response = await fetch(`${server.url}/v3/maritime/vessels?bbox=-10,48,10,60&limit=1`, { headers: { authorization: `Bearer ${apiKey}` } });
    return ((await response.json()) as { data: unknown[] }).data.length > 0;
  };
  while (!(await inBox())) {
    assert.ok(Date.now() < deadline, 'no simulated vessel reached the box within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Run from sdk/, where the package resolves its own name.
  const { stdout } = await run(process.execPath, ['--input-type=module-typescript', '--eval', example], {
    cwd: sdkDir,
    env: { ...process.env, LAMIS_URL: server.url, LAMIS_API_KEY: apiKey },
    timeout: 90_000,
  });
  const lines = stdout.trim().split('\n');
  assert.match(lines[0]!, /^EGLL (OPERATIONAL|LIMITED|CLOSED|UNKNOWN): \S.*, safety score \d+$/);
  assert.match(lines[1]!, /^requests left this minute: \d+$/);
  assert.ok(lines.some((line) => /^vessel \d+ /.test(line)), stdout);
  assert.ok(lines.includes('not found: vessel_not_found (request ' + /\(request (\S+)\)/.exec(stdout)?.[1] + ')'), stdout);
  assert.ok(lines.includes('subscribed: 1 box, every 5 s'), stdout);
  const positions = lines.filter((line) => line.startsWith('position '));
  assert.equal(positions.length, 3, stdout);
  for (const line of positions) {
    const [, , lat, lon] = line.split(' ').map(Number);
    assert.ok(lat! >= 48 && lat! <= 60 && lon! >= -10 && lon! <= 10, line);
  }
});
