// The AIS stream under load: N WebSocket clients (1,000, 5,000 and 10,000 by default), each subscribed to a
// random box (updateIntervalSec 1), on a real `lamis serve` that a helper process feeds NMEA over
// TCP at 20,000 sentences a second. The clients connect to a quiet server; the feed then runs while
// they are measured: delivered position updates per second, p50 and p99 latency from ingest (the
// frame's `timestamp`, when LAMIS received the sentence) to the client, the sentences LAMIS actually
// took per second, its CPU time and its memory. Then, in the same run, the same number of clients get an
// unfiltered broadcast from a bare `ws` server that does nothing else (stamp a position frame of the
// same shape, serialise it once, send it to every socket) at the per-client volume LAMIS delivered:
// the baseline, which the LAMIS figures are ratios to.
//
// The clients live in their own processes (`--client-processes`, one per 2,500 clients by default),
// apart from the server, so the server's process does nothing but serve; `--server-cpus` and
// `--client-cpus` pin the server (LAMIS, then the broadcaster) and the clients, feeder and prober to
// separate cores with `taskset`.
//
// Landing requests (`GET /v3/intelligence/landing`, ten airports in turn) are timed from a helper
// process of their own, one at a time every 20 ms: first on the quiet server, then while each LAMIS
// phase runs; the headline gives their p99 under load as a ratio to the quiet p99 of the same run.
//
// Runs minutes apart differ a good deal on a shared 2-core machine: `--repeat=N` runs both phases N
// times per client count, and the headline gives the medians over the runs, with the range of the
// p99 and landing ratios.
//
//   npm run bench -- stream [--clients=1000,5000,10000] [--rate=20k] [--seconds=6] [--vessels=20k]
//     [--repeat=1] [--client-processes=N] [--server-cpus=0] [--client-cpus=1]
//   node bench/stream.ts [same flags]
//
// The same file runs the helper processes: `--feeder` pushes the corpus over TCP at the rate,
// `--broadcaster` is the baseline server, `--client-process` holds a share of the clients, `--prober`
// times the landing requests.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { encodeFrame, positionData, STREAM_PATH } from '../src/maritime/stream/protocol.ts';
import { AisIngest } from '../src/maritime/vessels/ingest.ts';
import { VesselStore, type BBox } from '../src/maritime/vessels/store.ts';
import { fleetCorpusOptions, prepareAisCorpus, readNmeaLines, Rng } from './lib/ais-corpus.ts';
import { busyShare, freePort, machineCpuTicks, processTreeResident, processTreeCpuSeconds, processTreeThreadCpu, spawnNode, startLamis } from './lib/serve.ts';
import { formatBytes, formatInt, formatRatio, formatTable, intFlag, mean, measureRetainedHeap, median, parseArgs, runAsScript } from './lib/harness.ts';
import type { BenchOptions, BenchReport } from './lib/harness.ts';

export const description = 'AIS stream: N clients with random boxes on a 20,000 sentences/s feed vs an unfiltered broadcast of the same volume';

const KEY = 'lamis_bench_stream_0123456789abcdef';
const SELF = fileURLToPath(import.meta.url);
/** Clients connect this many at a time, per client process. */
const CONNECT_BATCH = 250;
/** Clients per client process, unless `--client-processes` says. */
const CLIENTS_PER_PROCESS = 2_500;
const POSITION_PREFIX = Buffer.from('{"event":"position"');
const TIMESTAMP_KEY = Buffer.from('"timestamp":"');
/** A server too busy to take a connection within this time fails the run rather than stall it. */
const HANDSHAKE_TIMEOUT_MS = 60_000;
/** The memory target: the whole service within this times a bare broadcaster's resident memory, plus the vessel store's own size. */
const MEMORY_TARGET_FACTOR = 1.3;

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
  // The service's backlog (src/server.ts): at 10,000 clients Node's 511 overflowed, and a client
  // whose connection waited for its SYN to be sent again could time out.
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', backlog: 4096 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const report = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
  report({ port: (wss.address() as { port: number }).port });
  setInterval(() => {
    const cpu = process.cpuUsage();
    report({ cpuSeconds: (cpu.user + cpu.system) / 1e6 });
  }, 250);
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

/** Helper processes and the server, stopped with this one however it ends. */
const children = new Set<ChildProcess>();

interface Child {
  process: ChildProcess;
  /** The latest JSON line of each kind the child printed. */
  latest: Record<string, number>;
  /** Every JSON line the child printed, for `next`. */
  lines: Record<string, unknown>[];
  stop(): Promise<void>;
}

function startHelper(mode: 'feeder' | 'broadcaster' | 'client-process' | 'prober', args: string[], cpus: string | undefined): Child {
  const child = spawnNode([SELF, `--${mode}`, ...args], cpus, { stdio: ['pipe', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const latest: Record<string, number> = {};
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    lines.push(message);
    for (const [key, value] of Object.entries(message)) if (typeof value === 'number') latest[key] = value;
  });
  return {
    process: child,
    latest,
    lines,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Waits for the child's first line (from `from` on) holding `key`. */
async function next(child: Child, key: string, from: number): Promise<Record<string, unknown>> {
  for (;;) {
    const found = child.lines.slice(from).find((line) => key in line);
    if (found) return found;
    if (child.process.exitCode !== null) throw new Error(`a helper process exited with ${child.process.exitCode}`);
    await sleep(20);
  }
}

/** A `lamis serve` stopped with the benchmark's other processes. */
async function startTrackedLamis(dataDir: string, feedPort: number, cpus: string | undefined): Promise<{ child: ChildProcess; url: string }> {
  // The aviation simulators give landing its weather and notices to answer from.
  const lamis = await startLamis(dataDir, feedPort, KEY, { env: { AVIATION_SIMULATORS: 'on' }, cpus });
  children.add(lamis.child);
  lamis.child.once('exit', () => children.delete(lamis.child));
  return lamis;
}

/** The server's metrics, each summed over its label sets. */
async function lamisMetrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(30_000) })).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const name = /^[a-z_]+/.exec(line)![0];
    values.set(name, (values.get(name) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return values;
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

interface Landing {
  p50: number;
  p99: number;
  count: number;
}

/** Landing latency from a prober process over `seconds`, on the clients' CPUs when they are pinned. */
async function probeLanding(url: string, seconds: number, cpus: string | undefined): Promise<Landing> {
  const probe = startHelper('prober', [`--url=${url}`, `--seconds=${seconds}`], cpus);
  await new Promise((resolve) => probe.process.once('exit', resolve));
  if (!probe.latest.count) throw new Error('the landing prober timed no request');
  if (probe.latest.failed) throw new Error(`${probe.latest.failed} landing requests failed`);
  return { p50: probe.latest.p50!, p99: probe.latest.p99!, count: probe.latest.count };
}

// ---------------------------------------------------------------- clients

/** Position frames counted, with their latency from the frame's timestamp in whole milliseconds. */
export class Receivers {
  frames = 0;
  /** Frames by latency in ms. */
  latencies = new Map<number, number>();
  measuring = false;

  onFrame(data: Buffer): void {
    if (!this.measuring || data.compare(POSITION_PREFIX, 0, POSITION_PREFIX.length, 0, POSITION_PREFIX.length) !== 0) return;
    const now = Date.now();
    this.frames++;
    const at = data.indexOf(TIMESTAMP_KEY) + TIMESTAMP_KEY.length;
    const latency = now - Date.parse(data.toString('latin1', at, at + 24));
    this.latencies.set(latency, (this.latencies.get(latency) ?? 0) + 1);
  }

  reset(): void {
    this.frames = 0;
    this.latencies = new Map();
  }
}

/** The latency at percentile `p` of the client processes' histograms together. */
export function percentile(histograms: readonly [number, number][][], p: number): number {
  const counts = new Map<number, number>();
  for (const histogram of histograms) for (const [latency, count] of histogram) counts.set(latency, (counts.get(latency) ?? 0) + count);
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return Number.NaN;
  let seen = 0;
  for (const latency of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(latency)!;
    if (seen > (p / 100) * total) return latency;
  }
  return Math.max(...counts.keys());
}

interface ConnectCommand {
  url: string;
  /** LAMIS: the operator key and a box each; the broadcaster takes neither. */
  key?: string;
  boxes?: BBox[];
  count: number;
}

/**
 * A share of the clients, in a process of its own. Commands come as JSON lines on stdin
 * (`connect`, `measure`, `report`, `close`), and each is answered with a JSON line on stdout.
 */
async function clientProcess(): Promise<void> {
  const receivers = new Receivers();
  let sockets: WebSocket[] = [];
  const answer = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as { connect?: ConnectCommand; measure?: boolean; report?: boolean; close?: boolean };
    if (command.connect) {
      sockets = await connectAll(command.connect, receivers);
      answer({ connected: sockets.length });
    } else if (command.measure) {
      receivers.reset();
      receivers.measuring = true;
      answer({ measuring: true });
    } else if (command.report) {
      receivers.measuring = false;
      answer({ frames: receivers.frames, latencies: [...receivers.latencies] });
    } else if (command.close) {
      await closeAll(sockets);
      answer({ closed: true });
    }
  }
}

async function connectAll({ url, key, boxes, count }: ConnectCommand, receivers: Receivers): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  const open = (i: number) => new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, handshakeTimeout: HANDSHAKE_TIMEOUT_MS });
    sockets.push(ws);
    ws.on('message', (data: Buffer) => {
      if (boxes && data.subarray(0, 22).toString().includes('"subscribed"')) resolve();
      receivers.onFrame(data);
    });
    // The shortest interval: pacing holds back as little as it can, so the latency is the pipeline's.
    ws.once('open', () => (boxes ? ws.send(JSON.stringify({ type: 'subscribe', bbox: boxes[i], updateIntervalSec: 1 })) : resolve()));
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
  });
  for (let start = 0; start < count; start += CONNECT_BATCH) {
    await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - start) }, (_, j) => open(start + j)));
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

/** The client processes of one phase, each holding its share of the clients. */
class ClientFleet {
  readonly #processes: Child[];

  constructor(processes: number, cpus: string | undefined) {
    this.#processes = Array.from({ length: processes }, () => startHelper('client-process', [], cpus));
  }

  async #all(command: object, key: string): Promise<Record<string, unknown>[]> {
    const from = this.#processes.map((child) => child.lines.length);
    for (const child of this.#processes) child.process.stdin!.write(`${JSON.stringify(command)}\n`);
    return Promise.all(this.#processes.map((child, i) => next(child, key, from[i]!)));
  }

  /** Connects `count` clients, spread over the processes; with `boxes`, one subscription each. */
  async connect(url: string, count: number, key?: string, boxes?: BBox[]): Promise<void> {
    const from = this.#processes.map((child) => child.lines.length);
    this.#processes.forEach((child, i) => {
      const share = Math.floor((count * (i + 1)) / this.#processes.length) - Math.floor((count * i) / this.#processes.length);
      const offset = Math.floor((count * i) / this.#processes.length);
      const connect: ConnectCommand = { url, count: share, ...(key && boxes ? { key, boxes: boxes.slice(offset, offset + share) } : {}) };
      child.process.stdin!.write(`${JSON.stringify({ connect })}\n`);
    });
    await Promise.all(this.#processes.map((child, i) => next(child, 'connected', from[i]!)));
  }

  /** Counts what every client receives for `seconds`. */
  async measure(seconds: number): Promise<{ updatesPerSecond: number; p50: number; p99: number }> {
    await this.#all({ measure: true }, 'measuring');
    const started = performance.now();
    await sleep(seconds * 1000);
    const reports = await this.#all({ report: true }, 'frames');
    const elapsed = (performance.now() - started) / 1000;
    const frames = reports.reduce((sum, report) => sum + (report.frames as number), 0);
    const histograms = reports.map((report) => report.latencies as [number, number][]);
    return { updatesPerSecond: frames / elapsed, p50: percentile(histograms, 50), p99: percentile(histograms, 99) };
  }

  async close(): Promise<void> {
    await this.#all({ close: true }, 'closed');
    await Promise.all(this.#processes.map((child) => child.stop()));
  }
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

/**
 * How often a phase samples the server's resident memory. A point would fall anywhere on the saw of
 * a garbage-collected heap (LAMIS's serving heap swings by 100 MB under the feed), so the phase
 * gives the mean of the samples, and their peak.
 */
const MEMORY_SAMPLE_MS = 500;

/**
 * Samples the resident memory of the process tree `pid` every MEMORY_SAMPLE_MS until `measured`
 * settles: its result, with the samples' mean and peak, each page counted once, and the mean of the
 * processes' RSS summed.
 */
async function sampleMemory<T>(measured: Promise<T>, pid: number): Promise<T & { memory: number; memoryPeak: number; rssSummed: number }> {
  const samples: number[] = [];
  const summed: number[] = [];
  const sample = () => {
    const resident = processTreeResident(pid);
    if (!resident.framesRead && !warnedFramesUnread) {
      warnedFramesUnread = true;
      console.log('  (page frame numbers are readable by root only: pages the server\'s processes share count once in each)');
    }
    samples.push(resident.bytes);
    summed.push(resident.rssSummed);
  };
  sample();
  const timer = setInterval(sample, MEMORY_SAMPLE_MS);
  try {
    const result = await measured;
    sample();
    return { ...result, memory: mean(samples), memoryPeak: Math.max(...samples), rssSummed: mean(summed) };
  } finally {
    clearInterval(timer);
  }
}

let warnedFramesUnread = false;

/** How busy the machine's cores were during a phase: near 100 %, every process waits for a core and latency grows. */
const busy = (phase: PhaseResult) => `${Math.round(100 * phase.machineBusy)} %`;

interface PhaseResult {
  clients: number;
  updatesPerSecond: number;
  p50: number;
  p99: number;
  /**
   * The server's resident memory, the mean of samples taken every MEMORY_SAMPLE_MS while the phase
   * is measured (LAMIS: with its stream processes), a page its processes share counted once.
   */
  memory: number;
  /** The largest of those samples. */
  memoryPeak: number;
  /** The mean of the same samples' RSS summed over the server's processes (a shared page once in each). */
  rssSummed: number;
  /** The server's CPU time (user and system) per second of the phase: cores it kept busy (LAMIS: with its stream processes). */
  cpu: number;
  /** The share of the machine's CPU that was busy during the phase: the server, the clients, the feeder and the prober together. */
  machineBusy: number;
  /** LAMIS only: landing requests' latency while the phase ran. */
  landing?: Landing;
  /** LAMIS only: sentences ingested per second during the phase, positions coalesced per second. */
  feedRate?: number;
  coalescedPerSecond?: number;
  /** LAMIS only: positions merged per second on their way from the ingest thread and to the stream processes (NaN on a server without an ingest thread). */
  hopCoalescedPerSecond?: number;
  /** LAMIS only: where its memory was at the end of the phase, from its own metrics. */
  memoryParts?: string;
  /** LAMIS only: the cores each kind of thread kept busy, by process script and thread name. */
  cpuParts?: string;
}

interface Layout {
  clientProcesses: (clients: number) => number;
  serverCpus: string | undefined;
  clientCpus: string | undefined;
}

/** The clients connect and subscribe while the server is quiet; then the feed runs while they are measured. */
async function lamisPhase(lamis: { url: string; child: ChildProcess }, boxes: BBox[], seconds: number, layout: Layout, startFeed: () => Child): Promise<PhaseResult> {
  const { url } = lamis;
  const fleet = new ClientFleet(layout.clientProcesses(boxes.length), layout.clientCpus);
  try {
    await fleet.connect(`${url.replace('http', 'ws')}${STREAM_PATH}`, boxes.length, KEY, boxes);
    const feed = startFeed();
    await sleep(1500);
    const start = await lamisMetrics(url);
    const cpuBefore = processTreeCpuSeconds(lamis.child.pid!);
    const threadsBefore = processTreeThreadCpu(lamis.child.pid!);
    const machineBefore = machineCpuTicks();
    const startedAt = performance.now();
    const measured = Promise.all([fleet.measure(seconds), probeLanding(url, seconds, layout.clientCpus)]).then(([result, landing]) => ({ result, landing }));
    const { result, landing, memory, memoryPeak, rssSummed } = await sampleMemory(measured, lamis.child.pid!);
    const machineBusy = busyShare(machineBefore, machineCpuTicks());
    const end = await lamisMetrics(url);
    const cpuAfter = processTreeCpuSeconds(lamis.child.pid!);
    const threads = processTreeThreadCpu(lamis.child.pid!);
    const elapsed = (performance.now() - startedAt) / 1000;
    await feed.stop();
    const delta = (name: string) => (end.get(name)! - start.get(name)!) / elapsed;
    return {
      clients: boxes.length,
      ...result,
      landing,
      memory,
      memoryPeak,
      rssSummed,
      cpu: (cpuAfter - cpuBefore) / elapsed,
      machineBusy,
      feedRate: delta('lamis_ais_lines_total'),
      coalescedPerSecond: delta('lamis_stream_updates_coalesced_total'),
      hopCoalescedPerSecond: delta('lamis_ais_positions_coalesced_total') + (end.has('lamis_stream_process_positions_coalesced_total') ? delta('lamis_stream_process_positions_coalesced_total') : 0),
      memoryParts: memoryParts(end),
      cpuParts: [...threads].map(([thread, seconds]) => [thread, (seconds - (threadsBefore.get(thread) ?? 0)) / elapsed] as const)
        .filter(([, cores]) => cores >= 0.005).sort((a, b) => b[1] - a[1]).map(([thread, cores]) => `${thread} ${cores.toFixed(2)}`).join(', '),
    };
  } finally {
    await fleet.close();
  }
}

/** The service process (its serving and ingest threads' heaps, used of held) and its stream processes. */
function memoryParts(metrics: Map<string, number>): string {
  const mib = (name: string) => formatBytes(metrics.get(name) ?? 0);
  return `service process ${mib('process_resident_memory_bytes')} (serving heap ${mib('nodejs_heap_size_used_bytes')} of ${mib('nodejs_heap_size_total_bytes')}, ` +
    `ingest heap ${mib('lamis_ais_ingest_heap_size_used_bytes')} of ${mib('lamis_ais_ingest_heap_size_total_bytes')}), stream processes ${mib('lamis_stream_processes_resident_bytes')}`;
}

async function broadcastPhase(corpusFile: string, clients: number, perClientRate: number, seconds: number, layout: Layout): Promise<PhaseResult> {
  const server = startHelper('broadcaster', [`--file=${corpusFile}`, `--rate=${perClientRate}`], layout.serverCpus);
  const fleet = new ClientFleet(layout.clientProcesses(clients), layout.clientCpus);
  try {
    const started = Date.now();
    while (server.latest.cpuSeconds === undefined || server.latest.port === undefined) {
      if (server.process.exitCode !== null || Date.now() - started > 60_000) throw new Error('the broadcaster did not start');
      await sleep(50);
    }
    await fleet.connect(`ws://127.0.0.1:${server.latest.port}`, clients);
    await sleep(1000);
    const cpuBefore = server.latest.cpuSeconds!;
    const machineBefore = machineCpuTicks();
    const startedAt = performance.now();
    const { memory, memoryPeak, rssSummed, ...result } = await sampleMemory(fleet.measure(seconds), server.process.pid!);
    const machineBusy = busyShare(machineBefore, machineCpuTicks());
    // Wait for a report from after the phase.
    await sleep(300);
    const cpu = (server.latest.cpuSeconds! - cpuBefore) / ((performance.now() - startedAt) / 1000);
    return { clients, ...result, memory, memoryPeak, rssSummed, cpu, machineBusy };
  } finally {
    await fleet.close();
    await server.stop();
  }
}

// ---------------------------------------------------------------- the benchmark

export async function run(options: BenchOptions): Promise<BenchReport> {
  const clientCounts = String(options.flags.clients ?? '1000,5000,10000').split(',').map((count) => intFlag({ flags: { clients: count } }, 'clients', 0));
  process.once('exit', () => children.forEach((child) => child.kill('SIGTERM')));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const rate = intFlag(options, 'rate', 20_000);
  const seconds = intFlag(options, 'seconds', 6);
  const vessels = intFlag(options, 'vessels', 20_000);
  const repeats = Math.max(1, intFlag(options, 'repeat', 1));
  const cpus = (name: string) => (typeof options.flags[name] === 'string' ? String(options.flags[name]) : undefined);
  const fixedProcesses = options.flags['client-processes'] === undefined ? null : intFlag(options, 'client-processes', 1);
  const layout: Layout = {
    clientProcesses: (clients) => fixedProcesses ?? Math.max(1, Math.ceil(clients / CLIENTS_PER_PROCESS)),
    serverCpus: cpus('server-cpus'),
    clientCpus: cpus('client-cpus'),
  };
  const split = layout.serverCpus || layout.clientCpus
    ? `the server on CPU ${layout.serverCpus ?? 'any'}, the clients, the feeder and the landing prober on CPU ${layout.clientCpus ?? 'any'} (taskset)`
    : 'no pinning: the processes share them as the system schedules them';
  const cores = `${availableParallelism()} cores; the server (LAMIS, then the broadcaster) in its own process, the clients in ` +
    `${clientCounts.map((clients) => layout.clientProcesses(clients)).join('/')} processes of their own, the feeder and the landing prober in two more; ${split}`;
  console.log(`corpus: ${formatInt(vessels)} vessels, about 10 messages each, replayed in a loop at ${formatInt(rate)} sentences/s`);
  console.log(`cores: ${cores}`);
  const corpus = prepareAisCorpus(fleetCorpusOptions(vessels, 10));
  // The corpus's vessel store, measured as `ais-memory` measures one: the memory target allows the service one.
  let store!: VesselStore;
  const storeHeap = await measureRetainedHeap(() => {
    store = new VesselStore();
    new AisIngest(store).lines('bench', 'live', corpus.lines, Date.now());
    return [store];
  });
  const storeBytes = storeHeap.heapBytes + storeHeap.externalBytes;
  console.log(`vessel store of the corpus: ${formatBytes(storeBytes)}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-'));
  const feedPort = await freePort();
  const lamis = await startTrackedLamis(dataDir, feedPort, layout.serverCpus);
  const startFeed = () => startHelper('feeder', [`--file=${corpus.file}`, `--port=${feedPort}`, `--rate=${rate}`], layout.clientCpus);
  /** `broadcast` is null when its phase failed (a broadcaster too starved to take its clients): that run has no baseline. */
  const rows: { lamis: PhaseResult; broadcast: PhaseResult | null; boxVessels: number }[] = [];
  let landingIdle: Landing;
  try {
    // Until the whole fleet has reported once.
    const warmUp = startFeed();
    await sleep((corpus.lines.length / rate) * 1000 + 1000);
    await warmUp.stop();
    // Once the server has taken all the warm-up sent and landing's caches are warm, landing's
    // latency on the quiet server: the baseline of the landing ratios.
    await settle(lamis.url);
    await probeLanding(lamis.url, 2, layout.clientCpus);
    landingIdle = await probeLanding(lamis.url, seconds, layout.clientCpus);
    console.log(`landing on the quiet server: p50 ${landingIdle.p50} ms, p99 ${landingIdle.p99} ms (${formatInt(landingIdle.count)} requests)`);
    for (const clients of clientCounts) for (let run = 1; run <= repeats; run++) {
      const boxes = randomBoxes(store, clients, clients);
      const boxVessels = median(boxes.map((box) => [...store.inBox(box)].length));
      console.log(`\n${formatInt(clients)} clients, a box each (median ${formatInt(boxVessels)} vessels of the corpus in a box), ${seconds} s a phase${repeats > 1 ? `, run ${run} of ${repeats}` : ''}`);
      await settle(lamis.url);
      const lamisResult = await lamisPhase(lamis, boxes, seconds, layout, startFeed);
      console.log(`  LAMIS:     ${formatInt(lamisResult.updatesPerSecond)} updates/s, p50 ${lamisResult.p50} ms, p99 ${lamisResult.p99} ms, feed ${formatInt(lamisResult.feedRate!)} sentences/s, CPU ${lamisResult.cpu.toFixed(2)}, memory ${formatBytes(lamisResult.memory)} (peak ${formatBytes(lamisResult.memoryPeak)}; its processes' RSS summed ${formatBytes(lamisResult.rssSummed)}), the machine ${busy(lamisResult)} busy`);
      console.log(`  at the end: ${lamisResult.memoryParts}`);
      console.log(`  cores by thread: ${lamisResult.cpuParts}`);
      console.log(`  landing meanwhile: p50 ${lamisResult.landing!.p50} ms, p99 ${lamisResult.landing!.p99} ms (${formatRatio(lamisResult.landing!.p99 / landingIdle.p99)} the quiet p99)`);
      const perClient = Math.max(0.1, lamisResult.updatesPerSecond / clients);
      let broadcast: PhaseResult | null = null;
      try {
        broadcast = await broadcastPhase(corpus.file, clients, perClient, seconds, layout);
        console.log(`  broadcast: ${formatInt(broadcast.updatesPerSecond)} updates/s (${perClient.toFixed(1)} a client), p50 ${broadcast.p50} ms, p99 ${broadcast.p99} ms, CPU ${broadcast.cpu.toFixed(2)}, memory ${formatBytes(broadcast.memory)} (peak ${formatBytes(broadcast.memoryPeak)}; RSS ${formatBytes(broadcast.rssSummed)}), the machine ${busy(broadcast)} busy`);
      } catch (error) {
        console.log(`  broadcast: failed (${(error as Error).message}); this run has no baseline`);
      }
      rows.push({ lamis: lamisResult, broadcast, boxVessels });
    }
  } finally {
    lamis.child.kill('SIGTERM');
    await new Promise((resolve) => lamis.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    corpus.remove();
  }

  console.log(`\nLAMIS: /v3/stream/ais with a random box per client (updateIntervalSec 1) on a ${formatInt(rate)} sentences/s feed`);
  console.log('broadcast (baseline): a bare ws server sending every client every frame, at the per-client volume LAMIS delivered');
  console.log(`cores: ${cores}\n`);
  console.log(formatTable(
    ['>clients', 'server', '>feed/s', '>taken', '>updates/s', '>per client/s', '>coalesced/s', '>on the way coalesced/s', '>p50 ms', '>p99 ms', '>landing p99 ms', '>server CPU', '>CPU µs/update', '>server memory (mean)', '>machine busy'],
    rows.flatMap(({ lamis: l, broadcast: b }) => [
      [formatInt(l.clients), 'LAMIS', formatInt(l.feedRate!), formatRatio(l.feedRate! / rate), formatInt(l.updatesPerSecond), (l.updatesPerSecond / l.clients).toFixed(1), formatInt(l.coalescedPerSecond!),
        Number.isNaN(l.hopCoalescedPerSecond) ? '-' : formatInt(l.hopCoalescedPerSecond!), String(l.p50), String(l.p99), `${l.landing!.p99} (${formatRatio(l.landing!.p99 / landingIdle.p99)})`,
        l.cpu.toFixed(2), (1e6 * l.cpu / l.updatesPerSecond).toFixed(1), formatBytes(l.memory), busy(l)],
      b === null
        ? [formatInt(l.clients), 'broadcast', '-', '-', 'failed', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-']
        : [formatInt(b.clients), 'broadcast', '-', '-', formatInt(b.updatesPerSecond), (b.updatesPerSecond / b.clients).toFixed(1), '-', '-', String(b.p50), String(b.p99), '-',
          b.cpu.toFixed(2), (1e6 * b.cpu / b.updatesPerSecond).toFixed(1), formatBytes(b.memory), busy(b)],
    ]),
  ));
  console.log(`landing on the quiet server: p99 ${landingIdle.p99} ms`);
  // Per client count, the median over its runs of each figure (a single run's figures when there is
  // one); the ratios to the broadcaster over the runs that have one.
  type Run = { lamis: PhaseResult; broadcast: PhaseResult };
  const memoryTarget = (broadcast: PhaseResult) => MEMORY_TARGET_FACTOR * broadcast.memory + storeBytes;
  const headline = clientCounts.map((clients) => {
    const all = rows.filter((row) => row.lamis.clients === clients);
    const runs = all.filter((row): row is Run & { boxVessels: number } => row.broadcast !== null);
    const of = (figure: (row: Run) => number) => median(runs.map(figure));
    const ofLamis = (figure: (lamis: PhaseResult) => number) => median(all.map((row) => figure(row.lamis)));
    // A median of an even count is a mean of two: tenths are enough.
    const msOfLamis = (figure: (lamis: PhaseResult) => number) => Math.round(ofLamis(figure) * 10) / 10;
    const range = (figure: (row: Run) => number) =>
      (runs.length > 1 ? `, ${formatRatio(Math.min(...runs.map(figure)))} to ${formatRatio(Math.max(...runs.map(figure)))} over ${runs.length} runs` : '');
    const p99Ratio = ({ lamis: l, broadcast: b }: Run) => l.p99 / b.p99;
    const landingRatio = (l: PhaseResult) => l.landing!.p99 / landingIdle.p99;
    const landingRange = all.length > 1
      ? `, ${formatRatio(Math.min(...all.map((row) => landingRatio(row.lamis))))} to ${formatRatio(Math.max(...all.map((row) => landingRatio(row.lamis))))} over ${all.length} runs`
      : '';
    return `${formatInt(clients)} clients${all.length > 1 ? ` (medians of ${all.length} runs${runs.length < all.length ? `, ${all.length - runs.length} without a baseline` : ''})` : ''}: ` +
      `feed ${formatInt(ofLamis((l) => l.feedRate!))} sentences/s (${formatRatio(ofLamis((l) => l.feedRate! / rate))} offered), ` +
      `${formatInt(ofLamis((l) => l.updatesPerSecond))} updates/s (${formatRatio(of(({ lamis: l, broadcast: b }) => l.updatesPerSecond / b.updatesPerSecond))} broadcast), ` +
      `p50 ${msOfLamis((l) => l.p50)} ms (${formatRatio(of(({ lamis: l, broadcast: b }) => l.p50 / b.p50))}), ` +
      `p99 ${msOfLamis((l) => l.p99)} ms (${formatRatio(of(p99Ratio))}${range(p99Ratio)}), ` +
      `server CPU ${ofLamis((l) => 1e6 * l.cpu / l.updatesPerSecond).toFixed(1)} µs an update (${formatRatio(of(({ lamis: l, broadcast: b }) => (l.cpu / l.updatesPerSecond) / (b.cpu / b.updatesPerSecond)))}), ` +
      `server memory ${formatBytes(ofLamis((l) => l.memory))} (${formatRatio(of(({ lamis: l, broadcast: b }) => l.memory / b.memory))}, the whole service against a bare broadcaster; ` +
      `${formatRatio(of(({ lamis: l, broadcast: b }) => l.memory / memoryTarget(b)))} the target of ${formatBytes(of(({ broadcast: b }) => memoryTarget(b)))}, ` +
      `${MEMORY_TARGET_FACTOR}× the broadcaster plus the ${formatBytes(storeBytes)} vessel store), ` +
      `the machine ${Math.round(100 * ofLamis((l) => l.machineBusy))} % busy (${Math.round(100 * of(({ broadcast: b }) => b.machineBusy))} % with the broadcaster), ` +
      `landing p99 ${msOfLamis((l) => l.landing!.p99)} ms (${formatRatio(ofLamis(landingRatio))} the quiet ${landingIdle.p99} ms${landingRange})`;
  });
  return { name: 'stream', headline, data: { cores, landingIdle, storeBytes, rows } };
}

if (import.meta.main) {
  const { flags } = parseArgs(process.argv.slice(2));
  if (flags.feeder) await feeder(flags);
  else if (flags.broadcaster) await broadcaster(flags);
  else if (flags['client-process']) await clientProcess();
  else if (flags.prober) await prober(flags);
  else await runAsScript('stream', { description, run });
}
