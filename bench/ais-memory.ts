// Memory per 100 000 vessels: a worldwide fleet (one position report and the static data of each
// vessel, see lib/world-fleet.ts) fed through AisIngest into a fresh VesselStore, and the heap the
// store keeps after full collections, against the same vessels kept as their bare decoded messages
// (latest position and static messages per MMSI in a Map), so the ratio shows what the store's live
// state and grid index take next to just holding on to what was decoded.
//
//   npm run bench -- ais-memory [--vessels=100k] [--runs=3] [--seed=N]
//   node bench/ais-memory.ts [same flags]
//
// bench/run.ts starts the process with --expose-gc; run on its own, lib/harness.ts exposes gc() at
// run time.
import { AisPipeline } from '../src/maritime/ais/index.ts';
import type { AisMessage } from '../src/maritime/ais/index.ts';
import { AisIngest } from '../src/maritime/vessels/ingest.ts';
import { VesselStore } from '../src/maritime/vessels/store.ts';
import { worldFleet } from './lib/world-fleet.ts';
import type { WorldFleet } from './lib/world-fleet.ts';
import { formatBytes, formatInt, formatRatio, formatTable, intFlag, measureRetainedHeap, median, runAsScript } from './lib/harness.ts';
import type { BenchOptions, BenchReport } from './lib/harness.ts';

export const description =
  'Memory per 100 000 vessels: VesselStore filled through AisIngest vs the same vessels as bare decoded messages in a Map (baseline)';

const FEED = 'bench';
const BASELINE = 'decoded messages';
const PER = 100_000;

interface Contender {
  label: string;
  holds: string;
  /** Builds the structure from the lines; returns it (kept reachable while measured) and how many vessels it holds. */
  build(lines: readonly string[], at: number): { kept: object; vessels: number };
}

const vesselStore: Contender = {
  label: 'VesselStore',
  holds: 'live vessel state, IMO index and 1° position grid, filled through AisIngest',
  build(lines, at) {
    const vessels = new VesselStore();
    new AisIngest(vessels).lines(FEED, 'live', lines, at);
    return { kept: vessels, vessels: vessels.size };
  },
};

/** Where a message goes among a vessel's kept messages: its position, then its static data. */
function slotOf(message: AisMessage): number {
  if (message.type === 5) return 1;
  if (message.type === 24) return message.scaled.part === 0 ? 1 : 2;
  return 0;
}

const decodedMessages: Contender = {
  label: BASELINE,
  holds: 'Map of MMSI to [position, static (type 5 or 24 A), type 24 B] AisMessage objects from AisPipeline',
  build(lines, at) {
    const pipeline = new AisPipeline();
    const latest = new Map<number, AisMessage[]>();
    for (const line of lines) {
      const decoded = pipeline.push(line, at, FEED);
      if (decoded === null) continue;
      const { message } = decoded;
      let kept = latest.get(message.mmsi);
      if (kept === undefined) latest.set(message.mmsi, (kept = []));
      kept[slotOf(message)] = message;
    }
    return { kept: latest, vessels: latest.size };
  },
};

interface MemoryResult {
  label: string;
  holds: string;
  vessels: number;
  /** Heap + external bytes retained, one entry per round. */
  samples: number[];
  bytes: number;
  bytesPerVessel: number;
  /** This one's bytes / the baseline's. */
  vsBaseline: number;
}

function log(line = ''): void {
  console.log(line);
}

async function retained(contender: Contender, fleet: WorldFleet): Promise<{ bytes: number; vessels: number }> {
  let vessels = 0;
  const memory = await measureRetainedHeap(() => {
    const built = contender.build(fleet.lines, fleet.at);
    vessels = built.vessels;
    return [built.kept];
  });
  return { bytes: memory.heapBytes + memory.externalBytes, vessels };
}

/** Decimal megabytes for a given number of vessels. */
function megabytesPer(bytesPerVessel: number, vessels: number): string {
  return `${((bytesPerVessel * vessels) / 1e6).toFixed(1)} MB`;
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const vessels = intFlag(options, 'vessels', PER);
  const runs = Math.max(1, intFlag(options, 'runs', 3));
  const seed = intFlag(options, 'seed', 1);

  log(`== ais-memory: ${formatInt(vessels)} vessels worldwide, seed ${seed}, ${runs} measuring round${runs === 1 ? '' : 's'}`);
  const start = performance.now();
  const fleet = worldFleet(vessels, seed);
  log(`  fleet:  ${formatInt(fleet.classA)} class A (position + type 5), ${formatInt(fleet.classB)} class B (position + type 24 A and B): ` +
    `${formatInt(fleet.messages)} messages in ${formatInt(fleet.lines.length)} lines, made in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  log(`  after one unmeasured build of each, every round builds each structure from the lines (order alternating) between full collections;`);
  log(`  retained = heap + external memory still reachable through it (the lines themselves are not counted)`);

  const contenders = [vesselStore, decodedMessages];
  // An unmeasured build of each first: the first one frees what making the fleet left behind and
  // loads what the store looks up (flag tables), neither of which belongs to a measurement.
  for (const entry of contenders) entry.build(fleet.lines, fleet.at);
  const samples = contenders.map(() => [] as number[]);
  const held = contenders.map(() => 0);
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) {
      const { bytes, vessels: count } = await retained(contenders[index]!, fleet);
      samples[index]!.push(bytes);
      held[index] = count;
    }
    log(`  round ${round + 1}: ${contenders.map((entry, index) => `${entry.label} ${formatBytes(samples[index]![round]!)}`).join(', ')}`);
  }
  for (const [index, entry] of contenders.entries()) {
    if (held[index] !== vessels) throw new Error(`${entry.label} holds ${held[index]} vessels, expected ${vessels}`);
  }

  const baselineBytes = median(samples[1]!);
  const results: MemoryResult[] = contenders.map((entry, index) => {
    const bytes = median(samples[index]!);
    return {
      label: entry.label,
      holds: entry.holds,
      vessels: held[index]!,
      samples: samples[index]!,
      bytes,
      bytesPerVessel: bytes / held[index]!,
      vsBaseline: bytes / baselineBytes,
    };
  });

  log('');
  log(`  Memory for ${formatInt(vessels)} vessels (median over rounds); ratio = this one's bytes / the baseline's (lower is leaner)`);
  log(
    formatTable(
      ['structure', '>retained', '>bytes/vessel', '>per 100k vessels', `>vs ${BASELINE}`, 'what it holds'],
      results.map((result) => [
        result.label,
        formatBytes(result.bytes),
        formatInt(result.bytesPerVessel),
        megabytesPer(result.bytesPerVessel, PER),
        formatRatio(result.vsBaseline),
        result.holds,
      ]),
    )
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n'),
  );
  log(`  MB = 10^6 bytes`);

  const [storeResult, baseline] = results as [MemoryResult, MemoryResult];
  return {
    name: 'ais-memory',
    headline: [
      `${BASELINE} (baseline): ${formatInt(baseline.bytesPerVessel)} B/vessel, ${megabytesPer(baseline.bytesPerVessel, PER)} per 100k vessels`,
      `VesselStore: ${formatInt(storeResult.bytesPerVessel)} B/vessel, ${megabytesPer(storeResult.bytesPerVessel, PER)} per 100k vessels, ` +
        `${formatRatio(storeResult.vsBaseline)} ${BASELINE}`,
    ],
    data: {
      vessels,
      seed,
      classA: fleet.classA,
      classB: fleet.classB,
      messages: fleet.messages,
      lines: fleet.lines.length,
      baseline: BASELINE,
      results,
    },
  };
}

if (import.meta.main) await runAsScript('ais-memory', { description, run });
