// End-to-end AIS ingest: NMEA lines through AisIngest into the live VesselStore (what every feed's
// lines go through), against the decode-only AisPipeline on the same lines in the same rounds, so
// the ratio shows what keeping vessel state costs; the store update alone on pre-decoded messages
// shows where that cost sits. Then bounding-box queries over the filled store, against a linear scan
// over every vessel with the same predicate.
//
//   npm run bench -- ais-ingest [--vessels=100k] [--per-vessel=3] [--runs=7] [--boxes=50] [--seed=N]
//   node bench/ais-ingest.ts [same flags]
import type { AisMessage } from '../src/maritime/ais/index.ts';
import { AisPipeline } from '../src/maritime/ais/index.ts';
import { AisIngest } from '../src/maritime/vessels/ingest.ts';
import { inBox, VesselStore } from '../src/maritime/vessels/store.ts';
import type { BBox } from '../src/maritime/vessels/store.ts';
import { fleetCorpusOptions, prepareAisCorpus, Rng } from './lib/ais-corpus.ts';
import type { AisCorpusFile } from './lib/ais-corpus.ts';
import {
  formatBytes,
  formatInt,
  formatRatio,
  formatTable,
  intFlag,
  medianRatio,
  runAsScript,
  timeInterleaved,
} from './lib/harness.ts';
import type { BenchOptions, BenchReport, InterleavedCase, Timing } from './lib/harness.ts';

export const description =
  'AIS ingest: NMEA lines -> AisIngest -> VesselStore vs decode-only AisPipeline (baseline), and bbox queries vs a linear scan';

const FEED = 'bench';
const RECEIVED_AT = Date.UTC(2025, 6, 1, 8, 0, 0);
/** The corpus is paced at one message every 3 ms; batches are received at that pace. */
const MS_PER_LINE = 3;
/** Lines per `AisIngest.lines` call: about what one socket read of a busy feed delivers. */
const BATCH_LINES = 500;
const WARMUP_SHARE = 1 / 3;
const BOX_SIZES_DEG = [1, 10] as const;

interface Batch {
  lines: string[];
  receivedAt: number;
}

interface Decoded {
  message: AisMessage;
  receivedAt: number;
}

function log(line = ''): void {
  console.log(line);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function batchesOf(lines: readonly string[]): Batch[] {
  const batches: Batch[] = [];
  for (let start = 0; start < lines.length; start += BATCH_LINES) {
    batches.push({ lines: lines.slice(start, start + BATCH_LINES), receivedAt: RECEIVED_AT + start * MS_PER_LINE });
  }
  return batches;
}

/** Everything a fresh store gets from the batches, decoded once (untimed) for the store-only pass. */
function predecode(batches: readonly Batch[]): Decoded[] {
  const pipeline = new AisPipeline();
  const out: Decoded[] = [];
  for (const batch of batches) {
    for (const line of batch.lines) {
      const decoded = pipeline.push(line, batch.receivedAt, FEED);
      if (decoded !== null) out.push({ message: decoded.message, receivedAt: batch.receivedAt });
    }
  }
  return out;
}

function decodeOnly(batches: readonly Batch[]): number {
  const pipeline = new AisPipeline();
  let decoded = 0;
  for (const batch of batches) {
    for (const line of batch.lines) if (pipeline.push(line, batch.receivedAt, FEED) !== null) decoded++;
  }
  return decoded;
}

/** A fresh store filled through AisIngest, as a feed fills it. */
function ingestInto(batches: readonly Batch[]): { store: VesselStore; messages: number } {
  const store = new VesselStore();
  const ingest = new AisIngest(store);
  for (const batch of batches) ingest.lines(FEED, 'live', batch.lines, batch.receivedAt);
  return { store, messages: ingest.feedCounts(FEED, 'live').messages };
}

function storeOnly(decoded: readonly Decoded[]): number {
  const store = new VesselStore();
  let changes = 0;
  for (const { message, receivedAt } of decoded) if (store.apply(message, receivedAt, 'live') !== null) changes++;
  return changes;
}

// ---------------------------------------------------------------- throughput

interface IngestResult {
  label: string;
  scope: string;
  timing: Timing;
  sentencesPerSecond: number;
  messagesPerSecond: number;
  /** Median over rounds of the decode-only time / this time. */
  vsBaseline: number;
}

const BASELINE = 'decode only';

async function timeIngest(corpus: AisCorpusFile, runs: number, budgetMs: number): Promise<IngestResult[]> {
  const batches = batchesOf(corpus.lines);
  const warmBatches = batches.slice(0, Math.ceil(batches.length * WARMUP_SHARE));
  const decoded = predecode(batches);
  const warmDecoded = predecode(warmBatches);
  const cases: (InterleavedCase & { scope: string })[] = [
    {
      label: BASELINE,
      scope: 'AisPipeline.push per line: framing, checksum, assembly, decode',
      warmup: () => decodeOnly(warmBatches),
      pass: () => decodeOnly(batches),
    },
    {
      label: 'ingest',
      scope: `AisIngest.lines (${BATCH_LINES} lines a call) into a fresh VesselStore`,
      warmup: () => ingestInto(warmBatches).messages,
      pass: () => ingestInto(batches).messages,
    },
    {
      label: 'store only',
      scope: 'VesselStore.apply on the pre-decoded messages, fresh store',
      warmup: () => storeOnly(warmDecoded),
      pass: () => storeOnly(decoded),
    },
  ];
  log(`  timing: two warm-up passes each on the first third of the lines, then up to ${runs} rounds of one pass per case (order rotating)`);
  const timings = await timeInterleaved(cases, { warmups: 2, runs, minRuns: Math.min(3, runs), budgetMs });
  for (const { label, error } of timings) if (error !== undefined) throw new Error(`${label}: ${error.message}`);
  const baseline = timings[0]!.timing;
  return cases.map((entry, index) => {
    const { timing } = timings[index]!;
    const samples = timing.samplesMs.map((ms) => ms.toFixed(0)).join(', ');
    log(`  ${entry.label.padEnd(12)} median ${timing.medianMs.toFixed(0).padStart(6)} ms  (rounds: ${samples} ms)`);
    return {
      label: entry.label,
      scope: entry.scope,
      timing,
      sentencesPerSecond: corpus.lines.length / (timing.medianMs / 1000),
      messagesPerSecond: corpus.messages / (timing.medianMs / 1000),
      vsBaseline: medianRatio(baseline, timing),
    };
  });
}

// ---------------------------------------------------------------- bounding boxes

interface BoxResult {
  sizeDeg: number;
  boxes: number;
  hitsPerBox: number;
  grid: Timing;
  scan: Timing;
  /** Median over rounds of the scan time / the grid time. */
  gridVsScan: number;
  agree: boolean;
}

/** Boxes of `sizeDeg` centred on the positions of random vessels, the way a map over traffic asks. */
function boxesAround(store: VesselStore, count: number, sizeDeg: number, seed: number): BBox[] {
  const positions = [...store.all()].flatMap((vessel) => (vessel.position ? [vessel.position] : []));
  const rng = new Rng(seed);
  const half = sizeDeg / 2;
  const boxes: BBox[] = [];
  for (let i = 0; i < count; i++) {
    const { lat, lon } = rng.pick(positions);
    let minLon = lon - half;
    let maxLon = lon + half;
    // Across the antimeridian a box has minLon > maxLon.
    if (minLon < -180) minLon += 360;
    if (maxLon > 180) maxLon -= 360;
    boxes.push({ minLat: Math.max(-90, lat - half), maxLat: Math.min(90, lat + half), minLon, maxLon });
  }
  return boxes;
}

function gridQueries(store: VesselStore, boxes: readonly BBox[]): number {
  let hits = 0;
  for (const box of boxes) for (const _vessel of store.inBox(box)) hits++;
  return hits;
}

function linearScan(store: VesselStore, boxes: readonly BBox[]): number {
  let hits = 0;
  for (const box of boxes) {
    for (const vessel of store.all()) {
      const position = vessel.position;
      if (position !== null && inBox(box, position.lat, position.lon)) hits++;
    }
  }
  return hits;
}

async function timeBoxes(store: VesselStore, count: number, seed: number, runs: number, budgetMs: number): Promise<BoxResult[]> {
  const sets = BOX_SIZES_DEG.map((sizeDeg) => ({ sizeDeg, boxes: boxesAround(store, count, sizeDeg, seed + sizeDeg) }));
  const cases: InterleavedCase[] = sets.flatMap(({ sizeDeg, boxes }) => {
    const warm = boxes.slice(0, Math.ceil(boxes.length * WARMUP_SHARE));
    return [
      { label: `grid ${sizeDeg}°`, warmup: () => gridQueries(store, warm), pass: () => gridQueries(store, boxes) },
      { label: `scan ${sizeDeg}°`, warmup: () => linearScan(store, warm), pass: () => linearScan(store, boxes) },
    ];
  });
  log(`  timing: ${formatInt(count)} boxes of each size per pass, up to ${runs} rounds (order rotating)`);
  const timings = await timeInterleaved(cases, { warmups: 2, runs, minRuns: Math.min(3, runs), budgetMs });
  for (const { label, error } of timings) if (error !== undefined) throw new Error(`${label}: ${error.message}`);
  return sets.map(({ sizeDeg, boxes }, index) => {
    const grid = timings[index * 2]!.timing;
    const scan = timings[index * 2 + 1]!.timing;
    return {
      sizeDeg,
      boxes: boxes.length,
      hitsPerBox: grid.count / boxes.length,
      grid,
      scan,
      gridVsScan: medianRatio(scan, grid),
      agree: grid.count === scan.count,
    };
  });
}

// ---------------------------------------------------------------- the benchmark

export async function run(options: BenchOptions): Promise<BenchReport> {
  const vessels = intFlag(options, 'vessels', 100_000);
  const perVessel = intFlag(options, 'per-vessel', 3);
  const seed = intFlag(options, 'seed', 20240601);
  const runs = intFlag(options, 'runs', 7);
  const budgetMs = intFlag(options, 'budget-ms', 22_000);
  const boxCount = intFlag(options, 'boxes', 50);

  log(`== ais-ingest: a fleet of ${formatInt(vessels)} vessels, ${perVessel} messages per vessel, seed ${seed}, up to ${runs} timed rounds`);
  const start = performance.now();
  const corpus = prepareAisCorpus(fleetCorpusOptions(vessels, perVessel, seed));
  try {
    const mix = Object.entries(corpus.messagesByType)
      .map(([type, count]) => `${type}: ${((count / corpus.messages) * 100).toFixed(1)}%`)
      .join(', ');
    log(`  corpus: ${formatInt(corpus.messages)} messages in ${formatInt(corpus.lines.length)} lines ` +
      `(${formatInt(corpus.multiSentenceMessages)} two-sentence messages), ${formatBytes(corpus.bytes)}, ` +
      `${formatInt(corpus.stations)} stations, made in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    log(`  mix:    ${mix}`);
    log('');

    const results = await timeIngest(corpus, runs, budgetMs);
    const { store, messages } = ingestInto(batchesOf(corpus.lines));
    log(`  store after one pass: ${formatInt(store.size)} vessels, ${formatInt(store.liveCount)} with a live position ` +
      `(${formatInt(messages)} messages decoded)`);
    const baseline = results[0]!;
    log('');
    log(`  Throughput on ${formatInt(corpus.lines.length)} sentences, ${formatInt(corpus.messages)} messages; ` +
      `ratio = median over rounds of the decode-only time / this time`);
    log(indent(formatTable(
      ['case', '>sentences/s', '>messages/s', '>median ms', `>vs ${BASELINE}`, 'what one pass does'],
      results.map((result) => [
        result.label,
        formatInt(result.sentencesPerSecond),
        formatInt(result.messagesPerSecond),
        result.timing.medianMs.toFixed(0),
        formatRatio(result.vsBaseline),
        result.scope,
      ]),
    )));
    const ingest = results[1]!;
    const storeOnlyResult = results[2]!;
    const stateShare = 1 / ingest.vsBaseline - 1;
    log(`  keeping state adds ${(stateShare * 100).toFixed(0)}% to the decode time ` +
      `(the store update alone takes ${formatRatio(1 / storeOnlyResult.vsBaseline)} the decode time)`);

    log('');
    log(`  Bounding-box queries over that store (boxes centred on random vessels' positions)`);
    const boxes = await timeBoxes(store, boxCount, seed, runs, budgetMs / 2);
    log(indent(formatTable(
      ['box', '>vessels/box', '>grid µs/query', '>scan µs/query', '>grid vs scan', 'same hits'],
      boxes.map((box) => [
        `${box.sizeDeg}°×${box.sizeDeg}°`,
        formatInt(box.hitsPerBox),
        formatInt((box.grid.medianMs * 1000) / box.boxes),
        formatInt((box.scan.medianMs * 1000) / box.boxes),
        formatRatio(box.gridVsScan),
        box.agree ? 'yes' : 'NO',
      ]),
    )));
    log(`  grid: VesselStore.inBox (1° cells); scan: every vessel of the store through the same inBox predicate; ` +
      `ratio = median over rounds of the scan time / the grid time`);
    const disagree = boxes.filter((box) => !box.agree);
    if (disagree.length > 0) throw new Error(`grid and scan found different vessels for ${disagree.map((box) => `${box.sizeDeg}°`).join(', ')} boxes`);

    const headline = [
      `${BASELINE} (baseline, AisPipeline): ${formatInt(baseline.messagesPerSecond)} messages/s`,
      `ingest to VesselStore: ${formatRatio(ingest.vsBaseline)} ${BASELINE} (${formatInt(ingest.sentencesPerSecond)} sentences/s, ` +
        `${formatInt(ingest.messagesPerSecond)} messages/s)`,
      `store update alone: ${formatRatio(storeOnlyResult.vsBaseline)} ${BASELINE} (${formatInt(storeOnlyResult.messagesPerSecond)} messages/s)`,
      ...boxes.map((box) =>
        `bbox ${box.sizeDeg}°×${box.sizeDeg}° over ${formatInt(store.liveCount)} vessels: ` +
          `${formatInt((box.grid.medianMs * 1000) / box.boxes)} µs/query, ${formatRatio(box.gridVsScan)} linear scan ` +
          `(${formatInt(box.hitsPerBox)} vessels/box)`),
    ];
    return {
      name: 'ais-ingest',
      headline,
      data: {
        vessels,
        perVessel,
        seed,
        messages: corpus.messages,
        lines: corpus.lines.length,
        messagesByType: corpus.messagesByType,
        storeVessels: store.size,
        liveVessels: store.liveCount,
        batchLines: BATCH_LINES,
        baseline: BASELINE,
        throughput: results.map(({ timing, ...rest }) => ({ ...rest, medianMs: timing.medianMs, samplesMs: timing.samplesMs })),
        boxes: boxes.map(({ grid, scan, ...rest }) => ({
          ...rest,
          gridMedianMs: grid.medianMs,
          scanMedianMs: scan.medianMs,
          gridSamplesMs: grid.samplesMs,
          scanSamplesMs: scan.samplesMs,
        })),
      },
    };
  } finally {
    corpus.remove();
  }
}

if (import.meta.main) await runAsScript('ais-ingest', { description, run });
