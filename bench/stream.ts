// The AIS stream under load: N WebSocket clients (1,000 and 5,000 by default), each subscribed to a
// random box (updateIntervalSec 1), on a real `lamis serve` that a helper process feeds NMEA over
// TCP at 20,000 sentences a second. The clients connect to a quiet server; the feed then runs while
// they are measured: delivered position updates per second, p50 and p99 latency from ingest (the
// frame's `timestamp`, when LAMIS received the sentence) to the client, the sentences LAMIS actually
// took per second, and its memory. Then, in the same run, the same number of clients get an
// unfiltered broadcast from a bare `ws` server that does nothing else (stamp a position frame of the
// same shape, serialise it once, send it to every socket) at the per-client volume LAMIS delivered:
// the baseline, which the LAMIS figures are ratios to.
//
//   npm run bench -- stream [--clients=1000,5000] [--rate=20k] [--seconds=6] [--vessels=20k]
//   node bench/stream.ts [same flags]
//
// Landing requests (`GET /v3/intelligence/landing`, ten airports in turn) are timed from a helper
// process of their own, one at a time every 20 ms: first on the quiet server, then while each LAMIS
// phase runs; the headline gives their p99 under load as a ratio to the quiet p99 of the same run.
//
// The same file runs the three helper processes: `--feeder` pushes the corpus over TCP at the rate,
// `--broadcaster` is the baseline server, `--prober` times the landing requests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { encodeFrame, positionData, STREAM_PATH } from '../src/maritime/stream/protocol.ts';
import { AisIngest } from '../src/maritime/vessels/ingest.ts';
import { VesselStore, type BBox } from '../src/maritime/vessels/store.ts';
import { fleetCorpusOptions, prepareAisCorpus, readNmeaLines, Rng } from './lib/ais-corpus.ts';
import { freePort, startLamis } from './lib/serve.ts';
import { formatBytes, formatInt, formatRatio, formatTable, intFlag, median, parseArgs, runAsScript } from './lib/harness.ts';
import type { BenchOptions, BenchReport } from './lib/harness.ts';

export const description = 'AIS stream: N clients with random boxes on a 20,000 sentences/s feed vs an unfiltered broadcast of the same volume';

const KEY = 'lamis_bench_stream_0123456789abcdef';
const SELF = fileURLToPath(import.meta.url);
/** Clients connect this many at a time. */
const CONNECT_BATCH = 250;
const POSITION_PREFIX = Buffer.from('{"event":"position"');
const TIMESTAMP_KEY = Buffer.from('"timestamp":"');
/** A server too busy to take a connection within this time fails the run rather than stall it. */
const HANDSHAKE_TIMEOUT_MS = 60_000;
/** Latency samples kept per phase; past it every other one is kept, and so on. */
const MAX_SAMPLES = 1_000_000;

// ---------------------------------------------------------------- helper processes

/** Pushes the corpus lines in a loop at `rate` lines a second, as a receiver feeding a TCP server would. */
async function feeder(flags: Record<string, string | boolean>): Promise<void> {
  const lines = readNmeaLines(String(flags.file));
  const rate = Number(flags.rate);
  const socket = connect(Number(flags.port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = performance.now();
  let sent = 0;
  let next = 0;
  setInterval(() => {
    // At most a tenth of a second's worth at once: a server that fell behind gets no huge burst.
    const due = Math.min(Math.ceil(rate / 10), Math.floor((rate * (performance.now() - started)) / 1000) - sent);
    if (due <= 0 || socket.writableNeedDrain) return;
    const batch: string[] = [];
    for (let i = 0; i < due; i++) batch.push(lines[next++ % lines.length]!);
    socket.write(`${batch.join('\n')}\n`);
    sent += due;
  }, 5);
}

/** The baseline: every client gets every frame; frames of LAMIS's shape, made from the same corpus. */
async function broadcaster(flags: Record<string, string | boolean>): Promise<void> {
  const rate = Number(flags.rate);
  const store = new VesselStore();
  const ingest = new AisIngest(store);
  const frames: NonNullable<ReturnType<typeof positionData>>[] = [];
  ingest.onChange((change) => {
    const data = change.position ? positionData(change.vessel) : null;
    if (data) frames.push({ ...data });
  });
  ingest.lines('bench', 'live', readNmeaLines(String(flags.file)), Date.now());
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const report = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
  report({ port: (wss.address() as { port: number }).port });
  setInterval(() => report({ memory: process.memoryUsage().rss }), 250);
  let started = performance.now();
  let sent = 0;
  let next = 0;
  wss.on('connection', () => {
    // Count from the first client on, so no backlog builds while clients connect.
    if (wss.clients.size === 1) {
      started = performance.now();
      sent = 0;
    }
  });
  setInterval(() => {
    if (wss.clients.size === 0) return;
    const due = Math.floor((rate * (performance.now() - started)) / 1000) - sent;
    for (let i = 0; i < due; i++) {
      const data = frames[next++ % frames.length]!;
      data.timestamp = new Date().toISOString();
      const frame = encodeFrame('position', data);
      for (const client of wss.clients) client.send(frame, { binary: false });
    }
    sent += Math.max(0, due);
  }, 5);
}

const LANDING_AIRPORTS = ['EGLL', 'KJFK', 'LFPG', 'EDDF', 'EHAM', 'KLAX', 'RJTT', 'YSSY', 'OMDB', 'WSSS'];
const PROBE_GAP_MS = 20;

/** Times landing requests one after another (a pause between) for `seconds`; prints their p50, p99 and count. */
async function prober(flags: Record<string, string | boolean>): Promise<void> {
  const url = String(flags.url);
  const until = performance.now() + Number(flags.seconds) * 1000;
  const eta = new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; performance.now() < until; i++) {
    const query = new URLSearchParams({ destination_icao: LANDING_AIRPORTS[i % LANDING_AIRPORTS.length]!, vehicle_type: 'aircraft', eta_utc: eta, registration: 'G-BENCH', aircraft_type: 'A320' });
    const started = performance.now();
    const response = await fetch(`${url}/v3/intelligence/landing?${query}`, { headers: { authorization: `Bearer ${KEY}` } });
    await response.arrayBuffer();
    if (response.ok) times.push(performance.now() - started);
    else failed++;
    await sleep(PROBE_GAP_MS);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]! * 10) / 10;
  process.stdout.write(`${JSON.stringify({ p50: at(50), p99: at(99), count: times.length, failed })}\n`);
}

/** Waits (up to a minute) until the server has taken no feed line for a second: the backlog is done. */
async function settle(url: string): Promise<void> {
  let last = -1;
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const lines = (await lamisMetrics(url)).get('lamis_ais_lines_total') ?? 0;
    if (lines === last) return;
    last = lines;
    await sleep(1000);
  }
}

/** Landing latency from a prober process over `seconds`. */
async function probeLanding(url: string, seconds: number): Promise<{ p50: number; p99: number; count: number }> {
  const probe = startHelper('prober', [`--url=${url}`, `--seconds=${seconds}`]);
  await new Promise((resolve) => probe.process.once('exit', resolve));
  if (!probe.latest.count) throw new Error('the landing prober timed no request');
  if (probe.latest.failed) throw new Error(`${probe.latest.failed} landing requests failed`);
  return { p50: probe.latest.p50!, p99: probe.latest.p99!, count: probe.latest.count };
}

/** Helper processes and the server, stopped with this one however it ends. */
const children = new Set<ChildProcess>();

interface Child {
  process: ChildProcess;
  /** The latest JSON line of each kind the child printed. */
  latest: Record<string, number>;
  stop(): Promise<void>;
}

function startHelper(mode: 'feeder' | 'broadcaster' | 'prober', args: string[]): Child {
  const child = spawn(process.execPath, [SELF, `--${mode}`, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const latest: Record<string, number> = {};
  createInterface({ input: child.stdout! }).on('line', (line) => Object.assign(latest, JSON.parse(line)));
  return {
    process: child,
    latest,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** A `lamis serve` stopped with the benchmark's other processes. */
async function startTrackedLamis(dataDir: string, feedPort: number): Promise<{ child: ChildProcess; url: string }> {
  const lamis = await startLamis(dataDir, feedPort, KEY, { AVIATION_SIMULATORS: 'on' });
  children.add(lamis.child);
  lamis.child.once('exit', () => children.delete(lamis.child));
  return lamis;
}

/** The server's metrics, each summed over its label sets. */
export async function lamisMetrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(30_000) })).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const name = /^[a-z_]+/.exec(line)![0];
    values.set(name, (values.get(name) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return values;
}

// ---------------------------------------------------------------- clients

/** Every client's position frames counted, with their latency from the frame's timestamp. */
export class Receivers {
  frames = 0;
  samples: number[] = [];
  #keepEvery = 1;
  #seen = 0;
  measuring = false;

  onFrame(data: Buffer): void {
    if (!this.measuring || data.compare(POSITION_PREFIX, 0, POSITION_PREFIX.length, 0, POSITION_PREFIX.length) !== 0) return;
    const now = Date.now();
    this.frames++;
    if (++this.#seen % this.#keepEvery !== 0) return;
    const at = data.indexOf(TIMESTAMP_KEY) + TIMESTAMP_KEY.length;
    this.samples.push(now - Date.parse(data.toString('latin1', at, at + 24)));
    if (this.samples.length >= MAX_SAMPLES) {
      this.samples = this.samples.filter((_, i) => i % 2 === 0);
      this.#keepEvery *= 2;
    }
  }

  reset(): void {
    this.frames = 0;
    this.samples = [];
    this.#keepEvery = 1;
    this.#seen = 0;
  }

  percentile(p: number): number {
    if (this.samples.length === 0) return Number.NaN;
    const sorted = Float64Array.from(this.samples).sort();
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  }
}

export async function connectAll(count: number, open: (i: number) => WebSocket, ready: (ws: WebSocket, i: number) => Promise<void>): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let start = 0; start < count; start += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - start) }, (_, j) => {
      const ws = open(start + j);
      sockets.push(ws);
      return ready(ws, start + j);
    });
    await Promise.all(batch);
  }
  return sockets;
}

export async function closeAll(sockets: WebSocket[]): Promise<void> {
  await Promise.all(sockets.map((ws) => new Promise<void>((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve();
    ws.once('close', () => resolve());
    ws.close(1000);
  })));
}

/** Boxes of 0.05° to 0.2° (a port, an anchorage, an approach) centred on random vessels of the corpus, where users look. */
export function randomBoxes(store: VesselStore, count: number, seed: number): BBox[] {
  const positions = [...store.all()].flatMap((vessel) => (vessel.position ? [vessel.position] : []));
  const rng = new Rng(seed);
  return Array.from({ length: count }, () => {
    const { lat, lon } = rng.pick(positions);
    const half = (0.05 + rng.next() * 0.15) / 2;
    let minLon = lon - half;
    let maxLon = lon + half;
    if (minLon < -180) minLon += 360;
    if (maxLon > 180) maxLon -= 360;
    return { minLat: Math.max(-90, lat - half), maxLat: Math.min(90, lat + half), minLon, maxLon };
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface PhaseResult {
  clients: number;
  updatesPerSecond: number;
  p50: number;
  p99: number;
  /** The server process's resident memory at the end of the phase. */
  rss: number;
  /** LAMIS only: landing requests' latency while the phase ran. */
  landing?: { p50: number; p99: number; count: number };
  /** LAMIS only: sentences ingested per second during the phase, positions coalesced per second. */
  feedRate?: number;
  coalescedPerSecond?: number;
  /** LAMIS only: positions merged per second on their way from the ingest thread (absent on servers without it). */
  ingestCoalescedPerSecond?: number;
}

async function measure(receivers: Receivers, seconds: number): Promise<{ updatesPerSecond: number; p50: number; p99: number }> {
  receivers.reset();
  receivers.measuring = true;
  const started = performance.now();
  await sleep(seconds * 1000);
  receivers.measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  return { updatesPerSecond: receivers.frames / elapsed, p50: receivers.percentile(50), p99: receivers.percentile(99) };
}

/** The clients connect and subscribe to a quiet server; then the feed runs while they are measured. */
async function lamisPhase(url: string, boxes: BBox[], seconds: number, startFeed: () => Child): Promise<PhaseResult> {
  const receivers = new Receivers();
  const sockets = await connectAll(boxes.length, () => new WebSocket(`${url.replace('http', 'ws')}${STREAM_PATH}`, { headers: { authorization: `Bearer ${KEY}` }, handshakeTimeout: HANDSHAKE_TIMEOUT_MS }), (ws, i) =>
    new Promise((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        if (data.subarray(0, 22).toString().includes('"subscribed"')) resolve();
        receivers.onFrame(data);
      });
      // The shortest interval: pacing holds back as little as it can, so the latency is the pipeline's.
      ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe', bbox: boxes[i], updateIntervalSec: 1 })));
      ws.once('error', reject);
      ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    }));
  const feed = startFeed();
  await sleep(1500);
  const start = await lamisMetrics(url);
  const startedAt = performance.now();
  const [result, landing] = await Promise.all([measure(receivers, seconds), probeLanding(url, seconds)]);
  const end = await lamisMetrics(url);
  const elapsed = (performance.now() - startedAt) / 1000;
  await feed.stop();
  await closeAll(sockets);
  const delta = (name: string) => (end.get(name)! - start.get(name)!) / elapsed;
  return {
    clients: boxes.length,
    ...result,
    landing,
    rss: end.get('process_resident_memory_bytes')!,
    feedRate: delta('lamis_ais_lines_total'),
    coalescedPerSecond: delta('lamis_stream_updates_coalesced_total'),
    ingestCoalescedPerSecond: delta('lamis_ais_positions_coalesced_total'),
  };
}

async function broadcastPhase(corpusFile: string, clients: number, perClientRate: number, seconds: number): Promise<PhaseResult> {
  const server = startHelper('broadcaster', [`--file=${corpusFile}`, `--rate=${perClientRate}`]);
  try {
    const started = Date.now();
    while (server.latest.memory === undefined || server.latest.port === undefined) {
      if (server.process.exitCode !== null || Date.now() - started > 60_000) throw new Error('the broadcaster did not start');
      await sleep(50);
    }
    const receivers = new Receivers();
    const sockets = await connectAll(clients, () => new WebSocket(`ws://127.0.0.1:${server.latest.port}`, { handshakeTimeout: HANDSHAKE_TIMEOUT_MS }), (ws) =>
      new Promise((resolve, reject) => {
        ws.on('message', (data: Buffer) => receivers.onFrame(data));
        ws.once('open', () => resolve());
        ws.once('error', reject);
      }));
    await sleep(1000);
    const result = await measure(receivers, seconds);
    const rss = server.latest.memory!;
    await closeAll(sockets);
    return { clients, ...result, rss };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------- the benchmark

export async function run(options: BenchOptions): Promise<BenchReport> {
  const clientCounts = String(options.flags.clients ?? '1000,5000').split(',').map((count) => intFlag({ flags: { clients: count } }, 'clients', 0));
  process.once('exit', () => children.forEach((child) => child.kill('SIGTERM')));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const rate = intFlag(options, 'rate', 20_000);
  const seconds = intFlag(options, 'seconds', 6);
  const vessels = intFlag(options, 'vessels', 20_000);

  console.log(`corpus: ${formatInt(vessels)} vessels, about 10 messages each, replayed in a loop at ${formatInt(rate)} sentences/s`);
  const corpus = prepareAisCorpus(fleetCorpusOptions(vessels, 10));
  const store = new VesselStore();
  new AisIngest(store).lines('bench', 'live', corpus.lines, Date.now());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-'));
  const feedPort = await freePort();
  const lamis = await startTrackedLamis(dataDir, feedPort);
  // Once the server has taken all the warm-up sent and its caches for landing are warm, landing's
  // latency on the quiet server: the baseline of the landing ratios.
  await settle(lamis.url);
  await probeLanding(lamis.url, 2);
  const landingIdle = await probeLanding(lamis.url, seconds);
  console.log(`landing on the quiet server: p50 ${landingIdle.p50} ms, p99 ${landingIdle.p99} ms (${formatInt(landingIdle.count)} requests)`);
  const startFeed = () => startHelper('feeder', [`--file=${corpus.file}`, `--port=${feedPort}`, `--rate=${rate}`]);
  const rows: { lamis: PhaseResult; broadcast: PhaseResult; boxVessels: number }[] = [];
  try {
    // Until the whole fleet has reported once.
    const warmUp = startFeed();
    await sleep((corpus.lines.length / rate) * 1000 + 1000);
    await warmUp.stop();
    for (const clients of clientCounts) {
      const boxes = randomBoxes(store, clients, clients);
      const boxVessels = median(boxes.map((box) => [...store.inBox(box)].length));
      console.log(`\n${formatInt(clients)} clients, a box each (median ${formatInt(boxVessels)} vessels of the corpus in a box), ${seconds} s a phase`);
      await settle(lamis.url);
      const lamisResult = await lamisPhase(lamis.url, boxes, seconds, startFeed);
      console.log(`  LAMIS:     ${formatInt(lamisResult.updatesPerSecond)} updates/s, p50 ${lamisResult.p50} ms, p99 ${lamisResult.p99} ms, feed ${formatInt(lamisResult.feedRate!)} sentences/s`);
      console.log(`  landing meanwhile: p50 ${lamisResult.landing!.p50} ms, p99 ${lamisResult.landing!.p99} ms (${formatRatio(lamisResult.landing!.p99 / landingIdle.p99)} the quiet p99)`);
      const perClient = Math.max(0.1, lamisResult.updatesPerSecond / clients);
      const broadcast = await broadcastPhase(corpus.file, clients, perClient, seconds);
      console.log(`  broadcast: ${formatInt(broadcast.updatesPerSecond)} updates/s (${perClient.toFixed(1)} a client), p50 ${broadcast.p50} ms, p99 ${broadcast.p99} ms`);
      rows.push({ lamis: lamisResult, broadcast, boxVessels });
    }
  } finally {
    lamis.child.kill('SIGTERM');
    await new Promise((resolve) => lamis.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    corpus.remove();
  }

  console.log(`\nLAMIS: /v3/stream/ais with a random box per client (updateIntervalSec 1) on a ${formatInt(rate)} sentences/s feed`);
  console.log('broadcast (baseline): a bare ws server sending every client every frame, at the per-client volume LAMIS delivered\n');
  console.log(formatTable(
    ['>clients', 'server', '>feed/s', '>taken', '>updates/s', '>per client/s', '>coalesced/s', '>ingest coalesced/s', '>p50 ms', '>p99 ms', '>landing p99 ms', '>server RSS'],
    rows.flatMap(({ lamis: l, broadcast: b }) => [
      [formatInt(l.clients), 'LAMIS', formatInt(l.feedRate!), formatRatio(l.feedRate! / rate), formatInt(l.updatesPerSecond), (l.updatesPerSecond / l.clients).toFixed(1), formatInt(l.coalescedPerSecond!),
        Number.isNaN(l.ingestCoalescedPerSecond) ? '-' : formatInt(l.ingestCoalescedPerSecond!), String(l.p50), String(l.p99), `${l.landing!.p99} (${formatRatio(l.landing!.p99 / landingIdle.p99)})`, formatBytes(l.rss)],
      [formatInt(b.clients), 'broadcast', '-', '-', formatInt(b.updatesPerSecond), (b.updatesPerSecond / b.clients).toFixed(1), '-', '-', String(b.p50), String(b.p99), '-', formatBytes(b.rss)],
    ]),
  ));
  console.log(`landing on the quiet server: p99 ${landingIdle.p99} ms`);
  const headline = rows.map(({ lamis: l, broadcast: b }) =>
    `${formatInt(l.clients)} clients: ${formatInt(l.updatesPerSecond)} updates/s (${formatRatio(l.updatesPerSecond / b.updatesPerSecond)} broadcast), ` +
    `p50 ${l.p50} ms (${formatRatio(l.p50 / b.p50)}), p99 ${l.p99} ms (${formatRatio(l.p99 / b.p99)}), ` +
    `server RSS ${formatBytes(l.rss)} (${formatRatio(l.rss / b.rss)}, the whole service against a bare broadcaster), feed ${formatInt(l.feedRate!)} sentences/s (${formatRatio(l.feedRate! / rate)} offered), ` +
    `landing p99 ${l.landing!.p99} ms (${formatRatio(l.landing!.p99 / landingIdle.p99)} the quiet ${landingIdle.p99} ms)`);
  return { name: 'stream', headline, data: { landingIdle, rows } };
}

if (import.meta.main) {
  const { flags } = parseArgs(process.argv.slice(2));
  if (flags.feeder) await feeder(flags);
  else if (flags.broadcaster) await broadcaster(flags);
  else if (flags.prober) await prober(flags);
  else await runAsScript('stream', { description, run });
}
