// Start-up of `lamis serve` on the embedded defaults (no configuration: SQLite in a new data folder,
// the in-process bus, the built-in reference data, the simulators on), against a bare Node.js
// process that starts a Fastify server answering /healthz, in the same rounds.
//
// Each round starts the bare server, then LAMIS on a new data folder (first start: migrations, the
// airport cache compiled), then LAMIS again on that folder (second start). For each it measures,
// from the spawn: the first answered /healthz; for LAMIS the first airport request sent right then
// (its status and time: it waits for the airport index, it must not be a 404) and when /readyz
// reports the reference data loaded. lib/loop-probe.ts, loaded into the server process, notes every
// event-loop block over 20 ms: the longest before the first /healthz answer (start-up work) and the
// longest after it until the reference data is loaded (what requests then feel), with the CPU time
// of the block that used the most (on a shared machine the wall time of a block includes the wait
// for a core). The bare server's longest block over the same kind of window is the machine's own noise.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { boolFlag, formatRatio, formatTable, intFlag, median, runAsScript, type BenchOptions, type BenchReport } from './lib/harness.ts';
import { longestBlock } from './lib/loop-probe.ts';
import { freePort, pollServer } from './lib/serve.ts';

export const description =
  'Start-up of `lamis serve` on the embedded defaults (first and second start): time to /healthz, to the reference data loaded, ' +
  'the first airport answer, and the longest event-loop blocks, against a bare Fastify process';

const LAMIS = new URL('../bin/lamis.js', import.meta.url).pathname;
const BARE = new URL('./lib/bare-fastify.ts', import.meta.url).pathname;
const PROBE = new URL('./lib/loop-probe.ts', import.meta.url).pathname;
/** How long the bare server is watched after its first answer, for the noise floor. */
const BARE_WATCH_MS = 2000;

type Case = 'bare Fastify (baseline)' | 'LAMIS first start' | 'LAMIS second start';

interface Start {
  healthzMs: number;
  /** LAMIS: when /readyz first reported the reference data loaded. */
  loadedMs: number | null;
  firstAirport: { status: number; ms: number } | null;
  blockBeforeMs: number;
  blockAfterMs: number;
  /** The most CPU time of the main thread any block after the first /healthz used. */
  blockAfterCpuMs: number;
}

async function start(kind: 'bare' | 'lamis', dataDir: string, settings: Record<string, string> = {}): Promise<Start> {
  const port = await freePort();
  const loopFile = path.join(dataDir, `loop-${kind}-${Date.now()}.txt`);
  // The embedded defaults: none of the caller's LAMIS settings.
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), LAMIS_DATA_DIR: dataDir, LAMIS_BENCH_LOOP_FILE: loopFile,
    ...settings,
  };
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, ['--import', PROBE, ...(kind === 'lamis' ? [LAMIS, 'serve'] : [BARE])], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  try {
    const answeredAt = await pollServer(child, async () => ((await fetch(`${url}/healthz`)).ok ? Date.now() : null), 5);
    let firstAirport: Start['firstAirport'] = null;
    let loadedAt: number;
    if (kind === 'lamis') {
      const key = readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
      const asked = Date.now();
      const answer = await fetch(`${url}/v3/aviation/airports/EGLL`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await answer.json()) as { icao?: string };
      firstAirport = { status: answer.ok && body.icao === 'EGLL' ? answer.status : -answer.status, ms: Date.now() - asked };
      loadedAt = await pollServer(child, async () => {
        const report = (await (await fetch(`${url}/readyz`)).json()) as { checks: { reference_data?: { state: string } } };
        return report.checks.reference_data?.state === 'up' ? Date.now() : null;
      }, 20);
    } else {
      await sleep(BARE_WATCH_MS);
      loadedAt = Date.now();
    }
    const after = longestBlock(loopFile, answeredAt, loadedAt);
    return {
      healthzMs: answeredAt - spawnedAt,
      loadedMs: kind === 'lamis' ? loadedAt - spawnedAt : null,
      firstAirport,
      blockBeforeMs: longestBlock(loopFile, 0, answeredAt).wall,
      blockAfterMs: after.wall,
      blockAfterCpuMs: after.cpu,
    };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const rounds = intFlag(options, 'runs', 3);
  // --no-ais-simulator: without the AIS simulator, whose set-up runs right after the server listens.
  const aisSimulator = boolFlag(options, 'ais-simulator', true);
  const settings: Record<string, string> = aisSimulator ? {} : { AIS_SIMULATOR: 'off' };
  const results: Record<Case, Start[]> = { 'bare Fastify (baseline)': [], 'LAMIS first start': [], 'LAMIS second start': [] };
  for (let round = 0; round < rounds; round++) {
    const bareDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-startup-bare-'));
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-startup-'));
    try {
      results['bare Fastify (baseline)'].push(await start('bare', bareDir));
      results['LAMIS first start'].push(await start('lamis', dataDir, settings));
      results['LAMIS second start'].push(await start('lamis', dataDir, settings));
    } finally {
      rmSync(bareDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const med = (runs: Start[], pick: (run: Start) => number | null) => median(runs.map(pick).filter((value): value is number => value !== null));
  const bareHealthz = med(results['bare Fastify (baseline)'], (r) => r.healthzMs);
  const bareNoise = med(results['bare Fastify (baseline)'], (r) => r.blockAfterMs);
  const rows = (Object.entries(results) as [Case, Start[]][]).map(([name, runs]) => {
    const healthz = med(runs, (r) => r.healthzMs);
    const airports = runs.map((r) => r.firstAirport).filter((a) => a !== null);
    return [
      name,
      `${Math.round(healthz)}`,
      formatRatio(healthz / bareHealthz),
      runs[0]!.loadedMs === null ? '-' : `${Math.round(med(runs, (r) => r.loadedMs))}`,
      airports.length ? `${airports.map((a) => a.status).join('/')} in ${Math.round(median(airports.map((a) => a.ms)))} ms` : '-',
      `${Math.round(med(runs, (r) => r.blockBeforeMs))}`,
      `${Math.round(med(runs, (r) => r.blockAfterMs))}`,
      `${Math.round(med(runs, (r) => r.blockAfterCpuMs))}`,
    ];
  });
  console.log(`\nStart-up on the embedded defaults${aisSimulator ? '' : ' without the AIS simulator'}, median of ${rounds} rounds (times from the spawn, ms; blocks over 20 ms noted):\n`);
  console.log(formatTable(['case', '/healthz', '× baseline', 'reference loaded', 'first airport', 'longest block before /healthz', 'after /healthz until loaded', 'its most CPU'], rows));

  const line = (name: Case) => {
    const runs = results[name];
    return `${name}: /healthz in ${Math.round(med(runs, (r) => r.healthzMs))} ms (${formatRatio(med(runs, (r) => r.healthzMs) / bareHealthz)} bare Fastify), ` +
      `reference data loaded at ${Math.round(med(runs, (r) => r.loadedMs))} ms, longest event-loop block while it loads ${Math.round(med(runs, (r) => r.blockAfterMs))} ms ` +
      `(the most CPU one used: ${Math.round(med(runs, (r) => r.blockAfterCpuMs))} ms)`;
  };
  return {
    name: 'startup',
    headline: [line('LAMIS first start'), line('LAMIS second start'), `bare Fastify: /healthz in ${Math.round(bareHealthz)} ms, longest block (machine noise) ${Math.round(bareNoise)} ms`],
    data: results,
  };
}

if (import.meta.main) await runAsScript('startup', { description, run });
