// The bus between two LAMIS processes, on Redis pub/sub (the baseline: the engine LAMIS used first)
// and on NATS: vessel changes as LAMIS publishes them (the real `maritime.vessels` topic, by region,
// messages made by ingesting a generated world fleet), from a publisher process to this one.
//
// - burst: `--burst` changes published as fast as the publisher can; changes a second received.
// - paced: `--rate` changes a second for `--seconds`; latency publish to handler, p50/p99/max.
// - regions: the same pace over the whole world, this process watching only the regions of a few
//   busy sea areas (as an instance whose streams watch them), then all regions: what it receives
//   and the CPU it spends receiving.
//
// The machine is shared, so the engines take turns, round after round (`--rounds`), and each
// figure is the median over the rounds.
//
//   npm run bench -- bus [--burst=50k] [--rate=10k] [--seconds=3] [--vessels=5000] [--rounds=3]
//   LAMIS_BENCH_REDIS_URL (redis://127.0.0.1:6379) and LAMIS_BENCH_NATS_URL (nats://127.0.0.1:4222)
//   name the servers; an engine that cannot be reached is reported as skipped.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openBus, type Bus } from '../src/platform/bus/index.ts';
import { vesselChanges } from '../src/maritime/feature.ts';
import { regionOf, regionsOfBox } from '../src/maritime/regions.ts';
import { AisIngest } from '../src/maritime/vessels/ingest.ts';
import type { PublishedChange } from '../src/maritime/vessels/repeats.ts';
import { VesselStore, type Change } from '../src/maritime/vessels/store.ts';
import { worldFleet } from './lib/world-fleet.ts';
import { formatInt, formatRatio, formatTable, intFlag, median, runAsScript, type BenchOptions, type BenchReport } from './lib/harness.ts';

export const description = 'Bus: vessel changes between two processes on Redis pub/sub vs NATS (throughput, latency, per-region fan-out)';

const SELF = fileURLToPath(import.meta.url);
const REDIS_URL = process.env.LAMIS_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.LAMIS_BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
/** Sea areas streams commonly watch: the North Sea and Channel, the Singapore Strait, the Gulf of Mexico coast. */
const WATCHED_AREAS = [
  { minLat: 49, maxLat: 59, minLon: -5, maxLon: 10 },
  { minLat: 0, maxLat: 3, minLon: 102, maxLon: 106 },
  { minLat: 26, maxLat: 31, minLon: -98, maxLon: -88 },
];

type Engine = 'redis' | 'nats';
type Stamped = PublishedChange & { sent: number };

const clock = () => performance.timeOrigin + performance.now();

function open(engine: Engine, prefix: string): Promise<Bus> {
  const settings = engine === 'nats' ? { redisUrl: undefined, natsUrl: NATS_URL } : { redisUrl: REDIS_URL };
  return openBus(settings, (error) => console.error(error), prefix);
}

/** Position changes of a world fleet, as LAMIS's ingest makes them from its NMEA. */
function fleetChanges(vessels: number): Change[] {
  const fleet = worldFleet(vessels);
  const ingest = new AisIngest(new VesselStore());
  const changes: Change[] = [];
  ingest.onChange((change) => {
    if (change.position) changes.push(structuredClone(change));
  });
  ingest.lines('bench', 'replay', fleet.lines, fleet.at);
  return changes;
}

// ---------------------------------------------------------------- the publisher process

async function publisher(flags: Record<string, string | boolean>): Promise<void> {
  const changes = JSON.parse(readFileSync(String(flags.changes), 'utf8')) as Change[];
  const bus = await open(flags.engine as Engine, String(flags.prefix));
  const count = Number(flags.count);
  const rate = Number(flags.rate);
  const publish = (i: number) => bus.publish(vesselChanges, { ...changes[i % changes.length]!, reader: 'bench', sent: clock() } as Stamped);
  console.log('ready');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  if (rate === 0) {
    for (let i = 0; i < count; i += 1000) {
      const batch: Promise<void>[] = [];
      for (let j = i; j < Math.min(count, i + 1000); j++) batch.push(publish(j));
      await Promise.all(batch);
    }
  } else {
    // Every 10 ms what is due by then, as a feed's reads arrive.
    const started = performance.now();
    let sent = 0;
    while (sent < count) {
      const due = Math.min(count, Math.floor((rate * (performance.now() - started)) / 1000));
      const batch: Promise<void>[] = [];
      for (; sent < due; sent++) batch.push(publish(sent));
      await Promise.all(batch);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  await bus.close();
  console.log('done');
}

// ---------------------------------------------------------------- this process: the subscriber

interface Received {
  count: number;
  first: number;
  last: number;
  latencies: number[];
}

/** Runs a publisher process for one phase while `bus` receives; resolves when it is done and `expected` arrived (or 5 s passed). */
async function phase(engine: Engine, prefix: string, changesFile: string, count: number, rate: number, received: Received, expected: number): Promise<void> {
  const child = spawn(process.execPath, [SELF, '--publisher', `--engine=${engine}`, `--prefix=${prefix}`, `--changes=${changesFile}`, `--count=${count}`, `--rate=${rate}`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
  if ((await next()) !== 'ready') throw new Error('the publisher did not start');
  const done = next();
  child.stdin!.write('go\n');
  await done;
  const deadline = Date.now() + 5000;
  while (received.count < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  child.stdin!.end();
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
}

function receiver(): { received: Received; handler: (change: Change) => void } {
  const received: Received = { count: 0, first: 0, last: 0, latencies: [] };
  return {
    received,
    handler(change) {
      const now = clock();
      if (received.count === 0) received.first = now;
      received.last = now;
      received.count++;
      received.latencies.push(now - (change as Stamped).sent);
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

interface EngineResult {
  engine: Engine;
  burst: { sent: number; received: number; perSecond: number };
  paced: { sent: number; received: number; p50: number; p99: number; max: number };
  regions: { watched: { received: number; cpuMs: number }; all: { received: number; cpuMs: number }; sent: number; expected: number };
}

async function measureEngine(engine: Engine, changes: Change[], changesFile: string, options: { burst: number; rate: number; seconds: number }): Promise<EngineResult> {
  const prefix = `lamis_bench_${randomBytes(4).toString('hex')}:`;
  const bus = await open(engine, prefix);
  try {
    // Burst.
    const burst = receiver();
    const whole = await bus.subscribe(vesselChanges, burst.handler);
    await phase(engine, prefix, changesFile, options.burst, 0, burst.received, options.burst);
    const burstSeconds = (burst.received.last - burst.received.first) / 1000;

    // Paced.
    const paced = receiver();
    await whole();
    const pacedWhole = await bus.subscribe(vesselChanges, paced.handler);
    const pacedCount = options.rate * options.seconds;
    await phase(engine, prefix, changesFile, pacedCount, options.rate, paced.received, pacedCount);
    await pacedWhole();

    // Regions: the watched sea areas, then everything, at the same pace.
    const regions = new Set(WATCHED_AREAS.flatMap(regionsOfBox));
    let expected = 0;
    for (let i = 0; i < pacedCount; i++) if (regions.has(regionOf(changes[i % changes.length]!))) expected++;
    const results: { received: number; cpuMs: number }[] = [];
    for (const parts of [regions, 'all'] as const) {
      const counted = receiver();
      const subscription = await bus.subscribeParts(vesselChanges, counted.handler);
      await subscription.watch(parts);
      const cpu = process.cpuUsage();
      await phase(engine, prefix, changesFile, pacedCount, options.rate, counted.received, parts === 'all' ? pacedCount : expected);
      const used = process.cpuUsage(cpu);
      results.push({ received: counted.received.count, cpuMs: (used.user + used.system) / 1000 });
      await subscription.close();
    }
    return {
      engine,
      burst: { sent: options.burst, received: burst.received.count, perSecond: burst.received.count / burstSeconds },
      paced: {
        sent: pacedCount, received: paced.received.count,
        p50: percentile(paced.received.latencies, 50), p99: percentile(paced.received.latencies, 99), max: Math.max(...paced.received.latencies),
      },
      regions: { watched: results[0]!, all: results[1]!, sent: pacedCount, expected },
    };
  } finally {
    await bus.close();
  }
}

/** Each figure the median over the rounds. */
function medianResult(rounds: EngineResult[]): EngineResult {
  const m = (pick: (r: EngineResult) => number) => median(rounds.map(pick));
  const first = rounds[0]!;
  return {
    engine: first.engine,
    burst: { sent: first.burst.sent, received: m((r) => r.burst.received), perSecond: m((r) => r.burst.perSecond) },
    paced: { sent: first.paced.sent, received: m((r) => r.paced.received), p50: m((r) => r.paced.p50), p99: m((r) => r.paced.p99), max: m((r) => r.paced.max) },
    regions: {
      sent: first.regions.sent, expected: first.regions.expected,
      watched: { received: m((r) => r.regions.watched.received), cpuMs: m((r) => r.regions.watched.cpuMs) },
      all: { received: m((r) => r.regions.all.received), cpuMs: m((r) => r.regions.all.cpuMs) },
    },
  };
}

async function reachable(engine: Engine): Promise<string | null> {
  try {
    const bus = await Promise.race([
      open(engine, 'lamis_bench_probe:'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 3 s')), 3000).unref()),
    ]);
    const health = await bus.check();
    await bus.close();
    return health.state === 'up' ? null : String(health.detail?.error);
  } catch (error) {
    return (error as Error).message;
  }
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const burst = intFlag(options, 'burst', 50_000);
  const rate = intFlag(options, 'rate', 10_000);
  const seconds = intFlag(options, 'seconds', 3);
  const vessels = intFlag(options, 'vessels', 5000);
  const rounds = intFlag(options, 'rounds', 3);
  const changes = fleetChanges(vessels);
  const dir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-bus-'));
  const changesFile = path.join(dir, 'changes.json');
  writeFileSync(changesFile, JSON.stringify(changes));
  const size = median(changes.map((change) => JSON.stringify(change).length));
  console.log(`${formatInt(changes.length)} position changes of ${formatInt(vessels)} vessels, median ${size} bytes of JSON`);

  const engines: Engine[] = [];
  const skipped: string[] = [];
  for (const engine of ['redis', 'nats'] as const) {
    const problem = await reachable(engine);
    if (problem) skipped.push(`${engine}: skipped (${problem})`);
    else engines.push(engine);
  }
  const byEngine = new Map<Engine, EngineResult[]>(engines.map((engine) => [engine, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? engines : [...engines].reverse();
      for (const engine of order) {
        console.log(`round ${round + 1}: ${engine}`);
        byEngine.get(engine)!.push(await measureEngine(engine, changes, changesFile, { burst, rate, seconds }));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const results = engines.map((engine) => medianResult(byEngine.get(engine)!));

  const ms = (value: number) => value.toFixed(2);
  console.log('\n' + formatTable(
    ['engine', '>burst sent', '>received', '>changes/s', `>paced ${formatInt(rate)}/s received`, '>p50 ms', '>p99 ms', '>max ms'],
    results.map((r) => [r.engine, formatInt(r.burst.sent), formatInt(r.burst.received), formatInt(r.burst.perSecond),
      `${formatInt(r.paced.received)} / ${formatInt(r.paced.sent)}`, ms(r.paced.p50), ms(r.paced.p99), ms(r.paced.max)]),
  ));
  console.log('\n' + formatTable(
    ['engine', 'watching', '>received', '>of', '>subscriber CPU ms'],
    results.flatMap((r) => [
      [r.engine, `${WATCHED_AREAS.length} sea areas`, formatInt(r.regions.watched.received), formatInt(r.regions.expected), formatInt(r.regions.watched.cpuMs)],
      [r.engine, 'all regions', formatInt(r.regions.all.received), formatInt(r.regions.sent), formatInt(r.regions.all.cpuMs)],
    ]),
  ));
  const headline = results.map((r) => `${r.engine}: ${formatInt(r.burst.perSecond)} changes/s, p99 ${ms(r.paced.p99)} ms at ${formatInt(rate)}/s; ` +
    `regions: ${formatInt(r.regions.watched.received)} of ${formatInt(r.regions.sent)} received, CPU ${formatRatio(r.regions.all.cpuMs / Math.max(1, r.regions.watched.cpuMs))} less than all`);
  const redis = results.find((r) => r.engine === 'redis');
  const nats = results.find((r) => r.engine === 'nats');
  if (redis && nats) {
    headline.push(`NATS vs Redis: throughput ${formatRatio(nats.burst.perSecond / redis.burst.perSecond)}, p99 ${formatRatio(redis.paced.p99 / nats.paced.p99)} lower`);
  }
  return { name: 'bus', headline: [...headline, ...skipped], data: { rate, seconds, burst, vessels, rounds, results, perRound: Object.fromEntries(byEngine), skipped } };
}

if (import.meta.main) {
  const flags = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string]));
  if ('publisher' in flags) await publisher(flags);
  else await runAsScript('bus', { description, run });
}
