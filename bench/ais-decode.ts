// AIS decoding throughput: LAMIS's AisPipeline (framing + assembly + decode) and decodeAisPayload
// alone, against the npm packages ais-stream-decoder (the baseline) and ggencoder, all on the same
// generated NMEA file. Prints messages/s, decoded counts, ratios against the baseline measured in the
// same run, and the memory each one's decoded objects take.
//
//   npm run bench -- ais-decode [--messages=300k] [--runs=5] [--seed=N] [--no-external] [--no-memory]
//   node bench/ais-decode.ts [same flags]
//
// The compared packages are installed on demand into <tmpdir>/lamis-bench-deps, never into the
// project; when they cannot be had they are reported as skipped and LAMIS is still measured.
import { AisAssembler, AisPipeline, decodeAisPayload, parseAisSentence } from '../src/maritime/ais/index.ts';
import type { AisMessage, AisPipelineMessage } from '../src/maritime/ais/index.ts';
import { prepareAisCorpus } from './lib/ais-corpus.ts';
import type { AisCorpusFile, AisCorpusOptions } from './lib/ais-corpus.ts';
import { loadBenchPackages } from './lib/external-packages.ts';
import type { LoadedPackage } from './lib/external-packages.ts';
import {
  boolFlag,
  formatBytes,
  formatInt,
  formatRatio,
  formatTable,
  intFlag,
  measureRetainedHeap,
  medianRatio,
  runAsScript,
  timeInterleaved,
} from './lib/harness.ts';
import type { BenchOptions, BenchReport, HeapMeasurement, Timing } from './lib/harness.ts';

export const description =
  'AIS decoding: LAMIS AisPipeline and decodeAisPayload vs ais-stream-decoder (baseline) and ggencoder, messages/s and memory';

const BASELINE = 'ais-stream-decoder';
const COMPARED_PACKAGES = [
  { name: 'ais-stream-decoder', version: '2.1.2' },
  { name: 'ggencoder', version: '1.0.10' },
] as const;

/** Fixed receive time: the benchmark is about decoding, not about reading the clock per line. */
const RECEIVED_AT = Date.UTC(2025, 5, 1, 8, 0, 0);
/** Warm-up passes run on this share of the input (the start of the file). */
const WARMUP_SHARE = 1 / 3;

// ---------------------------------------------------------------- shared input (hook for other AIS benchmarks)

/** An assembled payload as handed to `decodeAisPayload`. */
export interface AisPayload {
  payload: string;
  fillBits: number;
}

export interface AisBenchInput {
  /** The generated file, read back: `corpus.lines` are the sentences, `corpus.file` the temp file. */
  corpus: AisCorpusFile;
  /** The corpus's complete payloads, extracted with LAMIS's framing and assembler (untimed). */
  payloads: AisPayload[];
  /** Milliseconds spent generating, writing and reading the corpus. */
  prepareMs: number;
}

/** Frames and assembles lines into complete payloads with LAMIS's own parser and assembler. */
export function extractAisPayloads(lines: readonly string[]): AisPayload[] {
  const assembler = new AisAssembler();
  const payloads: AisPayload[] = [];
  for (const line of lines) {
    const framed = parseAisSentence(line);
    if (!framed.ok) continue;
    const result = assembler.push(framed.sentence, RECEIVED_AT);
    if (result.status === 'complete') payloads.push({ payload: result.message.payload, fillBits: result.message.fillBits });
  }
  return payloads;
}

/**
 * Hook for the other AIS benchmarks (ingest: sentences -> vessel state; memory per 100 000 vessels):
 * generates the deterministic corpus with LAMIS's encoder, writes it to a temp file, reads it back as
 * lines and extracts the payloads. Pass `fleetCorpusOptions(100_000)` from lib/ais-corpus.ts for a
 * corpus in which every one of 100 000 vessels reports. Call `input.corpus.remove()` when done.
 */
export function loadAisBenchInput(options: AisCorpusOptions = {}): AisBenchInput {
  const start = performance.now();
  const corpus = prepareAisCorpus(options);
  const payloads = extractAisPayloads(corpus.lines);
  return { corpus, payloads, prepareMs: performance.now() - start };
}

// ---------------------------------------------------------------- contenders

/** What a decoder said about one decoded message, for counting by type. */
interface Identity {
  type: number;
  mmsi: number;
}

interface TypeTally {
  count: number;
  mmsiSum: number;
}

interface Contender {
  label: string;
  /** What one pass covers. */
  scope: string;
  version: string;
  /** Untimed pass over the start of the input. */
  warmup(): unknown;
  /** One timed pass over the whole input; returns the messages decoded. */
  pass(): number | Promise<number>;
  /** Decodes everything into an array of decoded objects; heap retained and counts by type. */
  retain(): Promise<{ memory: HeapMeasurement; byType: Map<number, TypeTally> }>;
}

function contender<I, T>(spec: {
  label: string;
  scope: string;
  version: string;
  input: I;
  warmupInput: I;
  /** One pass over the input; returns how many messages it decoded. */
  pass: (input: I) => number | Promise<number>;
  /** Decodes the whole input into an array of the decoder's own decoded objects. */
  collect: (input: I) => T[] | Promise<T[]>;
  identify: (item: T) => Identity;
}): Contender {
  return {
    label: spec.label,
    scope: spec.scope,
    version: spec.version,
    warmup: () => spec.pass(spec.warmupInput),
    pass: () => spec.pass(spec.input),
    async retain() {
      const byType = new Map<number, TypeTally>();
      const memory = await measureRetainedHeap(
        () => spec.collect(spec.input),
        (items) => {
          for (const item of items) {
            const { type, mmsi } = spec.identify(item);
            const tally = byType.get(type) ?? { count: 0, mmsiSum: 0 };
            tally.count++;
            tally.mmsiSum += Number(mmsi);
            byType.set(type, tally);
          }
        },
      );
      return { memory, byType };
    },
  };
}

function lamisPipeline(lines: string[], warmup: string[]): Contender {
  return contender<string[], AisPipelineMessage>({
    label: 'LAMIS pipeline',
    scope: 'framing + assembly + decode',
    version: 'AisPipeline',
    input: lines,
    warmupInput: warmup,
    pass(input) {
      const pipeline = new AisPipeline();
      let decoded = 0;
      for (const line of input) if (pipeline.push(line, RECEIVED_AT) !== null) decoded++;
      return decoded;
    },
    collect(input) {
      const pipeline = new AisPipeline();
      const out: AisPipelineMessage[] = [];
      for (const line of input) {
        const message = pipeline.push(line, RECEIVED_AT);
        if (message !== null) out.push(message);
      }
      return out;
    },
    identify: (item) => item.message,
  });
}

function lamisDecode(payloads: AisPayload[], warmup: AisPayload[]): Contender {
  return contender<AisPayload[], AisMessage>({
    label: 'LAMIS decodeAisPayload',
    scope: 'decode only (pre-assembled payloads)',
    version: 'decodeAisPayload',
    input: payloads,
    warmupInput: warmup,
    pass(input) {
      let decoded = 0;
      for (const { payload, fillBits } of input) if (decodeAisPayload(payload, fillBits).ok) decoded++;
      return decoded;
    },
    collect(input) {
      const out: AisMessage[] = [];
      for (const { payload, fillBits } of input) {
        const result = decodeAisPayload(payload, fillBits);
        if (result.ok) out.push(result.message);
      }
      return out;
    },
    identify: (item) => item,
  });
}

// ais-stream-decoder: a Transform stream; write one NMEA line per chunk, each decoded message comes out
// as a JSON string 'data' event (multi-sentence messages once, when their last part arrives).
interface AisStreamDecoder {
  on(event: 'data', listener: (json: string) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'end', listener: () => void): this;
  once(event: 'drain', listener: () => void): this;
  write(line: string): boolean;
  end(): void;
}
type AisStreamDecoderClass = new (options?: { silent?: boolean }) => AisStreamDecoder;

function streamDecode(Decoder: AisStreamDecoderClass, lines: readonly string[], onMessage: (json: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    // silent: lines it cannot decode are skipped instead of failing the stream (as in its README's pipe example).
    const decoder = new Decoder({ silent: true });
    decoder.on('data', onMessage);
    decoder.on('error', reject);
    decoder.on('end', resolve);
    let index = 0;
    // Honour back-pressure like a pipe would (in practice the synchronous transform never asks to wait).
    const pump = (): void => {
      while (index < lines.length) {
        if (!decoder.write(lines[index++]!)) {
          decoder.once('drain', pump);
          return;
        }
      }
      decoder.end();
    };
    pump();
  });
}

interface AisStreamDecoderMessage {
  type: number;
  mmsi: number;
}

function aisStreamDecoder(loaded: LoadedPackage & { ok: true }, lines: string[], warmup: string[]): Contender {
  const Decoder = (loaded.exports as { default: AisStreamDecoderClass }).default;
  return contender<string[], AisStreamDecoderMessage>({
    label: 'ais-stream-decoder',
    scope: 'framing + assembly + decode (JSON strings out)',
    version: loaded.version,
    input: lines,
    warmupInput: warmup,
    async pass(input) {
      let decoded = 0;
      await streamDecode(Decoder, input, () => {
        decoded++;
      });
      return decoded;
    },
    async collect(input) {
      // Its output is JSON text; a consumer parses it to get objects.
      const out: AisStreamDecoderMessage[] = [];
      await streamDecode(Decoder, input, (json) => {
        out.push(JSON.parse(json) as AisStreamDecoderMessage);
      });
      return out;
    },
    identify: (item) => item,
  });
}

// ggencoder: `new AisDecode(line, session)` per line; multi-sentence messages need a session object
// shared across lines and come out `valid` on their last part.
interface GgAisDecode {
  valid: boolean;
  aistype: number;
  immsi: number;
}
type GgAisDecodeClass = new (line: string, session?: object) => GgAisDecode;

function ggencoder(loaded: LoadedPackage & { ok: true }, lines: string[], warmup: string[]): Contender {
  const AisDecode = (loaded.exports as { AisDecode: GgAisDecodeClass }).AisDecode;
  return contender<string[], GgAisDecode>({
    label: 'ggencoder',
    scope: 'framing + assembly + decode',
    version: loaded.version,
    input: lines,
    warmupInput: warmup,
    pass(input) {
      const session = {};
      let decoded = 0;
      for (const line of input) if (new AisDecode(line, session).valid) decoded++;
      return decoded;
    },
    collect(input) {
      const session = {};
      const out: GgAisDecode[] = [];
      for (const line of input) {
        const message = new AisDecode(line, session);
        if (message.valid) out.push(message);
      }
      return out;
    },
    identify: (item) => ({ type: item.aistype, mmsi: item.immsi }),
  });
}

// ---------------------------------------------------------------- the benchmark

interface ContenderResult {
  label: string;
  scope: string;
  version: string;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  timing?: Timing;
  messagesPerSecond?: number;
  /** Median over rounds of baseline time / this time (same input messages, same round). */
  vsBaseline?: number;
  decoded?: number;
  memory?: HeapMeasurement;
  byType?: Record<number, TypeTally>;
}

function log(line = ''): void {
  console.log(line);
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const messages = intFlag(options, 'messages', 300_000);
  const seed = intFlag(options, 'seed', 20240601);
  const runs = intFlag(options, 'runs', 7);
  const budgetMs = intFlag(options, 'budget-ms', 22_000);
  const withExternal = boolFlag(options, 'external', true);
  const withMemory = boolFlag(options, 'memory', true);

  log(`== ais-decode: ${formatInt(messages)} AIS messages, seed ${seed}, up to ${runs} timed rounds`);
  const input = loadAisBenchInput({ messages, seed });
  const { corpus, payloads } = input;
  try {
    const mix = Object.entries(corpus.messagesByType)
      .map(([type, count]) => `${type}: ${((count / corpus.messages) * 100).toFixed(1)}%`)
      .join(', ');
    log(`  corpus: ${formatInt(corpus.lines.length)} lines (${formatInt(corpus.multiSentenceMessages)} two-sentence messages), ` +
      `${formatBytes(corpus.bytes)}, ${formatInt(corpus.stations)} stations, made in ${(input.prepareMs / 1000).toFixed(1)} s`);
    log(`  file:   ${corpus.file} (removed at the end)`);
    log(`  mix:    ${mix}`);
    if (payloads.length !== corpus.messages) log(`  WARNING: extracted ${payloads.length} payloads from ${corpus.messages} messages`);

    const warmLines = corpus.lines.slice(0, Math.ceil(corpus.lines.length * WARMUP_SHARE));
    const warmPayloads = payloads.slice(0, Math.ceil(payloads.length * WARMUP_SHARE));
    const contenders: Contender[] = [lamisPipeline(corpus.lines, warmLines), lamisDecode(payloads, warmPayloads)];
    const results: ContenderResult[] = [];

    if (withExternal) {
      log(`  compared packages (cache: outside the project):`);
      for (const loaded of loadBenchPackages(COMPARED_PACKAGES)) {
        if (!loaded.ok) {
          log(`    ${loaded.name}: SKIPPED (${loaded.reason})`);
          results.push({ label: loaded.name, scope: '', version: '', status: 'skipped', reason: loaded.reason });
          continue;
        }
        log(`    ${loaded.name}@${loaded.version} from ${loaded.dir}`);
        contenders.push(
          loaded.name === 'ggencoder' ? ggencoder(loaded, corpus.lines, warmLines) : aisStreamDecoder(loaded, corpus.lines, warmLines),
        );
      }
    } else {
      for (const spec of COMPARED_PACKAGES) {
        results.push({ label: spec.name, scope: '', version: '', status: 'skipped', reason: '--no-external' });
      }
    }

    log('');
    log(`  timing: two warm-up passes each on the first third of the lines, then rounds of one pass per decoder (order rotating), up to ${runs} rounds`);
    const timings = await timeInterleaved(contenders, { warmups: 2, runs, minRuns: Math.min(3, runs), budgetMs });
    for (const [index, entry] of contenders.entries()) {
      const { timing, error } = timings[index]!;
      if (error !== undefined) {
        const reason = error.message || String(error);
        log(`  ${entry.label}: FAILED (${reason})`);
        results.push({ label: entry.label, scope: entry.scope, version: entry.version, status: 'failed', reason });
        continue;
      }
      const samples = timing.samplesMs.map((ms) => ms.toFixed(0)).join(', ');
      log(`  ${entry.label.padEnd(24)} median ${timing.medianMs.toFixed(0).padStart(6)} ms  (rounds: ${samples} ms)`);
      results.push({
        label: entry.label,
        scope: entry.scope,
        version: entry.version,
        status: 'ok',
        timing,
        messagesPerSecond: corpus.messages / (timing.medianMs / 1000),
        decoded: timing.count,
      });
    }

    if (withMemory) {
      log('');
      log('  memory: decoding everything into an array of decoded objects, one decoder at a time');
      for (const entry of contenders) {
        const result = results.find((candidate) => candidate.label === entry.label);
        if (result?.status !== 'ok') continue;
        try {
          const { memory, byType } = await entry.retain();
          result.memory = memory;
          result.byType = Object.fromEntries(byType);
        } catch (error) {
          log(`  ${entry.label}: memory pass failed (${(error as Error).message})`);
        }
      }
    }

    const order = ['LAMIS pipeline', 'LAMIS decodeAisPayload', ...COMPARED_PACKAGES.map((spec) => spec.name)];
    results.sort((a, b) => order.indexOf(a.label) - order.indexOf(b.label));
    const baseline = results.find((result) => result.label === BASELINE && result.status === 'ok');
    for (const result of results) {
      if (result.timing && baseline?.timing) result.vsBaseline = medianRatio(baseline.timing, result.timing);
    }

    printResults(corpus, results, baseline !== undefined);
    const headline = headlineOf(results, baseline !== undefined);
    return {
      name: 'ais-decode',
      headline,
      data: {
        messages: corpus.messages,
        lines: corpus.lines.length,
        bytes: corpus.bytes,
        messagesByType: corpus.messagesByType,
        seed,
        baseline: BASELINE,
        results: results.map(({ timing, ...rest }) => ({
          ...rest,
          medianMs: timing?.medianMs,
          samplesMs: timing?.samplesMs,
        })),
      },
    };
  } finally {
    corpus.remove();
  }
}

function printResults(corpus: AisCorpusFile, results: ContenderResult[], haveBaseline: boolean): void {
  log('');
  log(`  Throughput on ${formatInt(corpus.messages)} messages (${formatInt(corpus.lines.length)} lines); ` +
    `messages/s = input messages / median wall time; ratio = median over rounds of the baseline's time / this time`);
  const rows = results.map((result) => {
    if (result.status !== 'ok' || !result.timing) return [result.label, `${result.status} (below)`, '', '', '', '', '', ''];
    const memory = result.memory;
    return [
      result.label,
      result.version,
      formatInt(result.messagesPerSecond!),
      result.timing.medianMs.toFixed(0),
      formatInt(result.decoded!),
      haveBaseline ? formatRatio(result.vsBaseline!) : 'n/a',
      memory ? formatBytes(memory.heapBytes + memory.externalBytes) : '-',
      memory && memory.count > 0 ? formatInt((memory.heapBytes + memory.externalBytes) / memory.count) : '-',
    ];
  });
  log(
    formatTable(
      ['decoder', 'version', '>messages/s', '>median ms', '>decoded', `>vs ${BASELINE}`, '>retained', '>B/msg'],
      rows,
    )
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n'),
  );
  log(`  retained: heap + external memory held by an array of every decoded object (ais-stream-decoder: its JSON output parsed)`);
  for (const result of results) {
    if (result.status !== 'ok') log(`  ${result.label} ${result.status}: ${result.reason ?? 'no reason given'}`);
  }

  // Decoded counts by type against what the corpus holds; '≠' marks a count that matches with MMSIs that do not.
  const withTypes = results.filter((result) => result.byType !== undefined);
  if (withTypes.length === 0) return;
  log('');
  log('  Decoded messages by type (from the memory pass; ≠: same count but different MMSIs than encoded)');
  const types = Object.keys(corpus.messagesByType).map(Number).sort((a, b) => a - b);
  const typeRows = types.map((type) => {
    const expected = corpus.messagesByType[type]!;
    return [
      String(type),
      formatInt(expected),
      ...withTypes.map((result) => {
        const tally = result.byType![type];
        if (tally === undefined) return '0';
        const sumDiffers = tally.count === expected && tally.mmsiSum !== corpus.mmsiSumByType[type];
        return `${formatInt(tally.count)}${sumDiffers ? ' ≠' : ''}`;
      }),
    ];
  });
  log(
    formatTable(['type', '>encoded', ...withTypes.map((result) => `>${result.label}`)], typeRows)
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n'),
  );
  for (const result of withTypes) {
    const gaps = types
      .map((type) => ({ type, expected: corpus.messagesByType[type]!, got: result.byType![type]?.count ?? 0 }))
      .filter((entry) => entry.got !== entry.expected);
    if (gaps.length === 0) continue;
    const missing = gaps.reduce((sum, entry) => sum + entry.expected - entry.got, 0);
    log(
      `  ${result.label}: ${formatInt(missing)} messages not decoded (${((missing / corpus.messages) * 100).toFixed(1)}%): ` +
        gaps.map((entry) => `type ${entry.type} ${formatInt(entry.got)}/${formatInt(entry.expected)}`).join(', '),
    );
  }
}

function headlineOf(results: ContenderResult[], haveBaseline: boolean): string[] {
  const lines: string[] = [];
  for (const result of results) {
    if (result.status !== 'ok') {
      lines.push(`${result.label}: ${result.status} (${result.reason ?? ''})`);
      continue;
    }
    if (result.label === BASELINE) {
      lines.push(`${BASELINE} (baseline): ${formatInt(result.messagesPerSecond!)} messages/s`);
      continue;
    }
    const speed = `${formatInt(result.messagesPerSecond!)} messages/s`;
    const decodeOnly = result.label === 'LAMIS decodeAisPayload' ? ', decode only' : '';
    lines.push(
      haveBaseline
        ? `${result.label}: ${formatRatio(result.vsBaseline!)} ${BASELINE} (${speed}${decodeOnly})`
        : `${result.label}: ${speed}${decodeOnly} (no baseline)`,
    );
  }
  return lines;
}

if (import.meta.main) await runAsScript('ais-decode', { description, run });
