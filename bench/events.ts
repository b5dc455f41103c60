// The vessel rules under AIS load, with 50,000 fleet vessels (spread over 10 organisations) and
// 1,000 zones (100 each, a fifth of them also watching other cargo ships and tankers):
//
// 1. Throughput, in process: the ais-ingest corpus through AisIngest into a VesselStore, each change
//    published on an in-process bus as the maritime feature publishes it, heard by a subscriber
//    that does nothing (the baseline: the service always has one, the AIS stream) or by the
//    vessel rules, their events written to SQLite. Each case keeps its
//    store and rules warm from a first pass (the first sighting of every vessel inside a zone is
//    an entry), so the timed passes measure the steady state: every change looked up, few edges.
//    Timed in interleaved rounds; the ratio is the median over rounds of the baseline's time over
//    the case's.
// 2. Latency, on a real `lamis serve` fed NMEA over TCP at 20,000 sentences/s (the corpus's first
//    part in a loop, once through before measuring): a fleet vessel is sent in and out of a zone of
//    its own by uploads (POST /v3/maritime/ais/nmea), and the time from sending its sentence to the
//    `alert` frame on /v3/stream/events is taken, p50 and p99; with the sentences/s the server
//    actually took meanwhile.
//
//   npm run bench -- events [--vessels=60k] [--fleet=50k] [--zones=1000] [--runs=5] [--rate=20k] [--probes=30]
//   node bench/events.ts [same flags]
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { defaultConfig } from '../src/config.ts';
import { eventChanges } from '../src/events/index.ts';
import type { FleetVessel } from '../src/fleet/index.ts';
import { VesselRules } from '../src/intelligence/vessel-rules.ts';
import { vesselChanges, type VesselChange } from '../src/maritime/index.ts';
import { applyChangeBatch, PendingChanges, readCopy } from '../src/maritime/vessels/changes.ts';
import { vesselsAndPortsWatch } from '../src/maritime/watch.fixtures.ts';
import { loadPorts } from '../src/maritime/ports/ports.ts';
import { positionReport, sentences } from '../src/maritime/vessels/fixtures.ts';
import { AisIngest } from '../src/maritime/vessels/ingest.ts';
import { VesselStore } from '../src/maritime/vessels/store.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import { createMemoryBus } from '../src/platform/bus/memory.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { configuredKeys } from '../src/platform/http/auth.ts';
import { ZoneStore, type OwnedZone, type ZoneGeometry } from '../src/zones/index.ts';
import { fleetCorpusOptions, prepareAisCorpus, Rng } from './lib/ais-corpus.ts';
import { freePort, startLamis } from './lib/serve.ts';
import { formatInt, formatRatio, formatTable, intFlag, median, medianRatio, runAsScript, timeInterleaved } from './lib/harness.ts';
import type { BenchOptions, BenchReport, InterleavedCase } from './lib/harness.ts';

export const description = 'Vessel rules: AIS ingest with 50,000 fleet vessels and 1,000 zones vs ingest alone, and NMEA-to-alert latency at 20,000 sentences/s';

const KEY = 'lamis_bench_events_0123456789abcdef';
const OWNERS = 10;
const FEED = 'bench';
const RECEIVED_AT = Date.UTC(2025, 6, 1, 8, 0, 0);
const MS_PER_LINE = 3;
const BATCH_LINES = 500;
/** The latency probe: a fleet vessel of its own, and a zone where the corpus sails nowhere. */
const PROBE_MMSI = 244_999_001;
const PROBE_ZONE = { lat: -60, lon: -150 };
const PROBE_OUTSIDE = { lat: -59.9, lon: -150 };
/** A probe whose alert has not come by then counts as missed. */
const PROBE_TIMEOUT_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line = '') => console.log(line);
const indent = (text: string) => text.split('\n').map((line) => `  ${line}`).join('\n');

interface Batch {
  lines: string[];
  receivedAt: number;
}

interface World {
  fleet: FleetVessel[];
  zones: OwnedZone[];
}

/** Fleets and zones over the corpus's vessels: zones centred on random vessels, so vessels sit in them. */
function worldOf(store: VesselStore, fleetSize: number, zoneCount: number, seed: number): World {
  const vessels = [...store.all()].filter((vessel) => vessel.position !== null);
  const rng = new Rng(seed);
  const fleet = vessels.slice(0, fleetSize).map((vessel, i) => ({ owner: `org_bench_${i % OWNERS}`, vehicle_id: `veh_bench_${i}`, mmsi: vessel.mmsi }));
  const now = new Date(RECEIVED_AT).toISOString();
  const zones = Array.from({ length: zoneCount }, (_, i): OwnedZone => {
    const { lat, lon } = rng.pick(vessels).position!;
    const radius = 0.5 + rng.next() * 9.5;
    const geometry: ZoneGeometry = i % 2 === 0
      ? { type: 'Circle', center: { lat, lon }, radius_nm: radius }
      : { type: 'Polygon', coordinates: [[[lon - 0.1, lat - 0.1], [lon + 0.1, lat - 0.1], [lon + 0.1, lat + 0.1], [lon - 0.1, lat + 0.1], [lon - 0.1, lat - 0.1]]] };
    return {
      id: `zon_bench_${i}`, owner: `org_bench_${i % OWNERS}`, name: `Zone ${i}`, description: null, geometry,
      applies_to: i % 5 === 0 ? { fleet: true, categories: ['CARGO', 'TANKER'] } : { fleet: true }, created_at: now, updated_at: now,
    };
  });
  return { fleet, zones };
}

/** A store fed as the maritime feature feeds it, each change published on an in-process bus; with `rules`, the vessel rules hear them. */
async function ingestCase(world: World | null) {
  // The ingest side's store, and the read copy its change batches keep, whose changes go on the bus.
  const ingested = new VesselStore();
  const store = new VesselStore();
  const copy = readCopy(store);
  const bus = createMemoryBus((error) => {
    throw error;
  });
  const ingest = new AisIngest(ingested);
  // Applied after every read, as a serving thread that keeps up does: nothing coalesces.
  const pending = new PendingChanges(Number.POSITIVE_INFINITY);
  ingest.onChange((change: VesselChange) => pending.add(change));
  const publish = (change: VesselChange) => void bus.publish(vesselChanges, { ...change, reader: 'bench' });
  // The service always has a subscriber (the AIS stream): the baseline pays the bus's delivery too.
  if (world === null) await bus.subscribe(vesselChanges, () => {});
  let rules: VesselRules | null = null;
  let cleanup = async () => {};
  let eventsChanged = 0;
  const byKind = new Map<string, number>();
  await bus.subscribe(eventChanges, ({ event }) => {
    eventsChanged++;
    byKind.set(event.kind, (byKind.get(event.kind) ?? 0) + 1);
  });
  if (world !== null) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-events-'));
    const database = openDatabase(defaultConfig({ dataDir }));
    await migrate(database.db, database.dialect, MIGRATIONS);
    const watch = vesselsAndPortsWatch(store, await loadPorts({ dataDir }));
    rules = new VesselRules({
      database,
      bus,
      fleet: { fleetVessels: async () => world.fleet, get: async () => null },
      zones: { all: async () => world.zones, get: async () => null },
      watch,
      onError: (error) => {
        throw error;
      },
    });
    await rules.start(RECEIVED_AT);
    const subscribed = rules;
    await bus.subscribe(vesselChanges, (change) => subscribed.observe(change));
    cleanup = async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  let lastReceivedAt = 0;
  return {
    rules,
    cleanup,
    /** Event changes (opened, updated, cleared) stored so far. */
    eventsChanged: () => eventsChanged,
    /** Those changes by event kind. */
    byKind: () => new Map(byKind),
    /** The receive time of the latest batch. */
    lastReceivedAt: () => lastReceivedAt,
    /** One part of the corpus; resolves once every change was handled and stored. */
    async feed(batches: readonly Batch[]): Promise<number> {
      for (const batch of batches) {
        ingest.lines(FEED, 'live', batch.lines, (lastReceivedAt = batch.receivedAt));
        while (pending.size > 0) applyChangeBatch(copy, pending.take(2_000), publish);
      }
      await new Promise((resolve) => setImmediate(resolve));
      await rules?.settled();
      return ingest.feedCounts(FEED, 'live').messages;
    },
  };
}

// ---------------------------------------------------------------- latency on a real server

/** The fleets and zones in the server's storage before it starts; the probe's vessel and zone are the operator key's, whose stream hears them. */
async function seed(dataDir: string, world: World): Promise<void> {
  const check = await configuredKeys([KEY], 'production')(KEY);
  if (!check.ok) throw new Error('the bench key is not accepted');
  const owner = check.principal.key_id;
  const database = openDatabase(defaultConfig({ dataDir }));
  try {
    await migrate(database.db, database.dialect, MIGRATIONS);
    const now = new Date().toISOString();
    const rows = [...world.fleet, { owner, vehicle_id: 'veh_bench_probe', mmsi: PROBE_MMSI }].map((vessel) => ({
      id: vessel.vehicle_id, org_id: vessel.owner, vehicle_type: 'vessel', registration_sealed: null, registration_index: null,
      icao_type: null, home_base_icao: null, operational_regions: '[]', mmsi: vessel.mmsi, imo: null, crosswind_limit_kt: null, min_runway_m: null,
      idempotency_key: null, idempotency_fingerprint: null, created_at: now, updated_at: now,
    }));
    for (let start = 0; start < rows.length; start += 500) await database.db.insertInto('fleet_vehicles').values(rows.slice(start, start + 500)).execute();
    const zones = new ZoneStore(database);
    for (const zone of world.zones) await zones.create(zone.owner, zone);
    await zones.create(owner, { name: 'Probe', geometry: { type: 'Circle', center: PROBE_ZONE, radius_nm: 2 } });
  } finally {
    await database.close();
  }
}

async function linesTaken(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) if (line.startsWith('lamis_ais_lines_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

/** Writes the corpus in a loop at `rate` lines a second, at most a tenth of a second's worth at once. */
function feedAt(socket: Socket, lines: readonly string[], rate: number): () => void {
  const started = performance.now();
  let sent = 0;
  let next = 0;
  const timer = setInterval(() => {
    const due = Math.min(Math.ceil(rate / 10), Math.floor((rate * (performance.now() - started)) / 1000) - sent);
    if (due <= 0 || socket.writableNeedDrain) return;
    const batch: string[] = [];
    for (let i = 0; i < due; i++) batch.push(lines[next++ % lines.length]!);
    socket.write(`${batch.join('\n')}\n`);
    sent += due;
  }, 5);
  return () => clearInterval(timer);
}

interface LatencyResult {
  samples: number[];
  missed: number;
  offered: number;
  taken: number;
}

async function latencyPhase(world: World, lines: readonly string[], rate: number, probes: number): Promise<LatencyResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-events-serve-'));
  const feedPort = await freePort();
  let child: ChildProcess | null = null;
  try {
    await seed(dataDir, world);
    const lamis = await startLamis(dataDir, feedPort, KEY);
    child = lamis.child;
    const socket = connect(feedPort, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const ws = new WebSocket(`${lamis.url.replace(/^http/, 'ws')}/v3/stream/events`, { headers: { authorization: `Bearer ${KEY}` } });
    const alerts: { at: number; kind: string }[] = [];
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.event === 'alert' && frame.data.subject.mmsi === PROBE_MMSI && frame.data.state === 'open') alerts.push({ at: performance.now(), kind: frame.data.kind });
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const stop = feedAt(socket, lines, rate);
    // One round of the feed goes by before measuring: every vessel's first sighting (entries into zones).
    await sleep((lines.length / rate) * 1000 + 1000);
    const takenBefore = await linesTaken(lamis.url);
    const startedAt = performance.now();
    const samples: number[] = [];
    let missed = 0;
    for (let i = 0; i < probes; i++) {
      const where = i % 2 === 0 ? PROBE_ZONE : PROBE_OUTSIDE;
      const kind = i % 2 === 0 ? 'vessel.zone_entered' : 'vessel.zone_exited';
      const seen = alerts.length;
      const line = sentences(positionReport(PROBE_MMSI, where.lat, where.lon, { speed: 120 }), 1).join('\n');
      const sentAt = performance.now();
      // Uploaded, so the probe does not wait behind the feed's lines in the TCP buffers.
      void fetch(`${lamis.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'text/plain' }, body: line })
        .then((response) => response.arrayBuffer());
      const deadline = sentAt + PROBE_TIMEOUT_MS;
      while (!alerts.slice(seen).some((alert) => alert.kind === kind) && performance.now() < deadline) await sleep(1);
      const alert = alerts.slice(seen).find((entry) => entry.kind === kind);
      if (alert === undefined) missed++;
      else samples.push(alert.at - sentAt);
      await sleep(200);
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const taken = ((await linesTaken(lamis.url)) - takenBefore) / seconds;
    stop();
    ws.close();
    socket.destroy();
    return { samples, missed, offered: rate, taken };
  } finally {
    if (child !== null && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const percentile = (values: readonly number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

// ---------------------------------------------------------------- the benchmark

export async function run(options: BenchOptions): Promise<BenchReport> {
  const vessels = intFlag(options, 'vessels', 60_000);
  const fleetSize = intFlag(options, 'fleet', 50_000);
  const zoneCount = intFlag(options, 'zones', 1_000);
  const runs = intFlag(options, 'runs', 5);
  const rate = intFlag(options, 'rate', 20_000);
  const probes = intFlag(options, 'probes', 30);
  const seed = intFlag(options, 'seed', 20240601);

  log(`== events: ${formatInt(vessels)} vessels, ${formatInt(fleetSize)} of them in ${OWNERS} fleets, ${formatInt(zoneCount)} zones, seed ${seed}`);
  // One part for the warm-up and one per round, each 1.5 messages per vessel: every vessel reports
  // in each part, and each part goes on where the last left off, so no vessel jumps back.
  const parts = runs + 1;
  const corpus = prepareAisCorpus(fleetCorpusOptions(vessels, 1.5 * parts, seed));
  try {
    const batches: Batch[] = [];
    for (let start = 0; start < corpus.lines.length; start += BATCH_LINES) {
      batches.push({ lines: corpus.lines.slice(start, start + BATCH_LINES), receivedAt: RECEIVED_AT + start * MS_PER_LINE });
    }
    const partOf = (index: number) => batches.slice(Math.floor((index * batches.length) / parts), Math.floor(((index + 1) * batches.length) / parts));
    const survey = new VesselStore();
    const surveyIngest = new AisIngest(survey);
    for (const batch of partOf(0)) surveyIngest.lines(FEED, 'live', batch.lines, batch.receivedAt);
    const world = worldOf(survey, fleetSize, zoneCount, seed);
    log(`  corpus: ${formatInt(corpus.messages)} messages in ${formatInt(corpus.lines.length)} lines, ${parts} parts; ${formatInt(world.fleet.length)} fleet vessels, ${formatInt(world.zones.length)} zones`);

    const baseline = await ingestCase(null);
    const withRules = await ingestCase(world);
    // The warm-up: every vessel is first seen, entries into zones are stored.
    const warmStart = performance.now();
    await baseline.feed(partOf(0));
    await withRules.feed(partOf(0));
    const warmEvents = withRules.eventsChanged();
    log(`  warm-up: one pass each (${((performance.now() - warmStart) / 1000).toFixed(1)} s); the rules hold ${formatInt(withRules.rules!.fleetSize)} fleet vessels ` +
      `and stored ${formatInt(warmEvents)} event changes (first sightings inside zones)`);
    // Each case's k-th pass (the k-th round) takes part k.
    const rounds = [0, 0];
    const cases: InterleavedCase[] = [
      { label: 'ingest alone', warmup: () => 0, pass: () => baseline.feed(partOf(++rounds[0]!)) },
      { label: 'ingest + vessel rules', warmup: () => 0, pass: () => withRules.feed(partOf(++rounds[1]!)) },
    ];
    const timings = await timeInterleaved(cases, { warmups: 0, runs, minRuns: runs });
    for (const { label, error } of timings) if (error !== undefined) throw new Error(`${label}: ${error.message}`);
    const [alone, ruled] = timings.map((entry) => entry.timing) as [typeof timings[0]['timing'], typeof timings[0]['timing']];
    const ratio = medianRatio(alone, ruled);
    const timedEvents = (withRules.eventsChanged() - warmEvents) / ruled.samplesMs.length;
    const kinds = [...withRules.byKind()].map(([kind, count]) => `${kind.replace('vessel.', '')} ${formatInt(count)}`).join(', ');
    const sweepStart = performance.now();
    withRules.rules!.sweep(withRules.lastReceivedAt() + 60_000);
    await withRules.rules!.settled();
    const sweepMs = performance.now() - sweepStart;
    await withRules.cleanup();
    const perSecond = (ms: number) => corpus.lines.length / parts / (ms / 1000);
    log('');
    log(indent(formatTable(
      ['case', '>sentences/s', '>median ms', '>vs ingest alone'],
      [
        ['ingest alone (baseline)', formatInt(perSecond(alone.medianMs)), alone.medianMs.toFixed(0), '1.00×'],
        ['ingest + vessel rules', formatInt(perSecond(ruled.medianMs)), ruled.medianMs.toFixed(0), formatRatio(ratio)],
      ],
    )));
    log(`  ratio = median over ${alone.samplesMs.length} rounds of the baseline's time / the case's time; ${formatInt(timedEvents)} event changes stored per timed pass`);
    log(`  event changes over every pass, by kind: ${kinds}`);
    log(`  one sweep (silences of ${formatInt(fleetSize)} fleet vessels, notices, lost encounters): ${sweepMs.toFixed(1)} ms`);

    log('');
    log(`  latency: a real server fed ${formatInt(rate)} sentences/s over TCP, ${probes} zone crossings of a fleet vessel`);
    const latency = await latencyPhase(world, partOf(0).flatMap((batch) => batch.lines), rate, probes);
    const p50 = percentile(latency.samples, 50);
    const p99 = percentile(latency.samples, 99);
    log(`  NMEA line to alert frame: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (median ${median(latency.samples).toFixed(1)} ms, ${latency.samples.length} alerts, ${latency.missed} missed); ` +
      `the server took ${formatInt(latency.taken)} of ${formatInt(latency.offered)} sentences/s offered (${formatRatio(latency.taken / latency.offered)})`);

    return {
      name: 'events',
      headline: [
        `ingest alone (baseline): ${formatInt(perSecond(alone.medianMs))} sentences/s`,
        `ingest + vessel rules (${formatInt(fleetSize)} fleet vessels, ${formatInt(zoneCount)} zones): ${formatRatio(ratio)} ingest alone (${formatInt(perSecond(ruled.medianMs))} sentences/s)`,
        `NMEA line to alert frame at ${formatInt(rate)} sentences/s offered: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; server took ${formatRatio(latency.taken / latency.offered)} of the offered rate`,
      ],
      data: { vessels, fleetSize, zoneCount, lines: corpus.lines.length, aloneMs: alone.samplesMs, ruledMs: ruled.samplesMs, ratio, timedEvents, sweepMs, latency },
    };
  } finally {
    corpus.remove();
  }
}

if (import.meta.main) await runAsScript('events', { description, run });
