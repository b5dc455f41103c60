import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { anyRawMessage } from './arbitraries.ts';
import { decodeAisPayload } from './decode.ts';
import { encodeAisSentences } from './encode.ts';
import { buildAisSentences, checksumHex, nmeaChecksum } from './nmea.ts';
import { AisPipeline } from './pipeline.ts';
import type { AisPipelineCounts } from './pipeline.ts';
import { AIS_REJECT_REASONS } from './reasons.ts';

const ARBITRARY_STRING_RUNS = 5000;
const MUTATION_RUNS = 3000;
const PAYLOAD_FUZZ_RUNS = 5000;

const TYPE_1 = '!AIVDM,1,1,,B,177KQJ5000G?tO`K>RA1wUbN0TKH,0*5C';
const TYPE_5 = [
  '!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C',
  '!AIVDM,2,2,1,A,88888888880,2*25',
];

function rejectedTotal(counts: AisPipelineCounts): number {
  return AIS_REJECT_REASONS.reduce((sum, reason) => sum + counts.rejected[reason], 0);
}

/** Every line is accepted, pending, or rejected for exactly one reason. */
function assertBalanced(counts: AisPipelineCounts): void {
  assert.equal(counts.lines, counts.accepted + counts.pending + rejectedTotal(counts), JSON.stringify(counts));
  assert.ok(counts.pending >= 0);
}

function sentence(body: string): string {
  return `!${body}*${checksumHex(nmeaChecksum(body))}`;
}

test('decodes lines and reports the metadata of each message', () => {
  const pipeline = new AisPipeline();
  const plain = pipeline.push(`${TYPE_1}\r\n`, 1_000, 'feed-a');
  assert.ok(plain);
  assert.equal(plain.message.mmsi, 477553000);
  assert.equal(plain.source, 'feed-a');
  assert.equal(plain.feedId, 'feed-a');
  assert.equal(plain.channel, 'B');
  assert.equal(plain.receivedAt, 1_000);
  assert.equal(plain.tagTime, null);
  assert.deepEqual(plain.sentences.map((s) => s.line), [TYPE_1]);

  const tagged = buildAisSentences('55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp888888888880', 2, {
    sequenceId: 1,
    tagBlock: { source: 'base-7', time: 1_426_255_375_000, groupId: 12 },
  });
  assert.equal(pipeline.push(tagged[0]!, 2_000, 'feed-a'), null);
  const voyage = pipeline.push(tagged[1]!, 2_500, 'feed-a');
  assert.ok(voyage);
  assert.equal(voyage.message.type, 5);
  assert.equal(voyage.source, 'base-7');
  assert.equal(voyage.tagTime, 1_426_255_375_000);
  assert.equal(voyage.receivedAt, 2_500);
  assert.equal(voyage.sentences.length, 2);

  assert.deepEqual(pipeline.counts.messagesByType, { 1: 1, 5: 1 });
  assert.equal(pipeline.counts.messages, 2);
  assert.equal(pipeline.counts.accepted, 3);
  assertBalanced(pipeline.counts);
});

test('counts every rejected line under its reason', () => {
  const pipeline = new AisPipeline({ timeoutMs: 10_000 });
  const lines: [string, number][] = [
    ['', 0],
    ['$GPRMC,213950.00,A,5250.53669,N,00542.34920,E,0.020,,070420,,,A*7D', 0],
    ['random noise', 0],
    [TYPE_1.replace('*5C', '*00'), 0],
    [sentence('AIVDM,1,1,,A,15M67FC000G?ufbE,9'), 0],
    [TYPE_5[0]!, 0],
    [TYPE_5[0]!, 1], // duplicate fragment
    [sentence('AIVDM,1,1,,A,73aBL800RW?;,0'), 2], // type 7: not decoded here
    [sentence('AIVDM,1,1,,A,15M67FC000G?ufbE,0'), 3], // type 1, 96 bits
    [sentence('AIVDM,2,1,4,B,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0'), 4],
  ];
  for (const [line, time] of lines) assert.equal(pipeline.push(line, time, 'f'), null);
  assert.equal(pipeline.counts.pending, 2);
  pipeline.expire(20_000); // both groups time out: 2 fragments
  assert.deepEqual(pipeline.counts.rejected, {
    empty: 1,
    not_ais: 1,
    framing: 1,
    checksum: 1,
    invalid_payload: 1,
    duplicate: 1,
    unknown_type: 1,
    payload_too_short: 1,
    incomplete_group: 2,
  });
  assert.equal(pipeline.counts.pending, 0);
  assert.equal(pipeline.counts.lines, lines.length);
  assertBalanced(pipeline.counts);
});

test('a late fragment after its group timed out is counted, not decoded into garbage', () => {
  const pipeline = new AisPipeline();
  assert.equal(pipeline.push(TYPE_5[0]!, 0), null);
  assert.equal(pipeline.push(TYPE_5[1]!, 10_001), null);
  assert.equal(pipeline.counts.rejected.incomplete_group, 1);
  assert.equal(pipeline.counts.pending, 1);
  assertBalanced(pipeline.counts);
});

test('the pending-group cap counts evicted fragments as incomplete', () => {
  const pipeline = new AisPipeline({ maxPendingGroups: 2 });
  for (let id = 0; id < 5; id++) {
    pipeline.push(sentence(`AIVDM,2,1,${id},A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0`), id);
  }
  assert.equal(pipeline.counts.pending, 2);
  assert.equal(pipeline.counts.rejected.incomplete_group, 3);
  assertBalanced(pipeline.counts);
});

test('decodeLines yields the messages of a replay', () => {
  const pipeline = new AisPipeline();
  const messages = [...pipeline.decodeLines(['# comment', TYPE_1, ...TYPE_5, 'x'], 0, 'file')];
  assert.deepEqual(messages.map((m) => m.message.type), [1, 5]);
  assert.equal(pipeline.counts.lines, 5);
  assertBalanced(pipeline.counts);
});

test(`fuzz: arbitrary strings never throw and are always accounted for (${ARBITRARY_STRING_RUNS} runs)`, () => {
  const nmeaish = fc.string({ unit: fc.constantFrom(...'!$\\*,:-AIVDMOBS0123456789ABCDEFw`@?<>gcs \r\n'), maxLength: 120 });
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), nmeaish), { maxLength: 20 }), fc.nat(100_000), (lines, time) => {
      const pipeline = new AisPipeline();
      for (const line of lines) pipeline.push(line, time, 'fuzz');
      assertBalanced(pipeline.counts);
      assert.equal(pipeline.counts.lines, lines.length);
    }),
    { numRuns: ARBITRARY_STRING_RUNS },
  );
});

type Mutation =
  | { kind: 'replace'; at: number; char: string }
  | { kind: 'delete'; at: number }
  | { kind: 'insert'; at: number; char: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'payload'; at: number; char: string }
  | { kind: 'duplicate' }
  | { kind: 'drop' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), char: fc.string({ minLength: 1, maxLength: 1, unit: 'binary-ascii' }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: fc.constantFrom(',', '*', '!', '\\', '0', 'w', ' ') }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  // Changes a payload character and fixes the checksum, so the mutation reaches the decoder.
  fc.record({ kind: fc.constant('payload' as const), at: fc.nat(), char: fc.constantFrom(...'0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVW`abcdefghijklmnopqrstuvw') }),
  fc.constant({ kind: 'duplicate' as const }),
  fc.constant({ kind: 'drop' as const }),
);

function mutate(lines: string[], target: number, change: Mutation): string[] {
  const out = [...lines];
  const index = target % out.length;
  const line = out[index]!;
  const at = line.length === 0 ? 0 : change.kind === 'duplicate' || change.kind === 'drop' ? 0 : change.at % line.length;
  switch (change.kind) {
    case 'replace':
      out[index] = line.slice(0, at) + change.char + line.slice(at + 1);
      break;
    case 'delete':
      out[index] = line.slice(0, at) + line.slice(at + 1);
      break;
    case 'insert':
      out[index] = line.slice(0, at) + change.char + line.slice(at);
      break;
    case 'truncate':
      out[index] = line.slice(0, at);
      break;
    case 'payload': {
      const fields = line.slice(1, line.indexOf('*')).split(',');
      const payload = fields[5] ?? '';
      if (payload.length === 0) break;
      const position = change.at % payload.length;
      fields[5] = payload.slice(0, position) + change.char + payload.slice(position + 1);
      out[index] = sentence(fields.join(','));
      break;
    }
    case 'duplicate':
      out.splice(index, 0, line);
      break;
    case 'drop':
      out.splice(index, 1);
      break;
  }
  return out;
}

test(`fuzz: mutated valid sentences never throw and are decoded or counted as rejected (${MUTATION_RUNS} runs)`, () => {
  fc.assert(
    fc.property(
      fc.array(anyRawMessage, { minLength: 1, maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 10, max: 60 }),
      (messages, changes, maxPayloadChars) => {
        let lines = messages.flatMap((raw, id) => encodeAisSentences(raw, { sequenceId: id % 10, maxPayloadChars }));
        for (const [target, change] of changes) if (lines.length > 0) lines = mutate(lines, target, change);
        const pipeline = new AisPipeline();
        let decoded = 0;
        for (const line of lines) {
          const message = pipeline.push(line, 0, 'fuzz');
          if (message !== null) {
            decoded++;
            assert.ok(message.sentences.length >= 1);
          }
        }
        assertBalanced(pipeline.counts);
        assert.equal(pipeline.counts.messages, decoded);
        pipeline.expire(Number.MAX_SAFE_INTEGER);
        assert.equal(pipeline.counts.pending, 0);
        assertBalanced(pipeline.counts);
      },
    ),
    { numRuns: MUTATION_RUNS },
  );
});

test(`fuzz: the decoder takes any payload and fill without throwing (${PAYLOAD_FUZZ_RUNS} runs)`, () => {
  const reasons = new Set<string>(AIS_REJECT_REASONS);
  fc.assert(
    fc.property(fc.string({ unit: 'binary-ascii', maxLength: 200 }), fc.integer({ min: -2, max: 8 }), (payload, fill) => {
      const result = decodeAisPayload(payload, fill);
      if (!result.ok) assert.ok(reasons.has(result.reason));
    }),
    { numRuns: PAYLOAD_FUZZ_RUNS },
  );
});
