// The AIS stream's write path alone, without ingest: what a delivered frame costs the server's CPU
// when each one is handed to `ws.send` (a header made and two socket writes per frame and socket,
// the socket corked for the turn: LAMIS's way up to now), against frames made once as complete
// WebSocket frames and written with one write per socket per turn (`FrameWriter`). A server in
// this process sends position-shaped frames to N clients held by a client process of
// `bench/stream.ts`, each update to a few random clients, at a per-client rate like the stream
// benchmark's; the two ways alternate in rounds. Server CPU time per delivered frame, measured on
// the server's own process, does not depend on how busy the rest of the machine is the way
// throughput and latency do.
//
//   npm run bench -- stream-writes [--clients=5000] [--rounds=3] [--seconds=4] [--per-client=8]
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { WebSocketServer, type WebSocket } from 'ws';
import { FrameWriter, textFrame } from '../src/platform/stream/index.ts';
import { formatInt, formatRatio, formatTable, intFlag, median, runAsScript } from './lib/harness.ts';
import type { BenchOptions, BenchReport } from './lib/harness.ts';

export const description = 'AIS stream writes: CPU per delivered frame, ws.send per frame vs frames made once and one write per socket per turn';

const CLIENTS_SCRIPT = fileURLToPath(new URL('./stream.ts', import.meta.url));
const TICK_MS = 5;
/** Updates made per second; each goes to as many random clients as the per-client rate asks. */
const UPDATES_PER_SECOND = 4_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Way = 'ws.send per frame' | 'made once, one write per turn';
const WAYS: Way[] = ['ws.send per frame', 'made once, one write per turn'];

interface Connection {
  ws: WebSocket;
  socket: Duplex;
  writer: FrameWriter;
  corked: boolean;
}

function positionText(mmsi: number): string {
  return JSON.stringify({
    event: 'position',
    data: {
      mmsi, name: `VESSEL ${mmsi}`, lat: 51.9 + (mmsi % 100) / 1000, lon: 4.05, imo: null, sog: 12.3, cog: 271.5, heading: 270,
      nav_status: 0, vessel_type: 'CARGO', flag: 'NL', timestamp: new Date().toISOString(), source: 'live',
    },
  });
}

/** Sends one update to its recipients the given way. */
function deliver(way: Way, text: string, recipients: Connection[]): void {
  if (way === 'made once, one write per turn') {
    const frame = textFrame(text);
    for (const connection of recipients) connection.writer.write(frame);
    return;
  }
  const payload = Buffer.from(text);
  for (const connection of recipients) {
    if (!connection.corked) {
      connection.corked = true;
      connection.socket.cork();
      process.nextTick(() => {
        connection.corked = false;
        connection.socket.uncork();
      });
    }
    connection.ws.send(payload, { binary: false });
  }
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const clients = intFlag(options, 'clients', 5_000);
  const rounds = intFlag(options, 'rounds', 3);
  const seconds = intFlag(options, 'seconds', 4);
  const perClient = intFlag(options, 'per-client', 8);
  const recipientsPerUpdate = Math.max(1, Math.round((clients * perClient) / UPDATES_PER_SECOND));

  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const connections: Connection[] = [];
  wss.on('connection', (ws, request) => {
    connections.push({ ws, socket: request.socket, writer: new FrameWriter(ws, request.socket, 16 * 1024), corked: false });
  });
  const child = spawn(process.execPath, [CLIENTS_SCRIPT, '--client-process'], { stdio: ['pipe', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGTERM'));
  const answers: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => answers.push(JSON.parse(line) as Record<string, unknown>));
  const ask = async (command: object, key: string) => {
    const from = answers.length;
    child.stdin.write(`${JSON.stringify(command)}\n`);
    for (;;) {
      const answer = answers.slice(from).find((a) => key in a);
      if (answer) return answer;
      if (child.exitCode !== null) throw new Error('the client process exited');
      await sleep(20);
    }
  };
  await ask({ connect: { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, count: clients } }, 'connected');
  console.log(`${formatInt(clients)} clients in a process of their own; ${formatInt(UPDATES_PER_SECOND)} updates/s, each to ${recipientsPerUpdate} random clients (${perClient} a client a second)`);

  let way: Way = WAYS[0]!;
  let sent = 0;
  let mmsi = 200_000_000;
  let started = performance.now();
  let made = 0;
  const ticker = setInterval(() => {
    const due = Math.floor((UPDATES_PER_SECOND * (performance.now() - started)) / 1000) - made;
    for (let i = 0; i < due; i++) {
      const recipients = Array.from({ length: recipientsPerUpdate }, () => connections[Math.floor(Math.random() * connections.length)]!);
      deliver(way, positionText(mmsi++), recipients);
      sent += recipients.length;
    }
    made += Math.max(0, due);
  }, TICK_MS);

  const results = new Map<Way, { cpuPerFrame: number[]; p99: number[]; delivered: number[] }>(WAYS.map((w) => [w, { cpuPerFrame: [], p99: [], delivered: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const next of round % 2 === 0 ? WAYS : [...WAYS].reverse()) {
      way = next;
      started = performance.now();
      made = 0;
      await sleep(1000);
      await ask({ measure: true }, 'measuring');
      const sentBefore = sent;
      const cpuBefore = process.cpuUsage();
      const from = performance.now();
      await sleep(seconds * 1000);
      const cpu = process.cpuUsage(cpuBefore);
      const elapsed = (performance.now() - from) / 1000;
      const report = await ask({ report: true }, 'frames');
      const frames = sent - sentBefore;
      const latencies = (report.latencies as [number, number][]).sort((a, b) => a[0] - b[0]);
      const total = latencies.reduce((sum, [, count]) => sum + count, 0);
      let seen = 0;
      const p99 = latencies.find(([, count]) => (seen += count) > 0.99 * total)?.[0] ?? Number.NaN;
      const result = results.get(way)!;
      result.cpuPerFrame.push((cpu.user + cpu.system) / frames);
      result.p99.push(p99);
      result.delivered.push((report.frames as number) / elapsed);
      console.log(`  round ${round + 1}, ${way}: ${((cpu.user + cpu.system) / frames).toFixed(2)} µs CPU a frame, ${formatInt((report.frames as number) / elapsed)} frames/s received, p99 ${p99} ms`);
    }
  }
  clearInterval(ticker);
  await ask({ close: true }, 'closed');
  child.kill('SIGTERM');
  await new Promise<void>((resolve) => wss.close(() => resolve()));

  const baseline = median(results.get(WAYS[0]!)!.cpuPerFrame);
  console.log(`\n${formatInt(clients)} clients, medians of ${rounds} rounds:\n`);
  console.log(formatTable(['way', '>server CPU µs a frame', '>vs ws.send', '>frames/s received', '>p99 ms'], WAYS.map((w) => {
    const r = results.get(w)!;
    return [w, median(r.cpuPerFrame).toFixed(2), formatRatio(baseline / median(r.cpuPerFrame)), formatInt(median(r.delivered)), String(median(r.p99))];
  })));
  const ours = median(results.get(WAYS[1]!)!.cpuPerFrame);
  return {
    name: 'stream-writes',
    headline: [`${formatInt(clients)} clients: ${ours.toFixed(2)} µs server CPU a frame made once and written once per turn, against ${baseline.toFixed(2)} µs with ws.send per frame (${formatRatio(baseline / ours)} less)`],
    data: Object.fromEntries(results),
  };
}

if (import.meta.main) await runAsScript('stream-writes', { description, run });
