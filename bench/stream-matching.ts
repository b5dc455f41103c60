// Which streams a vessel update goes to: the subscription index the stream fan-out uses (boxes in
// grid cells, each cell's box bounds compared before a filter is tested) against the baseline of
// testing every subscription's filter, for N subscriptions with a random box each (0.05° to 0.2°,
// centred on vessels of the corpus, as the stream bench places them), looked up for the position
// of every vessel of the corpus.
//
//   npm run bench -- stream-matching [--subscriptions=1000,5000,10000] [--vessels=20k] [--runs=7]
//   node bench/stream-matching.ts [same flags]
import { CompiledFilter, SubscriptionIndex } from '../src/maritime/stream/subscriptions.ts';
import { AisIngest } from '../src/maritime/vessels/ingest.ts';
import { VesselStore, type Vessel } from '../src/maritime/vessels/store.ts';
import { fleetCorpusOptions, prepareAisCorpus } from './lib/ais-corpus.ts';
import { formatInt, formatRatio, formatTable, intFlag, medianRatio, runAsScript, timeInterleaved } from './lib/harness.ts';
import type { BenchOptions, BenchReport, Timing } from './lib/harness.ts';
import { randomBoxes } from './stream.ts';

export const description = 'Stream fan-out matching: the subscription index vs testing every subscription (baseline), per vessel update';

export async function run(options: BenchOptions): Promise<BenchReport> {
  const counts = String(options.flags.subscriptions ?? '1000,5000,10000').split(',').map((count) => intFlag({ flags: { subscriptions: count } }, 'subscriptions', 0));
  const runs = intFlag(options, 'runs', 7);
  const store = new VesselStore();
  new AisIngest(store).lines('bench', 'live', prepareAisCorpus(fleetCorpusOptions(intFlag(options, 'vessels', 20_000), 10)).lines, Date.now());
  const vessels = [...store.all()].filter((vessel) => vessel.position !== null);

  const rows: string[][] = [];
  const headline: string[] = [];
  const data = [];
  for (const count of counts) {
    const filters = randomBoxes(store, count, count).map((box) =>
      new CompiledFilter({ bboxes: [box], vesselTypes: [], mmsi: [], imo: [], flags: [], updateIntervalSec: 1 }));
    const index = new SubscriptionIndex<number>();
    filters.forEach((filter, i) => index.set(i, filter));
    const scan = (vessel: Vessel, visit: () => void) => {
      for (const filter of filters) if (filter.matches(vessel)) visit();
    };
    const lookupAll = (find: (vessel: Vessel, visit: () => void) => void, slice = vessels.length) => () => {
      let matched = 0;
      const visit = () => void matched++;
      for (let i = 0; i < slice; i++) find(vessels[i]!, visit);
      return matched;
    };
    const timings = await timeInterleaved([
      { label: 'every subscription (baseline)', find: scan },
      { label: 'subscription index', find: (vessel: Vessel, visit: () => void) => index.forEachMatch(vessel, visit) },
    ].map(({ label, find }) => ({ label, warmup: lookupAll(find, Math.floor(vessels.length / 3)), pass: lookupAll(find) })), { runs, minRuns: 3, warmups: 2 });
    const [baseline, indexed] = timings.map(({ timing }) => timing) as [Timing, Timing];
    if (baseline.count !== indexed.count) throw new Error(`the index matched ${indexed.count} times, the full scan ${baseline.count}`);
    const perLookup = (ms: number) => ((ms * 1e6) / vessels.length).toFixed(0);
    const ratio = medianRatio(baseline, indexed);
    for (const { label, timing } of timings) {
      rows.push([formatInt(count), label, (timing.count / vessels.length).toFixed(2), perLookup(timing.medianMs), timing === baseline ? '1.00×' : formatRatio(ratio)]);
    }
    headline.push(`${formatInt(count)} subscriptions: ${perLookup(indexed.medianMs)} ns an update (${formatRatio(ratio)} faster than testing every subscription)`);
    data.push({ subscriptions: count, timings });
  }
  console.log(`\n== stream-matching: the positions of ${formatInt(vessels.length)} vessels against random boxes of 0.05° to 0.2°`);
  console.log(formatTable(['>subscriptions', 'matching', '>matches/update', '>ns/update', '>speed vs baseline'], rows));
  console.log('  speed vs baseline: median over rounds of the baseline\'s time / this case\'s time (above 1: faster)');
  return { name: 'stream-matching', headline, data };
}

if (import.meta.main) await runAsScript('stream-matching', { description, run });
