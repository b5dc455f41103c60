// Shared benchmark plumbing: argument parsing, warm-up + median timing, heap deltas, table printing,
// and the report a benchmark hands back to bench/run.ts. Benchmarks print ratios against a baseline
// measured in the same run; nothing here asserts on absolute timings.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Options every benchmark understands (`--name=value` on the command line). */
export interface BenchOptions {
  /** Raw `--key=value` flags, for benchmark-specific options. */
  flags: Record<string, string | boolean>;
}

/** What a benchmark hands back; bench/run.ts prints `headline` in its summary. */
export interface BenchReport {
  name: string;
  /** One line each, e.g. "LAMIS pipeline: 9.8× ais-stream-decoder". */
  headline: string[];
  /** Machine-readable results (written to the report file as JSON). */
  data?: unknown;
}

/** A benchmark module: `bench/<name>.ts` exports `description` and `run`. */
export interface BenchModule {
  description: string;
  run(options: BenchOptions): Promise<BenchReport>;
}

/** Environment variable through which bench/run.ts asks a benchmark process for its JSON report. */
export const REPORT_FILE_ENV = 'LAMIS_BENCH_REPORT';

/** Parses `--key=value`, `--key value`-less booleans (`--flag`, `--no-flag`) and positionals. */
export function parseArgs(argv: readonly string[]): { flags: Record<string, string | boolean>; positionals: string[] } {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (const arg of argv) {
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const body = arg.slice(2);
    const equals = body.indexOf('=');
    if (equals >= 0) flags[body.slice(0, equals)] = body.slice(equals + 1);
    else if (body.startsWith('no-')) flags[body.slice(3)] = false;
    else flags[body] = true;
  }
  return { flags, positionals };
}

/** A positive integer flag (accepts `300000`, `300_000`, `300k`), else the default. */
export function intFlag(options: BenchOptions, name: string, fallback: number): number {
  const value = options.flags[name];
  if (typeof value !== 'string') return fallback;
  const match = /^(\d[\d_]*)(k|m)?$/i.exec(value.trim());
  if (match === null) throw new Error(`--${name}=${value}: expected a positive integer`);
  const base = Number(match[1]!.replaceAll('_', ''));
  const scale = match[2] === undefined ? 1 : match[2].toLowerCase() === 'k' ? 1_000 : 1_000_000;
  return base * scale;
}

export function boolFlag(options: BenchOptions, name: string, fallback: boolean): boolean {
  const value = options.flags[name];
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  return value !== 'false' && value !== '0';
}

// ---------------------------------------------------------------- garbage collection and heap

let cachedGc: (() => void) | undefined;

/** `gc()`, exposed at run time when the process was not started with --expose-gc. */
export function gc(): void {
  if (cachedGc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') cachedGc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      cachedGc = runInNewContext('gc') as () => void;
    }
  }
  cachedGc();
}

/** Full collections until the heap stops shrinking (a few rounds at most). */
export function settleHeap(): number {
  let used = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 4; round++) {
    gc();
    const now = process.memoryUsage().heapUsed;
    if (now >= used - 64 * 1024) return now;
    used = now;
  }
  return used;
}

export interface HeapMeasurement {
  /** V8 heap growth (bytes) that stays reachable through the result. */
  heapBytes: number;
  /** Growth of memory outside the V8 heap (Buffers, ArrayBuffers) held by the result. */
  externalBytes: number;
  /** Items in the result. */
  count: number;
}

function settledUsage(): { heap: number; external: number } {
  const heap = settleHeap();
  return { heap, external: process.memoryUsage().external };
}

/**
 * Memory retained by what `build` returns: settled usage after minus before, with the result still
 * reachable. `build` must return everything it decoded (e.g. an array of decoded objects); `inspect`
 * then gets to look at the items (after the measurement, so its own garbage is not counted).
 */
export async function measureRetainedHeap<T>(
  build: () => T[] | Promise<T[]>,
  inspect?: (items: T[]) => void,
): Promise<HeapMeasurement> {
  const before = settledUsage();
  const items = await build();
  const after = settledUsage();
  inspect?.(items);
  return { heapBytes: after.heap - before.heap, externalBytes: after.external - before.external, count: items.length };
}

// ---------------------------------------------------------------- timing

export interface TimingOptions {
  /** Untimed passes before measuring (each on `warmupInput` when given). Default 1. */
  warmups?: number;
  /** Timed passes wanted. Default 5. */
  runs?: number;
  /** Timed passes always taken, even past the budget. Default 3. */
  minRuns?: number;
  /** Stop adding timed passes once this much time (ms) went into timed passes. Default 15 000. */
  budgetMs?: number;
}

export interface Timing {
  /** Median wall time (ms) of the timed passes. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  samplesMs: number[];
  /** What the last timed pass returned (e.g. messages decoded). */
  count: number;
}

/**
 * Times `pass(input)`: `warmups` untimed passes on `warmupInput` (or `input`), then timed passes, each
 * after a full GC so one pass's garbage is not billed to the next. Returns the median.
 */
export async function timePasses<I>(
  pass: (input: I) => number | Promise<number>,
  input: I,
  options: TimingOptions & { warmupInput?: I } = {},
): Promise<Timing> {
  const warmups = options.warmups ?? 1;
  const runs = Math.max(1, options.runs ?? 5);
  const minRuns = Math.min(runs, Math.max(1, options.minRuns ?? 3));
  const budgetMs = options.budgetMs ?? 15_000;
  for (let i = 0; i < warmups; i++) await pass(options.warmupInput ?? input);
  const samplesMs: number[] = [];
  let spent = 0;
  let count = 0;
  while (samplesMs.length < runs && (samplesMs.length < minRuns || spent < budgetMs)) {
    gc();
    const start = performance.now();
    count = await pass(input);
    const elapsed = performance.now() - start;
    samplesMs.push(elapsed);
    spent += elapsed;
  }
  return {
    medianMs: median(samplesMs),
    minMs: Math.min(...samplesMs),
    maxMs: Math.max(...samplesMs),
    samplesMs,
    count,
  };
}

/** One of the cases timed together by `timeInterleaved`. */
export interface InterleavedCase {
  label: string;
  /** Untimed pass (e.g. on a slice of the input) to get the code optimised. */
  warmup: () => unknown;
  /** One timed pass; returns what it counted (e.g. messages decoded). */
  pass: () => number | Promise<number>;
}

export interface InterleavedTiming {
  label: string;
  /** Same shape as `timePasses`; `samplesMs[r]` is round r. */
  timing: Timing;
  error?: Error;
}

/**
 * Times several cases in rounds: every round runs each case once (after a full GC), the order
 * rotating from round to round, so that a machine-wide slowdown (other processes, frequency changes)
 * lands on all cases alike and per-round ratios stay meaningful. Rounds stop at `runs`, or once
 * `minRuns` are done and the timed passes took `budgetMs` in all. A case that throws is dropped
 * from later rounds and reported with its error.
 */
export async function timeInterleaved(
  cases: readonly InterleavedCase[],
  options: TimingOptions = {},
): Promise<InterleavedTiming[]> {
  const runs = Math.max(1, options.runs ?? 5);
  const minRuns = Math.min(runs, Math.max(1, options.minRuns ?? 3));
  const budgetMs = options.budgetMs ?? 30_000;
  const samples = cases.map(() => [] as number[]);
  const counts = cases.map(() => 0);
  const errors: (Error | undefined)[] = cases.map(() => undefined);
  for (let i = 0; i < cases.length; i++) {
    try {
      for (let w = 0; w < (options.warmups ?? 1); w++) await cases[i]!.warmup();
    } catch (error) {
      errors[i] = error as Error;
    }
  }
  let spent = 0;
  for (let round = 0; round < runs && (round < minRuns || spent < budgetMs); round++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (round + k) % cases.length;
      if (errors[i] !== undefined) continue;
      gc();
      const start = performance.now();
      try {
        counts[i] = await cases[i]!.pass();
      } catch (error) {
        errors[i] = error as Error;
        continue;
      }
      const elapsed = performance.now() - start;
      samples[i]!.push(elapsed);
      spent += elapsed;
    }
  }
  return cases.map((entry, i) => {
    const taken = samples[i]!;
    const timing: Timing = {
      medianMs: taken.length > 0 ? median(taken) : Number.NaN,
      minMs: taken.length > 0 ? Math.min(...taken) : Number.NaN,
      maxMs: taken.length > 0 ? Math.max(...taken) : Number.NaN,
      samplesMs: taken,
      count: counts[i]!,
    };
    return errors[i] === undefined ? { label: entry.label, timing } : { label: entry.label, timing, error: errors[i] };
  });
}

/**
 * Median over rounds of `baseline[r] / other[r]` (how many times faster `other` is), from the samples
 * of `timeInterleaved`; steadier than a ratio of medians when the machine's speed drifts.
 */
export function medianRatio(baseline: Timing, other: Timing): number {
  const rounds = Math.min(baseline.samplesMs.length, other.samplesMs.length);
  if (rounds === 0) return Number.NaN;
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) ratios.push(baseline.samplesMs[r]! / other.samplesMs[r]!);
  return median(ratios);
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

// ---------------------------------------------------------------- formatting

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatInt(value: number): string {
  return integer.format(Math.round(value));
}

export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return 'n/a';
  return `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;
}

export function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs >= 1024 * 1024 * 1024) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (abs >= 1024 * 1024) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (abs >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** A plain-text table; columns whose header starts with '>' are right-aligned (the '>' is dropped). */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const right = headers.map((header) => header.startsWith('>'));
  const names = headers.map((header) => (header.startsWith('>') ? header.slice(1) : header));
  const widths = names.map((name, column) => Math.max(name.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (right[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(names), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------- running as a script

/**
 * Entry used by each benchmark module when it is the main script (`node bench/<name>.ts [--flags]`,
 * or spawned by bench/run.ts): runs it, prints the headline, and writes the JSON report to the file
 * named by $LAMIS_BENCH_REPORT when set.
 */
export async function runAsScript(name: string, module: BenchModule): Promise<void> {
  const { flags } = parseArgs(process.argv.slice(2));
  const report = await module.run({ flags });
  const reportFile = process.env[REPORT_FILE_ENV];
  if (reportFile) writeFileSync(reportFile, JSON.stringify(report, null, 2));
  else if (report.headline.length > 0) console.log(`\n${name}:\n  ${report.headline.join('\n  ')}`);
}
