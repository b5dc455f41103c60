import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { anyRawMessage, RAW_MESSAGE_ARBITRARIES } from './arbitraries.ts';
import { decodeAisPayload } from './decode.ts';
import { encodeAisPayload, encodeAisSentences } from './encode.ts';
import { parseAisSentence } from './nmea.ts';
import { AisPipeline } from './pipeline.ts';
import type { AisRaw, StaticVoyageRaw } from './types.ts';

const ROUND_TRIP_RUNS = 1000;
const SENTENCE_RUNS = 1000;

for (const [name, arbitrary] of Object.entries(RAW_MESSAGE_ARBITRARIES)) {
  test(`${name}: decode(encode(raw)) gives the raw values back (property, ${ROUND_TRIP_RUNS} runs)`, () => {
    fc.assert(
      fc.property(arbitrary, (raw: AisRaw) => {
        const { payload, fillBits } = encodeAisPayload(raw);
        const decoded = decodeAisPayload(payload, fillBits);
        assert.ok(decoded.ok, `rejected: ${decoded.ok ? '' : decoded.reason}`);
        assert.deepEqual(decoded.message.raw, { ...raw });
        assert.equal(decoded.message.type, raw.type);
        assert.equal(decoded.message.mmsi, raw.mmsi);
      }),
      { numRuns: ROUND_TRIP_RUNS },
    );
  });
}

test(`encoded sentences frame, assemble in any order and decode back (property, ${SENTENCE_RUNS} runs)`, () => {
  const options = fc.record({
    sequenceId: fc.integer({ min: 0, max: 9 }),
    channel: fc.constantFrom('A', 'B', '1', '2', ''),
    maxPayloadChars: fc.integer({ min: 8, max: 60 }),
    talker: fc.constantFrom('AI', 'AB', 'BS', 'SA'),
    formatter: fc.constantFrom('VDM' as const, 'VDO' as const),
    tagBlock: fc.option(fc.record({ source: fc.constantFrom('rx1', 'station-7'), time: fc.integer({ min: 0, max: 2_000_000_000_000 }), groupId: fc.nat(9999) }), { nil: undefined }),
  });
  fc.assert(
    fc.property(anyRawMessage, options, fc.integer(), (raw, sentenceOptions, shuffleSeed) => {
      const lines = encodeAisSentences(raw, sentenceOptions);
      // Sentences stay within the requested size unless that would take more than 9 of them.
      const chunk = Math.max(sentenceOptions.maxPayloadChars, Math.ceil(encodeAisPayload(raw).payload.length / 9));
      for (const line of lines) {
        const framed = parseAisSentence(line);
        assert.ok(framed.ok, line);
        assert.ok(framed.sentence.payload.length <= chunk);
        assert.ok(framed.sentence.fragmentCount <= 9);
      }
      // Fragments may arrive in any order.
      const shuffled = lines
        .map((line, index) => ({ line, key: Math.imul(index + 1, shuffleSeed | 1) >>> 0 }))
        .sort((a, b) => a.key - b.key)
        .map((entry) => entry.line);
      const pipeline = new AisPipeline();
      const decoded = shuffled.map((line) => pipeline.push(line, 0, 'sim')).filter((message) => message !== null);
      assert.equal(decoded.length, 1);
      assert.deepEqual(decoded[0]!.message.raw, { ...raw });
      assert.equal(decoded[0]!.sentences.length, lines.length);
      if (sentenceOptions.tagBlock) assert.equal(decoded[0]!.source, sentenceOptions.tagBlock.source);
      assert.equal(pipeline.counts.accepted, lines.length);
      assert.equal(pipeline.counts.pending, 0);
    }),
    { numRuns: SENTENCE_RUNS },
  );
});

test('type 5 takes two sentences with the given sequence id, channel and valid checksums', () => {
  const raw: StaticVoyageRaw = {
    type: 5,
    repeat: 0,
    mmsi: 351759000,
    ais_version: 0,
    imo: 9134270,
    callsign: '3FOF8',
    shipname: 'EVER DIADEM',
    shiptype: 70,
    to_bow: 225,
    to_stern: 70,
    to_port: 1,
    to_starboard: 31,
    epfd: 1,
    month: 5,
    day: 15,
    hour: 14,
    minute: 0,
    draught: 122,
    destination: 'NEW YORK',
    dte: 0,
  };
  const { payload, fillBits } = encodeAisPayload(raw);
  assert.equal(payload.length, 71);
  assert.equal(fillBits, 2);
  const lines = encodeAisSentences(raw, { sequenceId: 1, channel: 'A' });
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /^!AIVDM,2,1,1,A,[0-9:;<=>?@A-W`a-w]{60},0\*[0-9A-F]{2}$/);
  assert.match(lines[1]!, /^!AIVDM,2,2,1,A,[0-9:;<=>?@A-W`a-w]{11},2\*[0-9A-F]{2}$/);
  // The well-known EVER DIADEM sample pads its text with spaces where the encoder writes '@'
  // (as ITU-R M.1371 asks); both decode to the same fields.
  const pipeline = new AisPipeline();
  pipeline.push('!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C', 0);
  const sample = pipeline.push('!AIVDM,2,2,1,A,88888888880,2*25', 0);
  assert.deepEqual(sample?.message.raw, raw);
});

test('type 1 encodes to the well-known sample sentence', () => {
  const lines = encodeAisSentences(
    {
      type: 1,
      repeat: 0,
      mmsi: 477553000,
      status: 5,
      turn: 0,
      speed: 0,
      accuracy: false,
      lon: -73407500,
      lat: 28549700,
      course: 510,
      heading: 181,
      second: 15,
      maneuver: 0,
      raim: false,
      radio: 149208,
    },
    { channel: 'B' },
  );
  assert.deepEqual(lines, ['!AIVDM,1,1,,B,177KQJ5000G?tO`K>RA1wUbN0TKH,0*5C']);
});
