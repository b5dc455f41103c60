// Scaling out: two `lamis serve` processes on one PostgreSQL, the bus on NATS (and Redis for the
// rate budgets and stream slots), the AIS feed read by the first only. N clients with random boxes
// (updateIntervalSec 1) are split between the two; client i on the second has the same box as
// client i on the first. The baseline, in the same run: the first instance alone serving N/2 of
// them. Measured: delivered position updates a second and p99 latency from ingest, per instance,
// against the baseline; then the feed stops, and each pair of clients must hold the same latest
// position of every vessel it saw (an update lost between the instances shows as a difference).
//
//   npm run bench -- scale [--clients=600] [--rate=3k] [--seconds=6] [--vessels=10k]
//   LAMIS_BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test), LAMIS_BENCH_NATS_URL
//   (nats://127.0.0.1:4222) and LAMIS_BENCH_REDIS_URL (redis://127.0.0.1:6379) name the servers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { STREAM_PATH } from '../src/maritime/stream/protocol.ts';
import { AisIngest } from '../src/maritime/vessels/ingest.ts';
import { VesselStore, type BBox } from '../src/maritime/vessels/store.ts';
import { fleetCorpusOptions, prepareAisCorpus } from './lib/ais-corpus.ts';
import { formatInt, formatRatio, formatTable, intFlag, runAsScript, type BenchOptions, type BenchReport } from './lib/harness.ts';
import { freePort, startLamis } from './lib/serve.ts';
import { Receivers, closeAll, connectAll, randomBoxes } from './stream.ts';

export const description = 'Scale out: two instances on PostgreSQL and NATS, the feed read by one, clients split between both, vs one instance serving half';

const KEY = 'lamis_bench_scale_0123456789abcdef';
const DATABASE_URL = process.env.LAMIS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const NATS_URL = process.env.LAMIS_BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.LAMIS_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const STREAM_BENCH = fileURLToPath(new URL('./stream.ts', import.meta.url));
const HANDSHAKE_TIMEOUT_MS = 60_000;
const MMSI = /"mmsi":(\d+)/;
const TIMESTAMP = /"timestamp":"([^"]+)"/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/** The AIS bench's feeder: the corpus over TCP at `rate` lines a second. */
function startFeed(file: string, port: number, rate: number): ChildProcess {
  return track(spawn(process.execPath, [STREAM_BENCH, '--feeder', `--file=${file}`, `--port=${port}`, `--rate=${rate}`], { stdio: 'ignore' }));
}

/** Clients of one instance: counted and timed as the stream bench does, and each one's latest timestamp per vessel kept. */
interface Clients {
  receivers: Receivers;
  latest: Map<number, string>[];
  sockets: WebSocket[];
}

async function connectClients(url: string, boxes: BBox[]): Promise<Clients> {
  const receivers = new Receivers();
  const latest = boxes.map(() => new Map<number, string>());
  const sockets = await connectAll(boxes.length, () => new WebSocket(`${url.replace('http', 'ws')}${STREAM_PATH}`, { headers: { authorization: `Bearer ${KEY}` }, handshakeTimeout: HANDSHAKE_TIMEOUT_MS }), (ws, i) =>
    new Promise((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        const head = data.toString('latin1', 0, 40);
        if (head.includes('"subscribed"')) resolve();
        if (!head.includes('"position"')) return;
        receivers.onFrame(data);
        const text = data.toString('latin1');
        latest[i]!.set(Number(MMSI.exec(text)![1]), TIMESTAMP.exec(text)![1]!);
      });
      ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe', bbox: boxes[i], updateIntervalSec: 1 })));
      ws.once('error', reject);
      ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    }));
  return { receivers, latest, sockets };
}

interface Measured {
  updatesPerSecond: number;
  p50: number;
  p99: number;
}

async function measure(sides: Clients[], seconds: number): Promise<Measured[]> {
  for (const side of sides) {
    side.receivers.reset();
    side.receivers.measuring = true;
  }
  const started = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  return sides.map((side) => {
    side.receivers.measuring = false;
    return { updatesPerSecond: side.receivers.frames / elapsed, p50: side.receivers.percentile(50), p99: side.receivers.percentile(99) };
  });
}

/** Resolves once no client got a position for 2 s (at most a minute); the seconds that took. */
async function quiet(sides: Clients[]): Promise<number> {
  const started = performance.now();
  for (const side of sides) {
    side.receivers.reset();
    side.receivers.measuring = true;
  }
  const count = () => sides.reduce((sum, side) => sum + side.receivers.frames, 0);
  let last = -1;
  while (count() !== last && performance.now() - started < 60_000) {
    last = count();
    await sleep(2000);
  }
  for (const side of sides) side.receivers.measuring = false;
  return (performance.now() - started) / 1000;
}

/**
 * Pairs whose latest position of some vessel differs, and those differences; pairs with a client
 * the server closed (a slow consumer, 4503) are counted apart, as their updates stopped on purpose.
 */
function compare(first: Clients, second: Clients): { pairs: number; closed: number; vessels: number; differing: number; differingPairs: number } {
  let vessels = 0;
  let differing = 0;
  let differingPairs = 0;
  let closed = 0;
  first.latest.forEach((mine, i) => {
    if (first.sockets[i]!.readyState !== WebSocket.OPEN || second.sockets[i]!.readyState !== WebSocket.OPEN) {
      closed++;
      return;
    }
    const theirs = second.latest[i]!;
    let differs = 0;
    for (const mmsi of new Set([...mine.keys(), ...theirs.keys()])) {
      vessels++;
      if (mine.get(mmsi) !== theirs.get(mmsi)) differs++;
    }
    differing += differs;
    if (differs > 0) differingPairs++;
  });
  return { pairs: first.latest.length - closed, closed, vessels, differing, differingPairs };
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  process.once('exit', () => children.forEach((child) => child.kill('SIGTERM')));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const clients = intFlag(options, 'clients', 600);
  const rate = intFlag(options, 'rate', 3_000);
  const seconds = intFlag(options, 'seconds', 6);
  const vessels = intFlag(options, 'vessels', 10_000);
  const half = Math.floor(clients / 2);

  console.log(`corpus: ${formatInt(vessels)} vessels, about 10 messages each, replayed in a loop at ${formatInt(rate)} sentences/s; ${formatInt(clients)} clients`);
  const corpus = prepareAisCorpus(fleetCorpusOptions(vessels, 10));
  const store = new VesselStore();
  new AisIngest(store).lines('bench', 'live', corpus.lines, Date.now());
  const boxes = randomBoxes(store, half, half);

  const schema = `lamis_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const databaseUrl = new URL(DATABASE_URL);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  const env = {
    DATABASE_URL: databaseUrl.toString(), NATS_URL, REDIS_URL,
    // Instances on one storage seal with one key.
    LAMIS_MASTER_KEY: randomBytes(32).toString('hex'),
  };
  const dirs = [mkdtempSync(path.join(tmpdir(), 'lamis-bench-')), mkdtempSync(path.join(tmpdir(), 'lamis-bench-'))];
  const feedPort = await freePort();
  let feed: ChildProcess | null = null;
  try {
    const first = await startLamis(dirs[0]!, feedPort, KEY, env);
    track(first.child);
    const second = await startLamis(dirs[1]!, null, KEY, env);
    track(second.child);

    // Until the whole fleet has reported once.
    feed = startFeed(corpus.file, feedPort, rate);
    await sleep((corpus.lines.length / rate) * 1000 + 1000);
    await stop(feed);

    console.log(`\nbaseline: the reading instance alone, ${formatInt(half)} clients`);
    const alone = await connectClients(first.url, boxes);
    feed = startFeed(corpus.file, feedPort, rate);
    await sleep(1500);
    const [baseline] = await measure([alone], seconds);
    await stop(feed);
    await closeAll(alone.sockets);
    console.log(`  ${formatInt(baseline!.updatesPerSecond)} updates/s, p50 ${baseline!.p50} ms, p99 ${baseline!.p99} ms`);

    console.log(`\ntwo instances, ${formatInt(half)} clients on each (the same boxes)`);
    const onFirst = await connectClients(first.url, boxes);
    const onSecond = await connectClients(second.url, boxes);
    feed = startFeed(corpus.file, feedPort, rate);
    await sleep(1500);
    const [reading, serving] = await measure([onFirst, onSecond], seconds);
    await stop(feed);
    // What was fed reaches both before the clients' latest positions are compared.
    const drained = await quiet([onFirst, onSecond]);
    const completeness = compare(onFirst, onSecond);
    await closeAll([...onFirst.sockets, ...onSecond.sockets]);
    await Promise.all([stop(first.child), stop(second.child)]);

    const rows = [
      ['one instance (baseline)', formatInt(half), formatInt(baseline!.updatesPerSecond), String(baseline!.p50), String(baseline!.p99), '1.00×', '1.00×'],
      ...([['two: the reading one', reading!], ['two: the other one', serving!]] as const).map(([name, m]) => [
        name, formatInt(half), formatInt(m.updatesPerSecond), String(m.p50), String(m.p99),
        formatRatio(m.updatesPerSecond / baseline!.updatesPerSecond), formatRatio(m.p99 / baseline!.p99),
      ]),
    ];
    console.log('\n' + formatTable(['instance', '>clients', '>updates/s', '>p50 ms', '>p99 ms', '>volume vs baseline', '>p99 vs baseline'], rows));
    console.log(`\ncompleteness, ${drained.toFixed(1)} s after the feed stopped: ${formatInt(completeness.pairs)} pairs of clients (${completeness.closed} left out: a client closed as a slow consumer), ${formatInt(completeness.vessels)} vessels seen, ` +
      `${formatInt(completeness.differing)} latest positions differing (in ${formatInt(completeness.differingPairs)} pairs)`);
    const headline = [
      `other instance: ${formatRatio(serving!.updatesPerSecond / baseline!.updatesPerSecond)} the baseline's updates/s, p99 ${serving!.p99} ms (${formatRatio(serving!.p99 / baseline!.p99)})`,
      `reading instance: ${formatRatio(reading!.updatesPerSecond / baseline!.updatesPerSecond)} the baseline's updates/s, p99 ${reading!.p99} ms (${formatRatio(reading!.p99 / baseline!.p99)})`,
      `completeness: ${formatInt(completeness.differing)} of ${formatInt(completeness.vessels)} latest positions differ between paired clients`,
    ];
    return { name: 'scale', headline, data: { clients, rate, seconds, vessels, baseline, reading, serving, completeness, drainedSeconds: drained } };
  } finally {
    if (feed) await stop(feed);
    await Promise.all([...children].map(stop));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    corpus.remove();
    await admin.query(`drop schema ${schema} cascade`).catch(() => {});
    await admin.end();
  }
}

if (import.meta.main) await runAsScript('scale', { description, run });
