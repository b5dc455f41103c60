// Landing requests per second and p99 latency from warm caches, as a ratio to a trivial route
// (/healthz) of the same server in the same run. The server is a real `lamis serve` in its own
// process (simulated METAR/TAF and NOTAMs, no AIS simulator), loaded over loopback by autocannon.
// Each round measures both routes back to back (in alternating order) and yields its own ratios;
// the headline is their median, so that a load elsewhere on the machine during one round does not
// set one route's best against the other's worst. On Linux it also reads the server process's CPU
// time around each load (/proc/<pid>/stat): CPU per request is much less swayed by other work on a
// shared machine than requests per second are.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { formatInt, formatRatio, formatTable, intFlag, median, runAsScript } from './lib/harness.ts';
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

/** The process's user + system CPU time in seconds; null where /proc is not there to read it. */
function cpuSeconds(pid: number): number | null {
  try {
    // Fields after the command name: state is the 1st, utime the 12th and stime the 13th, in clock ticks (100 a second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

function landingPath(icao: string): string {
  const eta = new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  return `/v3/intelligence/landing?${new URLSearchParams({ destination_icao: icao, vehicle_type: 'aircraft', eta_utc: eta, registration: 'G-BENCH', aircraft_type: 'A320' })}`;
}

async function load(url: string, paths: string[], seconds: number, connections: number, pid: number) {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${KEY}` },
    requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors from ${paths[0]}`);
  const cpuAfter = cpuSeconds(pid);
  // µs of server CPU per request answered.
  const cpu = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, requests: result.requests.total, cpu };
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const seconds = intFlag(options, 'seconds', 5);
  const connections = intFlag(options, 'connections', 10);
  const rounds = intFlag(options, 'rounds', 6);
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
    const pid = server.child.pid!;
    await load(server.url, landing, 2, connections, pid);

    const rows: { round: number; trivial: Awaited<ReturnType<typeof load>>; landing: Awaited<ReturnType<typeof load>> }[] = [];
    for (let round = 1; round <= rounds; round++) {
      if (round % 2 === 1) {
        const trivial = await load(server.url, ['/healthz'], seconds, connections, pid);
        rows.push({ round, trivial, landing: await load(server.url, landing, seconds, connections, pid) });
      } else {
        const landed = await load(server.url, landing, seconds, connections, pid);
        rows.push({ round, trivial: await load(server.url, ['/healthz'], seconds, connections, pid), landing: landed });
      }
    }
    // Latencies are whole milliseconds: a p99 under one counts as one.
    const throughput = median(rows.map((r) => r.landing.rps / r.trivial.rps));
    const latency = median(rows.map((r) => Math.max(1, r.landing.p99) / Math.max(1, r.trivial.p99)));
    const cpuMeasured = rows.every((r) => r.trivial.cpu !== null && r.landing.cpu !== null);
    // As the throughput ratio: /healthz's CPU per request over landing's (1: as cheap).
    const cpu = cpuMeasured ? median(rows.map((r) => r.trivial.cpu! / r.landing.cpu!)) : null;
    const cpuCell = (value: number | null) => (value === null ? '-' : formatInt(value));

    console.log(`\nlanding over ${AIRPORTS.length} airports vs /healthz, ${connections} connections, ${seconds} s each, ${rounds} rounds\n`);
    console.log(formatTable(['round', 'route', '>requests/s', '>p99 ms', '>requests', '>CPU µs/request', '>ratio'], rows.flatMap((r) => [
      [String(r.round), '/healthz', formatInt(r.trivial.rps), String(r.trivial.p99), formatInt(r.trivial.requests), cpuCell(r.trivial.cpu), ''],
      [String(r.round), '/v3/intelligence/landing', formatInt(r.landing.rps), String(r.landing.p99), formatInt(r.landing.requests), cpuCell(r.landing.cpu),
        `${formatRatio(r.landing.rps / r.trivial.rps)}, p99 ${formatRatio(Math.max(1, r.landing.p99) / Math.max(1, r.trivial.p99))}` +
          (r.trivial.cpu === null || r.landing.cpu === null ? '' : `, CPU ${formatRatio(r.trivial.cpu / r.landing.cpu)}`)],
    ])));
    return {
      name: 'landing',
      headline: [
        `landing throughput: ${formatRatio(throughput)} of /healthz (median of ${rounds} rounds; landing ${formatInt(median(rows.map((r) => r.landing.rps)))} requests/s)`,
        `landing p99: ${formatRatio(latency)} of /healthz (median of ${rounds} rounds; landing ${median(rows.map((r) => r.landing.p99))} ms)`,
        ...(cpu === null ? [] : [
          `server CPU per request: /healthz's is ${formatRatio(cpu)} of landing's (median of ${rounds} rounds; landing ${formatInt(median(rows.map((r) => r.landing.cpu!)))} µs)`,
        ]),
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
