// The first request of each kind that does real work on a fresh `lamis serve` (the embedded
// defaults, the simulators on), once the reference data is in: a tide question (the tide station
// database), tidal windows, a long sea route, a vessel's weather-aware ETA and a port's arrivals
// (an ETA per vessel). For each: its time, the longest event-loop block while it ran
// (lib/loop-probe.ts, in the server) and the longest /healthz wait meanwhile (polled every 5 ms),
// then the same request again. The baseline is the same server left alone as long: its longest
// /healthz wait over a quiet window just before.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatRatio, formatTable, intFlag, median, runAsScript, type BenchOptions, type BenchReport } from './lib/harness.ts';
import { longestBlock } from './lib/loop-probe.ts';
import { freePort, pollServer } from './lib/serve.ts';

export const description =
  'The first tide, tidal-window, sea-route, ETA and arrivals requests on a fresh `lamis serve`: their time and the longest ' +
  'event-loop block and /healthz wait while each runs, against the same server left alone';

const LAMIS = new URL('../bin/lamis.js', import.meta.url).pathname;
const PROBE = new URL('./lib/loop-probe.ts', import.meta.url).pathname;
const QUIET_MS = 2000;

/** The requests, in the order asked; `{mmsi}` is a simulated vessel under way in the North Sea. */
const CASES: readonly { name: string; path: string }[] = [
  { name: 'tides', path: '/v3/maritime/ports/GBSOU/tides' },
  { name: 'tidal windows', path: '/v3/maritime/ports/NLRTM/tidal-windows?draught=12' },
  { name: 'sea route', path: '/v3/maritime/routes?from=NLRTM&to=SGSIN' },
  { name: 'vessel ETA', path: '/v3/maritime/vessels/{mmsi}/eta?port=SGSIN' },
  { name: 'port arrivals', path: '/v3/maritime/ports/NLRTM/arrivals' },
];

interface Asked {
  status: number;
  ms: number;
  blockMs: number;
  blockCpuMs: number;
  healthzMs: number;
}

interface Round {
  quietHealthzMs: number;
  quietBlockMs: number;
  first: Asked[];
  again: Asked[];
  arrivals: number;
}

/** The longest /healthz wait while `during` runs, polling every 5 ms. */
async function healthzWhile<T>(url: string, during: () => Promise<T>): Promise<{ result: T; longestMs: number }> {
  let longestMs = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const asked = performance.now();
      await (await fetch(`${url}/healthz`)).text();
      longestMs = Math.max(longestMs, performance.now() - asked);
      await sleep(5);
    }
  })();
  try {
    const result = await during();
    // The wait of a /healthz still in flight counts: it may be the one the request held.
    polling = false;
    await poller;
    return { result, longestMs };
  } finally {
    polling = false;
  }
}

async function round(settleSeconds: number): Promise<Round> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-first-'));
  const port = await freePort();
  const loopFile = path.join(dataDir, 'loop.txt');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), LAMIS_DATA_DIR: dataDir, LAMIS_BENCH_LOOP_FILE: loopFile };
  const child = spawn(process.execPath, ['--import', PROBE, LAMIS, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  try {
    await pollServer(child, async () => {
      const report = (await (await fetch(`${url}/readyz`)).json()) as { checks: { reference_data?: { state: string } } };
      return report.checks.reference_data?.state === 'up' ? true : null;
    }, 50);
    await sleep(settleSeconds * 1000);
    const headers = { authorization: `Bearer ${readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim()}` };
    const mmsi = await pollServer(child, async () => {
      const page = (await (await fetch(`${url}/v3/maritime/vessels?bbox=-5,50,10,58&limit=100`, { headers })).json()) as { data: { mmsi: number; mmsi_kind: string; position: { sog: number | null } | null }[] };
      return page.data.find((vessel) => vessel.mmsi_kind === 'ship' && (vessel.position?.sog ?? 0) > 8)?.mmsi ?? null;
    }, 50);
    const quietFrom = Date.now();
    const quiet = await healthzWhile(url, () => sleep(QUIET_MS));
    const quietBlock = longestBlock(loopFile, quietFrom, Date.now());
    let arrivals = 0;
    const ask = async (casePath: string): Promise<Asked> => {
      const from = Date.now();
      const { result, longestMs } = await healthzWhile(url, async () => {
        const asked = performance.now();
        const answer = await fetch(`${url}${casePath.replace('{mmsi}', String(mmsi))}`, { headers });
        const body = (await answer.json()) as { data?: unknown[] };
        if (casePath.endsWith('/arrivals')) arrivals = body.data?.length ?? 0;
        return { status: answer.status, ms: performance.now() - asked };
      });
      // The probe notes a block when the timer after it fires: up to 5 ms after the answer.
      await sleep(20);
      const block = longestBlock(loopFile, from, Date.now());
      return { ...result, blockMs: block.wall, blockCpuMs: block.cpu, healthzMs: longestMs };
    };
    const first: Asked[] = [];
    for (const { path: casePath } of CASES) first.push(await ask(casePath));
    const again: Asked[] = [];
    for (const { path: casePath } of CASES) again.push(await ask(casePath));
    return { quietHealthzMs: quiet.longestMs, quietBlockMs: quietBlock.wall, first, again, arrivals };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const rounds = intFlag(options, 'runs', 3);
  // The simulated vessels send their static data (destinations) over their first minutes: a longer
  // settle gives the port more arrivals to predict.
  const settle = intFlag(options, 'settle', 10);
  const results: Round[] = [];
  for (let i = 0; i < rounds; i++) results.push(await round(settle));

  const quietHealthz = median(results.map((r) => r.quietHealthzMs));
  const med = (pick: (r: Round) => number) => median(results.map(pick));
  const rows = CASES.flatMap(({ name }, i) => (['first', 'again'] as const).map((which) => {
    const at = (r: Round) => r[which][i]!;
    const statuses = [...new Set(results.map((r) => at(r).status))].join('/');
    return [
      `${name}${which === 'again' ? ' (again)' : ''}`, statuses, `${Math.round(med((r) => at(r).ms))}`,
      `${Math.round(med((r) => at(r).blockMs))}`, `${Math.round(med((r) => at(r).blockCpuMs))}`,
      `${Math.round(med((r) => at(r).healthzMs))}`, formatRatio(med((r) => at(r).healthzMs) / quietHealthz),
    ];
  }));
  console.log(`\nFirst requests on a fresh lamis serve (the embedded defaults), ${settle} s after the reference data loaded, median of ${rounds} rounds ` +
    `(${results.map((r) => r.arrivals).join('/')} arrivals at NLRTM; blocks over 20 ms noted, else 0):\n`);
  console.log(formatTable(['request', 'status', '>ms', '>longest block ms', '>its CPU ms', '>longest /healthz ms', '>× quiet'], rows));
  console.log(`quiet: longest /healthz ${Math.round(quietHealthz)} ms, longest block ${Math.round(med((r) => r.quietBlockMs))} ms over ${QUIET_MS / 1000} s`);

  const worst = CASES.map(({ name }, i) => ({ name, healthz: med((r) => r.first[i]!.healthzMs), block: med((r) => r.first[i]!.blockMs) }))
    .sort((a, b) => b.healthz - a.healthz)[0]!;
  return {
    name: 'first-requests',
    headline: [
      `longest /healthz wait during a first request: ${Math.round(worst.healthz)} ms (${worst.name}; ${formatRatio(worst.healthz / quietHealthz)} the quiet ` +
      `${Math.round(quietHealthz)} ms), its longest event-loop block ${Math.round(worst.block)} ms`,
    ],
    data: results,
  };
}

if (import.meta.main) await runAsScript('first-requests', { description, run });
