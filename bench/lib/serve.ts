// A whole `lamis serve` for benchmarks that measure the service as it runs: its own process (so the
// server's cores are its own), its storage in the folder given, an AIS feed it listens for on a
// TCP port, the simulators off, warnings only (a log line per stream would fill the pipe faster
// than it is read). Answers once /healthz does.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A TCP port free on the loopback interface now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `apiKey`: the instance's operator key (LAMIS_API_KEYS). `feedPort` null: an instance that reads
 * no feed (it serves what another one reads, over the bus); `env` adds to (or overrides) the rest.
 */
export async function startLamis(dataDir: string, feedPort: number | null, apiKey: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], {
    env: {
      ...process.env,
      LAMIS_DATA_DIR: dataDir,
      LAMIS_REFERENCE_CACHE_DIR: path.join(tmpdir(), 'lamis-bench-reference'),
      LAMIS_API_KEYS: apiKey,
      AIS_FEEDS: feedPort === null ? '' : `tcp-listen://127.0.0.1:${feedPort}`,
      AIS_SIMULATOR: 'off',
      AVIATION_SIMULATORS: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the server did not start within 120 s');
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
}
