// The `lamis` command as a user runs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SETTINGS } from '../src/config.ts';
import { olderSystemNode, SYSTEM_PATH } from './support/serve.ts';

const bin = new URL('../bin/lamis.js', import.meta.url).pathname;

function lamis(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
  });
}

/** The modules a run of the command loaded (file URLs under the project, or package paths). */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lamis-modules-'));
  const file = path.join(dir, 'modules.txt');
  try {
    const recorder = new URL('./support/record-modules.ts', import.meta.url).pathname;
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', recorder, bin, ...args], { env: { ...process.env, LAMIS_TEST_MODULES_FILE: file } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }));
      child.stdin?.end();
    });
    assert.equal(code, 0, stderr);
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('lamis --help and lamis decode load only what they need: not the server, its settings or its packages', async () => {
  for (const args of [['--help'], ['decode']]) {
    const loaded = await modulesLoadedBy(args);
    assert.ok(loaded.some((url) => url.endsWith('/src/cli.ts')), 'the recorder saw the command load');
    // Source files by their path under src/, packages by name.
    const names = new Set(loaded.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? /\/(src\/.*)$/.exec(url)?.[1] ?? url));
    const heavy = [...names].filter((name) => /^(src\/(server|config)\.ts|fastify|pino|kysely|pg|ioredis|@nats-io\/.+)$/.test(name));
    assert.deepEqual(heavy, [], `lamis ${args.join(' ')}`);
  }
});

test('lamis migrate loads the migrations without the mail transport', async () => {
  const loaded = await modulesLoadedBy(['migrate', '--help']);
  assert.ok(loaded.some((url) => url.endsWith('/src/migrations.ts')), 'the recorder saw the migrations load');
  assert.deepEqual(loaded.filter((url) => /\/node_modules\/nodemailer\/|\/src\/platform\/mail\//.test(url)), []);
});

test('lamis --help lists the commands', async () => {
  const { code, stdout } = await lamis(['--help']);
  assert.equal(code, 0);
  assert.match(stdout, /^\s+serve\s+Run the LAMIS service/m);
  assert.match(stdout, /^\s+migrate\s+Apply pending storage migrations/m);
});

test('lamis serve --help shows every setting with its environment variable and default', async () => {
  const { code, stdout } = await lamis(['serve', '--help']);
  assert.equal(code, 0);
  for (const setting of SETTINGS) {
    assert.match(stdout, new RegExp(`--${setting.flag} VALUE .*\\[env ${setting.env}; default `), setting.env);
  }
});

test('a bad setting stops the command with a message naming it', async () => {
  const { code, stderr } = await lamis(['serve'], { PORT: '99999', LOG_LEVEL: 'chatty' });
  assert.equal(code, 2);
  assert.match(stderr, /PORT: must be a whole number from 0 to 65535 \(got "99999"\)/);
  assert.match(stderr, /LOG_LEVEL: must be one of/);
});

test('an unknown command or option is a usage error', async () => {
  assert.equal((await lamis(['launch'])).code, 2);
  const { code, stderr } = await lamis(['migrate', '--colour']);
  assert.equal(code, 2);
  assert.match(stderr, /Unknown option '--colour'/);
});

test('a port in use stops lamis serve before its start-up, with one line and exit 2', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-test-'));
  try {
    const { code, stdout, stderr } = await lamis(['serve', '--port', String(port)], { LAMIS_DATA_DIR: dataDir });
    assert.equal(code, 2);
    assert.equal(stderr, `lamis serve: port ${port} on 127.0.0.1 is in use (set PORT or --port)\n`);
    assert.equal(stdout, '');
    assert.equal(existsSync(path.join(dataDir, 'lamis.sqlite')), false, 'nothing was started');
  } finally {
    holder.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a configured feed that cannot run stops lamis serve with its reason and exit 2, leaving nothing running', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-test-'));
  const missing = path.join(dataDir, 'no-such-recording.nmea');
  try {
    const { code, stderr } = await lamis(['serve', '--port', '0'], { LAMIS_DATA_DIR: dataDir, AIS_FEEDS: `file:${missing}`, LOG_LEVEL: 'silent' });
    assert.equal(code, 2, stderr);
    assert.equal(stderr, `lamis serve: Invalid configuration:\n  - AIS_FEEDS: feed file:${missing} could not start: ENOENT: no such file or directory, open '${missing}'\n`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('lamis migrate prepares the data folder and says what it did', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-test-'));
  try {
    const first = await lamis(['migrate', '--data-dir', dataDir]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /sqlite/);
    const again = await lamis(['migrate'], { LAMIS_DATA_DIR: dataDir });
    assert.equal(again.code, 0);
    assert.match(again.stdout, /Nothing to apply: sqlite .* is up to date/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the README\'s configuration table lists exactly the settings, in their order, as the code defines them', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration\n'), readme.indexOf('\n### PostgreSQL, Redis and NATS\n'));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  assert.deepEqual(rows, SETTINGS.map((s) => `| \`${s.env}\` | \`--${s.flag}\` | ${s.shown} | ${s.description} |`));
});

test('lamis decode turns NMEA lines into JSON Lines and summarises what it rejected', async () => {
  const input = [
    '!AIVDM,1,1,,A,B3KLehP0B@LTN6`Vl;rrBE063P06,0*5A',
    '!AIVDM,1,1,,A,B3KLehP0B@LTN6`Vl;rrBE063P06,0*00',
    'not nmea at all',
  ].join('\n');
  const run = (args: string[]) => new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
    const child = execFile(process.execPath, [bin, 'decode', ...args], (error, stdout, stderr) =>
      resolve({ stdout, stderr, code: error ? Number(error.code) : 0 }));
    child.stdin?.end(input);
  });
  const scaled = await run([]);
  assert.equal(scaled.code, 0);
  const [message, ...more] = scaled.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(more.length, 0);
  assert.equal(message.mmsi, 230108610);
  assert.equal(message.sog, 7.3);
  assert.ok(Math.abs(message.lat - 60.16373) < 1e-5);
  assert.match(scaled.stderr, /3 lines, 1 messages; rejected: .*checksum 1/);
  const raw = JSON.parse((await run(['--raw'])).stdout);
  assert.equal(raw.speed, 73);
  assert.equal(raw.lat, 36098238);
});


test('the READMEs run TypeScript only through npm, which puts the bundled Node 24 first', () => {
  for (const file of ['../README.md', '../sdk/README.md']) {
    const text = readFileSync(new URL(file, import.meta.url), 'utf8');
    const bare = text.split('\n').filter((line) => /(^|[`\s])node [^`]*\.ts\b/.test(line));
    assert.deepEqual(bare, [], `${file}: a system Node older than 24 cannot run these`);
  }
});

test('npm run test:file runs one test file on the bundled Node, from a shell whose node is the system one', { timeout: 120_000 }, async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // Without this runner's NODE_TEST_CONTEXT, which would make the inner runner report to it.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    execFile('npm', ['run', 'test:file', '--', 'src/platform/text.test.ts'], { cwd: new URL('..', import.meta.url).pathname, env: { ...env, PATH: SYSTEM_PATH } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
  });
  assert.equal(code, 0, stdout + stderr);
  assert.match(stdout, /^ℹ pass [1-9]/m);
  assert.match(stdout, /^ℹ fail 0$/m);
});

test('npx lamis on an older system Node warns of no unsupported engine: the command hands over to the bundled Node',
  { timeout: 60_000, skip: olderSystemNode() ? false : 'no Node older than 24 on the PATH' }, async () => {
    // A fresh npm cache, as on a new machine: npx links the project into it on its first run.
    const cache = mkdtempSync(path.join(tmpdir(), 'lamis-npm-cache-'));
    try {
      const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile('npx', ['lamis', '--version'], { cwd: new URL('..', import.meta.url).pathname, env: { ...process.env, PATH: SYSTEM_PATH, npm_config_cache: cache } },
          (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }));
      });
      assert.equal(code, 0, stderr);
      assert.doesNotMatch(stderr, /EBADENGINE|Unsupported engine/);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
