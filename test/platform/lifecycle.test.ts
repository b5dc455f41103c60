// Graceful shutdown: in-flight requests complete, new ones are refused, storage and bus close,
// and the process exits 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { closeGracefully } from '../../src/platform/http/shutdown.ts';
import { TestStream } from '../maritime/stream-support.ts';
import { olderSystemNode, startServe } from '../support/serve.ts';
import { AUTH, startTestServer } from '../support/server.ts';

test('closing waits for in-flight requests and refuses new connections', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const started = new Promise<void>((resolve) => (arrived = resolve));
  const server = await startTestServer({
    beforeListen(app) {
      app.get('/v3/probe/slow', async () => {
        arrived();
        await held;
        return { finished: true };
      });
    },
  });
  const inFlight = fetch(`${server.url}/v3/probe/slow`, { headers: AUTH });
  await started;
  const closing = closeGracefully(server.app, 5000);
  await new Promise((r) => setTimeout(r, 100));
  await assert.rejects(fetch(`${server.url}/healthz`), 'a new connection is refused while closing');
  release();
  const response = await inFlight;
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { finished: true });
  assert.equal(await closing, 'clean');
  server.config.cleanup();
});

test('a close is forced when it cuts a request still running at the deadline, not when a hook is slow to close', async () => {
  const slowHook = await startTestServer({
    beforeListen(app) {
      app.addHook('onClose', () => new Promise((resolve) => setTimeout(resolve, 600)));
    },
  });
  assert.equal(await closeGracefully(slowHook.app, 200), 'clean');
  slowHook.config.cleanup();

  let arrived!: () => void;
  const started = new Promise<void>((resolve) => (arrived = resolve));
  const held = await startTestServer({
    beforeListen(app) {
      app.get('/v3/probe/held', () => {
        arrived();
        return new Promise(() => {});
      });
    },
  });
  const cut = fetch(`${held.url}/v3/probe/held`, { headers: AUTH }).then(() => 'answered', () => 'cut');
  await started;
  assert.equal(await closeGracefully(held.app, 200), 'forced');
  assert.equal(await cut, 'cut');
  held.config.cleanup();
});

test('SIGTERM during a request: the request completes and lamis serve exits 0', { timeout: 30_000 }, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-test-'));
  const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
    // No simulator: its set-up after listen would delay reading the request this test times.
    env: { ...process.env, LAMIS_DATA_DIR: dataDir, LOG_LEVEL: 'info', AIS_SIMULATOR: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', () => reject(new Error(`server exited early:\n${output}`)));
  });

  // A request whose body is still arriving when the signal comes.
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const body = '{"destination_icao":"EGLL"}';
  socket.write(`POST /v3/probe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
  socket.write(body.slice(0, 10));
  await new Promise((r) => setTimeout(r, 200));
  child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  let reply = '';
  socket.on('data', (chunk) => (reply += chunk));
  const socketClosed = new Promise((resolve) => socket.on('close', resolve));
  socket.write(body.slice(10));
  await socketClosed;

  assert.match(reply, /^HTTP\/1\.1 404 /, 'the in-flight request got its answer');
  assert.match(reply, /request-id: req_/i);
  assert.equal(await exited, 0, output);
  assert.match(output, /"signal":"SIGTERM"/);
  // With no LAMIS_API_KEYS, the first start made a development key readable only by its owner.
  const keyFile = path.join(dataDir, 'api-key');
  assert.match(readFileSync(keyFile, 'utf8'), /^lamis_dev_[\w-]{32}\n$/);
  assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  assert.ok(output.includes('the development API key is in this file'));
  rmSync(dataDir, { recursive: true, force: true });
});

test("a fresh lamis serve answers the README's first request at once: start-up is no overload", { timeout: 90_000 }, async () => {
  for (let start = 1; start <= 3; start++) {
    const serve = startServe();
    try {
      const port = await serve.listening;
      const key = readFileSync(path.join(serve.dataDir, 'api-key'), 'utf8').trim();
      for (let request = 1; request <= 2; request++) {
        const response = await fetch(`http://127.0.0.1:${port}/v3/maritime/vessels?bbox=-10,48,10,60&limit=5`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(response.status, 200, `start ${start}, request ${request}: ${await response.text()}`);
      }
      serve.child.kill('SIGTERM');
      assert.equal((await serve.exited).code, 0, `start ${start}:\n${serve.output()}`);
      // The simulator sets sail once the server listens, not before.
      const output = serve.output();
      assert.ok(output.indexOf('"feed":"simulator"') > output.indexOf('Server listening at'), output);
    } finally {
      await serve.cleanup();
    }
  }
});

/** A /proc file of NUL-separated strings (`cmdline`, `environ`) of a process, and of the processes it started. */
function procLists(pid: number, file: 'cmdline' | 'environ'): { own: string[]; children: string[][] } {
  const read = (of: number) => readFileSync(`/proc/${of}/${file}`, 'utf8').split('\0').filter(Boolean);
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
  return { own: read(pid), children: children.map((child) => read(Number(child))) };
}

const commandLines = (pid: number) => procLists(pid, 'cmdline');

test("lamis serve runs with the service's V8 heap and malloc settings, as the process it was started as, and so do its stream processes, whose memory /metrics shows with the ingest thread's; an operator's own settings win",
  { timeout: 90_000, skip: existsSync('/proc/self/task') ? false : 'reads /proc' }, async () => {
    const serve = startServe({ env: { LAMIS_STREAM_PROCESSES: '1', AIS_INGEST_THREAD: 'on' } });
    try {
      const port = await serve.listening;
      assert.ok(commandLines(serve.child.pid!).own.includes('--max-semi-space-size=8'), commandLines(serve.child.pid!).own.join(' '));
      const key = readFileSync(path.join(serve.dataDir, 'api-key'), 'utf8').trim();
      const stream = await TestStream.ready(`http://127.0.0.1:${port}`, { authorization: `Bearer ${key}` });
      const streamProcess = commandLines(serve.child.pid!).children.find((args) => args.some((arg) => arg.endsWith('stream/process.ts')));
      assert.ok(streamProcess?.includes('--max-semi-space-size=8'), JSON.stringify(commandLines(serve.child.pid!).children));
      const environments = procLists(serve.child.pid!, 'environ');
      assert.ok(environments.own.includes('MALLOC_ARENA_MAX=2'));
      assert.ok(environments.children.length > 0 && environments.children.every((environment) => environment.includes('MALLOC_ARENA_MAX=2')));
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
      assert.equal(value('lamis_stream_processes'), 1);
      assert.ok(value('lamis_stream_processes_resident_bytes') > 20e6, metrics);
      assert.ok(value('lamis_ais_ingest_heap_size_used_bytes') > 1e6, metrics);
      assert.ok(value('lamis_ais_ingest_heap_size_used_bytes') <= value('lamis_ais_ingest_heap_size_total_bytes'), metrics);
      await stream.close();
    } finally {
      await serve.cleanup();
    }
    const chosen = startServe({ env: { NODE_OPTIONS: '--max-semi-space-size=16', MALLOC_ARENA_MAX: '4' } });
    try {
      await chosen.listening;
      assert.ok(!commandLines(chosen.child.pid!).own.some((arg) => arg.startsWith('--max-semi-space-size')));
      assert.ok(procLists(chosen.child.pid!, 'environ').own.includes('MALLOC_ARENA_MAX=4'));
    } finally {
      await chosen.cleanup();
    }
  });

const systemNode = olderSystemNode();

test('lamis started by an older Node: SIGTERM reaches the server, which exits and frees its port; the exit code passes through',
  { timeout: 60_000, skip: systemNode ? false : 'no Node older than 24 on the PATH: bin/lamis.js hands over to the bundled Node only from one' },
  async () => {
    const serve = startServe({ node: systemNode });
    let serverPid: number | undefined;
    try {
      const port = await serve.listening;
      serverPid = Number(/"pid":(\d+)/.exec(serve.output())![1]);
      assert.notEqual(serverPid, serve.child.pid, 'the server runs in a child of the command');
      await fetch(`http://127.0.0.1:${port}/healthz`); // answered: the shutdown handlers are in place
      serve.child.kill('SIGTERM');
      assert.deepEqual(await serve.exited, { code: 0, signal: null }, serve.output());
      assert.equal(isRunning(serverPid), false, 'the server process is gone');
      const probe = net.createServer();
      await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise((resolve) => probe.close(resolve));

      // The handed-over command's own exit code comes back, here a usage error's.
      const usage = startServe({ node: systemNode, args: ['replay'] });
      assert.equal((await usage.exited).code, 2);
      await usage.cleanup();
    } finally {
      if (serverPid && isRunning(serverPid)) process.kill(serverPid, 'SIGKILL');
      await serve.cleanup();
    }
  });

test('Ctrl-C at a terminal, which reaches both the command and the service it handed over to, shuts down cleanly',
  { timeout: 60_000, skip: systemNode ? false : 'no Node older than 24 on the PATH: bin/lamis.js hands over to the bundled Node only from one' },
  async () => {
    const serve = startServe({ node: systemNode, detached: true });
    try {
      const port = await serve.listening;
      await fetch(`http://127.0.0.1:${port}/healthz`); // answered: the shutdown handlers are in place
      process.kill(-serve.child.pid!, 'SIGINT'); // the whole foreground job, as the terminal does
      assert.deepEqual(await serve.exited, { code: 0, signal: null }, serve.output());
    } finally {
      await serve.cleanup();
    }
  });

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the process exits within `ms` (the test's patience, not a timing under test). */
function exitsWithin(serve: ReturnType<typeof startServe>, ms: number) {
  return Promise.race([serve.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms).unref())]);
}

test('a server whose log reader stopped reading still shuts down by its deadline', { timeout: 90_000 }, async () => {
  const serve = startServe({ env: { LAMIS_SHUTDOWN_TIMEOUT_SEC: '2' } });
  try {
    const port = await serve.listening;
    // The reader stays, but reads no more: the pipe fills with request log lines.
    serve.child.stdout!.removeAllListeners('data');
    serve.child.stdout!.pause();
    const padding = 'x'.repeat(16_000);
    for (let i = 0; i < 150; i++) await fetch(`http://127.0.0.1:${port}/healthz?padding=${padding}`);
    serve.child.kill('SIGTERM');
    const exit = await exitsWithin(serve, 30_000);
    assert.notEqual(exit, 'still running', serve.output());
  } finally {
    await serve.cleanup();
  }
});

test('a server whose log reader went away shuts down cleanly on SIGTERM', { timeout: 60_000 }, async () => {
  const serve = startServe();
  try {
    const port = await serve.listening;
    serve.child.stdout!.destroy();
    for (let i = 0; i < 5; i++) await fetch(`http://127.0.0.1:${port}/healthz`);
    serve.child.kill('SIGTERM');
    assert.deepEqual(await exitsWithin(serve, 30_000), { code: 0, signal: null }, serve.output());
  } finally {
    await serve.cleanup();
  }
});

/** Waits until the process has written something that matches (for a minute at most). */
async function outputMatching(serve: ReturnType<typeof startServe>, pattern: RegExp): Promise<string> {
  for (const giveUp = Date.now() + 60_000; Date.now() < giveUp;) {
    const match = pattern.exec(serve.output());
    if (match) return match[0];
    if (serve.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no output matching ${pattern}:\n${serve.output()}`);
}

test('LOG_FORMAT=pretty prints readable lines and a start-up banner; json (the default off a terminal) prints JSON lines', { timeout: 90_000 }, async () => {
  const pretty = startServe({ env: { LOG_FORMAT: 'pretty' } });
  try {
    const port = await pretty.listening;
    const banner = await outputMatching(pretty, /LAMIS \S+ is ready\n(  .*\n)+/);
    assert.match(banner, new RegExp(`Dashboard +http://127\\.0\\.0\\.1:${port}/\n`));
    assert.match(banner, /Storage +sqlite in /);
    assert.match(banner, /AIS feeds +simulator \(/);
    assert.ok(banner.includes(`the development key is in ${path.join(pretty.dataDir, 'api-key')}`), banner);
    assert.match(pretty.output(), /^\d\d:\d\d:\d\d INFO  Server listening at http:/m);
  } finally {
    await pretty.cleanup();
  }
  for (const format of ['json', undefined]) {
    const json = startServe({ env: { LOG_FORMAT: format } });
    try {
      await json.listening;
      await outputMatching(json, /"msg":"LAMIS \S+ ready"/);
      const lines = json.output().trim().split('\n');
      assert.ok(lines.every((line) => JSON.parse(line).msg !== undefined), `LOG_FORMAT=${format}`);
      assert.doesNotMatch(json.output(), /is ready\n/);
    } finally {
      await json.cleanup();
    }
  }
});
