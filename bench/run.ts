// Runs the benchmarks in bench/ and prints a summary.
//
//   npm run bench                      every benchmark
//   npm run bench -- ais-decode        one by name (or every one whose name starts with the argument)
//   npm run bench -- --list            list them
//   npm run bench -- ais-decode --messages=100k --runs=3   flags go to each benchmark
//   npm run bench -- stream --clients=1000,5000        the AIS stream under load (starts its own server)
//
// A benchmark is a file bench/<name>.ts exporting `description` and `run(options)` (see
// lib/harness.ts); helpers live in bench/lib/. Each one runs in its own Node process (with
// --expose-gc), so one benchmark's heap and JIT state do not leak into the next, and hands its
// headline back through a JSON report file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, REPORT_FILE_ENV } from './lib/harness.ts';
import type { BenchModule, BenchReport } from './lib/harness.ts';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

function availableBenchmarks(): string[] {
  return readdirSync(BENCH_DIR)
    .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.endsWith('.test.ts') && !file.startsWith('_'))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
}

async function describe(name: string): Promise<string> {
  const module = (await import(pathToFileURL(join(BENCH_DIR, `${name}.ts`)).href)) as Partial<BenchModule>;
  return module.description ?? '';
}

function usage(names: readonly string[]): string {
  return [
    'usage: npm run bench [-- [name ...] [--flag=value ...]]',
    '       node bench/run.ts [name ...] [--flag=value ...]',
    '',
    `benchmarks: ${names.join(', ') || '(none)'}`,
    'flags are passed to every selected benchmark (e.g. --messages=100k --runs=3); --list describes them.',
  ].join('\n');
}

interface Outcome {
  name: string;
  status: 'ok' | 'failed';
  seconds: number;
  report: BenchReport | null;
  detail: string;
}

function runOne(name: string, forwarded: readonly string[], reportDir: string): Outcome {
  const reportFile = join(reportDir, `${name}.json`);
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--expose-gc', join(BENCH_DIR, `${name}.ts`), ...forwarded], {
    stdio: 'inherit',
    env: { ...process.env, [REPORT_FILE_ENV]: reportFile },
  });
  const seconds = (performance.now() - start) / 1000;
  let report: BenchReport | null = null;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as BenchReport;
  } catch {
    report = null;
  }
  if (child.error) return { name, status: 'failed', seconds, report, detail: child.error.message };
  if (child.status !== 0) {
    return { name, status: 'failed', seconds, report, detail: `exited ${child.status ?? child.signal}` };
  }
  return { name, status: 'ok', seconds, report, detail: report === null ? 'no report' : '' };
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const { flags, positionals } = parseArgs(argv);
  const names = availableBenchmarks();
  if (flags.help === true || flags.h === true) {
    console.log(usage(names));
    return 0;
  }
  if (flags.list === true) {
    for (const name of names) console.log(`${name.padEnd(20)} ${await describe(name)}`);
    return 0;
  }

  const selected: string[] = [];
  for (const wanted of positionals) {
    const matches = names.includes(wanted) ? [wanted] : names.filter((name) => name.startsWith(wanted));
    if (matches.length === 0) {
      console.error(`no benchmark named "${wanted}"\n\n${usage(names)}`);
      return 2;
    }
    for (const match of matches) if (!selected.includes(match)) selected.push(match);
  }
  const toRun = selected.length > 0 ? selected : names;
  const forwarded = argv.filter((arg) => arg.startsWith('--'));

  const cpu = cpus();
  console.log(
    `LAMIS benchmarks on Node ${process.version}, ${process.platform}-${process.arch}, ` +
      `${cpu.length} CPU${cpu.length === 1 ? '' : 's'} (${cpu[0]?.model.trim() ?? 'unknown'})`,
  );
  console.log(`running: ${toRun.join(', ')}${forwarded.length > 0 ? ` with ${forwarded.join(' ')}` : ''}\n`);

  const reportDir = mkdtempSync(join(tmpdir(), 'lamis-bench-report-'));
  const outcomes: Outcome[] = [];
  try {
    for (const name of toRun) {
      outcomes.push(runOne(name, forwarded, reportDir));
      console.log('');
    }
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }

  console.log('== Summary');
  for (const outcome of outcomes) {
    const detail = outcome.detail ? ` (${outcome.detail})` : '';
    console.log(`${outcome.name}: ${outcome.status}${detail}, ${outcome.seconds.toFixed(1)} s`);
    for (const line of outcome.report?.headline ?? []) console.log(`  ${line}`);
  }
  const failed = outcomes.filter((outcome) => outcome.status !== 'ok').length;
  console.log(`benchmarks: ${outcomes.length - failed} ok, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main();
