// Graceful shutdown: in-flight requests complete, new ones are refused, storage and bus close,
// and the process exits 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { closeGracefully } from '../../src/platform/http/shutdown.ts';
import { startServe } from '../support/serve.ts';
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

test('SIGTERM during a request: the request completes and lamis serve exits 0', { timeout: 30_000 }, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-test-'));
  const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
    env: { ...process.env, LAMIS_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
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
      assert.equal((await serve.exited).code, 0);
    } finally {
      await serve.cleanup();
    }
  }
});
