// Conformance against gpsd: every message of a supported type in gpsd's regression captures must
// decode to the same values gpsd reports (unscaled JSON), field by field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sharedFile } from '../support/shared.ts';
import { AisPipeline } from '../../src/maritime/ais/pipeline.ts';
import type { AisPipelineMessage } from '../../src/maritime/ais/pipeline.ts';
import { decodeAisPayload } from '../../src/maritime/ais/decode.ts';
import { aidTypeText, epfdText, navStatusText, shipTypeText } from '../../src/maritime/ais/codes.ts';
import { SixBitReader } from '../../src/maritime/ais/sixbit.ts';
import { SUPPORTED_AIS_TYPES } from '../../src/maritime/ais/types.ts';

interface Pair {
  file: string;
  sentences: string[];
  expected: Record<string, unknown>;
}

const pairs = sharedFile('conformance/ais/gpsd-daemon-pairs.jsonl');

/** gpsd JSON keys that describe the report rather than the message. */
const REPORT_KEYS = new Set(['class', 'scaled']);
/** Keys of the type 6 / 8 envelope; gpsd's other keys there come from its DAC/FID-specific decoders. */
const BINARY_ENVELOPE_KEYS: Record<number, Set<string>> = {
  6: new Set(['type', 'repeat', 'mmsi', 'seqno', 'dest_mmsi', 'retransmit', 'dac', 'fid', 'data']),
  8: new Set(['type', 'repeat', 'mmsi', 'dac', 'fid', 'data']),
};

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** Shipname gpsd merges into each type 24 part B: the latest earlier part A of that MMSI in the capture. */
function partAShipnames(logPath: string): Map<string, string> {
  const byPartB = new Map<string, string>();
  const partA = new Map<number, string>();
  const pipeline = new AisPipeline();
  for (const line of readFileSync(logPath, 'utf8').split('\n')) {
    const decoded = pipeline.push(line, 0, 'replay');
    if (decoded === null || decoded.message.type !== 24) continue;
    const raw = decoded.message.raw;
    if (raw.partno === 0) {
      partA.set(raw.mmsi, raw.shipname);
    } else {
      const shipname = partA.get(raw.mmsi);
      // gpsd forgets a part A once merged, so a repeated part B is not merged again.
      partA.delete(raw.mmsi);
      if (shipname !== undefined) byPartB.set(decoded.sentences.map((s) => s.line).join('\n'), shipname);
    }
  }
  return byPartB;
}

/** Our decode expressed in gpsd's field names and formats. */
function asGpsd(decoded: AisPipelineMessage, mergedShipname: string | undefined): Record<string, unknown> {
  const message = decoded.message;
  const raw = message.raw as unknown as Record<string, unknown>;
  const view: Record<string, unknown> = { ...raw };
  switch (message.type) {
    case 1:
    case 2:
    case 3:
      view.status_text = navStatusText(message.raw.status);
      break;
    case 4:
    case 11: {
      const r = message.raw;
      view.timestamp = `${pad(r.year, 4)}-${pad(r.month)}-${pad(r.day)}T${pad(r.hour)}:${pad(r.minute)}:${pad(r.second)}Z`;
      view.epfd_text = epfdText(r.epfd);
      break;
    }
    case 5: {
      const r = message.raw;
      view.eta = `${pad(r.month)}-${pad(r.day)}T${pad(r.hour)}:${pad(r.minute)}Z`;
      view.shiptype_text = shipTypeText(r.shiptype);
      view.epfd_text = epfdText(r.epfd);
      break;
    }
    case 6:
    case 8:
      view.data = `${message.raw.data_bits}:${message.raw.data}`;
      break;
    case 19:
      view.shiptype_text = shipTypeText(message.raw.shiptype);
      view.epfd_text = epfdText(message.raw.epfd);
      break;
    case 21:
      view.aid_type_text = aidTypeText(message.raw.aid_type);
      view.epfd_text = epfdText(message.raw.epfd);
      break;
    case 24:
      if (message.raw.partno === 1) {
        view.shiptype_text = shipTypeText(message.raw.shiptype);
        // gpsd keeps the pre-2010 layout: a 7-character vendor id over the bits that now hold
        // model and serial. Read the same 42 bits as text for the comparison.
        const reader = new SixBitReader();
        const payload = decoded.sentences.map((s) => s.payload).join('');
        reader.reset(payload, decoded.sentences[decoded.sentences.length - 1]!.fillBits);
        const legacyVendorId = reader.text(48, 7);
        // Our three-character id must be the start of the same bits read gpsd's way.
        view.vendorid = legacyVendorId.startsWith(message.raw.vendorid) ? legacyVendorId : `${message.raw.vendorid} (ours)`;
        if (mergedShipname !== undefined) view.shipname = mergedShipname;
      }
      break;
    default:
      break;
  }
  return view;
}

test('gpsd AIS conformance: every field gpsd reports matches the raw view', { skip: pairs.skip }, (t) => {
  const lines = readFileSync(pairs.path!, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const supported = new Set(SUPPORTED_AIS_TYPES);
  const shipnamesByFile = new Map<string, Map<string, string>>();
  const mismatches: string[] = [];
  const matchedByType = new Map<number, number>();
  const unsupportedByType = new Map<number, number>();
  let checked = 0;
  let matched = 0;
  let fieldsCompared = 0;
  let applicationFieldsSkipped = 0;

  for (const [index, line] of lines.entries()) {
    const pair = JSON.parse(line) as Pair;
    const type = pair.expected.type as number;
    const where = `line ${index + 1} (${pair.file}, type ${type})`;
    if (!supported.has(type)) {
      // Not decoded by design: the decoder must say so rather than produce something.
      const sentence = pair.sentences.map((s) => s.split(',')[5]).join('');
      const fill = Number(pair.sentences[pair.sentences.length - 1]!.split(',')[6]!.charAt(0));
      const result = decodeAisPayload(sentence, fill);
      if (result.ok || result.reason !== 'unknown_type') mismatches.push(`${where}: unsupported type not rejected as unknown_type`);
      unsupportedByType.set(type, (unsupportedByType.get(type) ?? 0) + 1);
      continue;
    }
    checked++;
    const pipeline = new AisPipeline();
    let decoded: AisPipelineMessage | null = null;
    for (const sentence of pair.sentences) decoded = pipeline.push(sentence, 0, 'conformance') ?? decoded;
    if (decoded === null) {
      mismatches.push(`${where}: not decoded (${JSON.stringify(pipeline.counts.rejected)})`);
      continue;
    }

    let mergedShipname: string | undefined;
    if (type === 24) {
      const log = sharedFile(`conformance/ais/gpsd-daemon/${pair.file.replace(/\.chk$/, '')}`);
      assert.ok(log.path, `capture for ${pair.file} is missing`);
      let byPartB = shipnamesByFile.get(pair.file);
      if (byPartB === undefined) {
        byPartB = partAShipnames(log.path);
        shipnamesByFile.set(pair.file, byPartB);
      }
      mergedShipname = byPartB.get(decoded.sentences.map((s) => s.line).join('\n'));
    }

    const ours = asGpsd(decoded, mergedShipname);
    const envelope = BINARY_ENVELOPE_KEYS[type];
    let same = true;
    for (const [key, expected] of Object.entries(pair.expected)) {
      if (REPORT_KEYS.has(key)) continue;
      if (envelope !== undefined && !envelope.has(key)) {
        applicationFieldsSkipped++;
        continue;
      }
      fieldsCompared++;
      if (!Object.hasOwn(ours, key)) {
        same = false;
        mismatches.push(`${where}: field ${key} not decoded (gpsd: ${JSON.stringify(expected)})`);
      } else if (ours[key] !== expected) {
        same = false;
        mismatches.push(`${where}: ${key} = ${JSON.stringify(ours[key])}, gpsd ${JSON.stringify(expected)}`);
      }
    }
    if (same) {
      matched++;
      matchedByType.set(type, (matchedByType.get(type) ?? 0) + 1);
    }
  }

  const types = [...matchedByType.keys()].sort((a, b) => a - b);
  const unsupported = [...unsupportedByType.entries()].sort((a, b) => a[0] - b[0]);
  t.diagnostic(
    `gpsd conformance: ${matched.toLocaleString('en')} of ${checked.toLocaleString('en')} messages of supported types ` +
      `match on every field (types: ${types.map((type) => `${type}×${matchedByType.get(type)}`).join(', ')}); ` +
      `${fieldsCompared.toLocaleString('en')} fields compared`,
  );
  t.diagnostic(
    `not compared: ${applicationFieldsSkipped} DAC/FID-specific application fields of types 6/8 (envelope-only decode); ` +
      `unsupported types rejected as unknown_type: ${unsupported.map(([type, count]) => `${type}×${count}`).join(', ')}`,
  );
  assert.equal(mismatches.length, 0, `${mismatches.length} mismatches, first ones:\n${mismatches.slice(0, 15).join('\n')}`);
  assert.equal(matched, checked);
});
