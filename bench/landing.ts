// Landing requests per second and p99 latency from warm caches, as a ratio to a trivial route
// (/healthz) of the same server in the same run. The server is a real `lamis serve` in its own
// process (simulated METAR/TAF and NOTAMs, no AIS simulator), loaded over loopback by autocannon.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { formatInt, formatRatio, formatTable, intFlag, runAsScript } from './lib/harness.ts';
import type { BenchOptions, BenchReport } from './lib/harness.ts';

export const description = 'landing requests/s and p99 latency from warm caches, against /healthz on the same server';

const KEY = 'lamis_bench_0123456789abcdef';
const AIRPORTS = ['EGLL', 'KJFK', 'LFPG', 'EDDF', 'KLAX', 'RJTT', 'YSSY', 'OMDB', 'SBGR', 'FAOR'];

/** `profileDir`: the server writes a V8 CPU profile there when it stops (`--cpu-prof=DIR`). */
async function startServer(dataDir: string, profileDir: string | undefined): Promise<{ child: ChildProcess; url: string }> {
  const bin = new URL('../bin/lamis.js', import.meta.url).pathname;
  const profiling = profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)];
  const child = spawn(process.execPath, [...profiling, bin, 'serve', '--port', '0'], {
    env: { ...process.env, LAMIS_DATA_DIR: dataDir, LAMIS_API_KEYS: KEY, AIS_SIMULATOR: 'off', AVIATION_SIMULATORS: 'on', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const listening = (chunk: Buffer) => {
      output += chunk;
      const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (!match) return;
      // From here on the request log is read and dropped, as a log shipper would.
      child.stdout!.off('data', listening).resume();
      resolve(Number(match[1]));
    };
    child.stdout!.on('data', listening);
    child.on('exit', () => reject(new Error(`the server exited:\n${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

function landingPath(icao: string): string {
  const eta = new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  return `/v3/intelligence/landing?${new URLSearchParams({ destination_icao: icao, vehicle_type: 'aircraft', eta_utc: eta, registration: 'G-BENCH', aircraft_type: 'A320' })}`;
}

async function load(url: string, paths: string[], seconds: number, connections: number) {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${KEY}` },
    requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors from ${paths[0]}`);
  return { rps: result.requests.average, p99: result.latency.p99, requests: result.requests.total };
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const seconds = intFlag(options, 'seconds', 10);
  const connections = intFlag(options, 'connections', 10);
  const rounds = intFlag(options, 'rounds', 2);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-'));
  const profileDir = typeof options.flags['cpu-prof'] === 'string' ? options.flags['cpu-prof'] : undefined;
  const server = await startServer(dataDir, profileDir);
  try {
    const landing = AIRPORTS.map(landingPath);
    // Warm the caches: every airport's METAR, TAF and NOTAMs fetched once, the JIT warmed up.
    for (const p of landing) {
      const response = await fetch(server.url + p, { headers: { authorization: `Bearer ${KEY}` } });
      if (response.status !== 200) throw new Error(`warm-up ${p}: ${response.status} ${await response.text()}`);
    }
    await load(server.url, landing, 2, connections);

    const rows: { round: number; trivial: Awaited<ReturnType<typeof load>>; landing: Awaited<ReturnType<typeof load>> }[] = [];
    for (let round = 1; round <= rounds; round++) {
      const trivial = await load(server.url, ['/healthz'], seconds, connections);
      rows.push({ round, trivial, landing: await load(server.url, landing, seconds, connections) });
    }
    const best = (pick: (row: (typeof rows)[number]) => number, lowest = false) =>
      rows.map(pick).sort((a, b) => (lowest ? a - b : b - a))[0]!;
    const throughput = best((r) => r.landing.rps) / best((r) => r.trivial.rps);
    const latency = best((r) => r.landing.p99, true) / best((r) => r.trivial.p99, true);

    console.log(`\nlanding over ${AIRPORTS.length} airports vs /healthz, ${connections} connections, ${seconds} s each, ${rounds} rounds\n`);
    console.log(formatTable(['round', 'route', '>requests/s', '>p99 ms', '>requests'], rows.flatMap((r) => [
      [String(r.round), '/healthz', formatInt(r.trivial.rps), String(r.trivial.p99), formatInt(r.trivial.requests)],
      [String(r.round), '/v3/intelligence/landing', formatInt(r.landing.rps), String(r.landing.p99), formatInt(r.landing.requests)],
    ])));
    return {
      name: 'landing',
      headline: [
        `landing throughput: ${formatRatio(throughput)} of /healthz (${formatInt(best((r) => r.landing.rps))} requests/s)`,
        `landing p99: ${formatRatio(latency)} of /healthz (${best((r) => r.landing.p99, true)} ms)`,
      ],
      data: rows,
    };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await runAsScript('landing', { description, run });
