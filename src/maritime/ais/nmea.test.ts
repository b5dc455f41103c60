import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAisSentences, checksumHex, formatTagBlock, nmeaChecksum, parseAisSentence } from './nmea.ts';
import type { AisSentence } from './nmea.ts';

const TYPE_1 = '!AIVDM,1,1,,B,177KQJ5000G?tO`K>RA1wUbN0TKH,0*5C';

function framed(line: string): AisSentence {
  const result = parseAisSentence(line);
  assert.ok(result.ok, `expected ${JSON.stringify(line)} to frame, got ${result.ok ? '' : result.reason}`);
  return result.sentence;
}

function rejected(line: string): string {
  const result = parseAisSentence(line);
  assert.equal(result.ok, false, `expected ${JSON.stringify(line)} to be rejected`);
  return result.ok ? '' : result.reason;
}

/** A sentence with a correct checksum around `body` (the text between ! and *). */
function sentence(body: string): string {
  return `!${body}*${checksumHex(nmeaChecksum(body))}`;
}

test('frames a single-sentence AIVDM', () => {
  const s = framed(TYPE_1);
  assert.equal(s.talker, 'AI');
  assert.equal(s.formatter, 'VDM');
  assert.equal(s.fragmentCount, 1);
  assert.equal(s.fragmentNumber, 1);
  assert.equal(s.sequenceId, null);
  assert.equal(s.channel, 'B');
  assert.equal(s.payload, '177KQJ5000G?tO`K>RA1wUbN0TKH');
  assert.equal(s.fillBits, 0);
  assert.equal(s.tagBlock, null);
  assert.equal(s.trailer, '');
  assert.equal(s.line, TYPE_1);
});

test('accepts any two-letter talker, VDO, and fragment fields', () => {
  for (const talker of ['AB', 'BS', 'SA', 'AN', 'AR', 'AX']) assert.equal(framed(sentence(`${talker}VDM,1,1,,A,15M67FC000G?ufbE,0`)).talker, talker);
  const own = framed(sentence('AIVDO,1,1,,,B39i>1000nTu;gQAlBj:wwS5kP06,0'));
  assert.equal(own.formatter, 'VDO');
  assert.equal(own.channel, '');
  const fragment = framed(sentence('AIVDM,2,2,7,2,EQC`4Sm51A0C@08,2'));
  assert.deepEqual([fragment.fragmentCount, fragment.fragmentNumber, fragment.sequenceId, fragment.channel, fragment.fillBits], [2, 2, 7, '2', 2]);
  assert.equal(framed(sentence('AIVDM,1,1,,1,15M67FC000G?ufbE,0')).channel, '1');
});

test('verifies the checksum, in either case of hex', () => {
  assert.equal(rejected(TYPE_1.replace('*5C', '*5D')), 'checksum');
  assert.equal(rejected(TYPE_1.replace('177KQJ', '177KQK')), 'checksum');
  assert.equal(rejected(TYPE_1.replace('*5C', '*')), 'framing');
  assert.equal(rejected(TYPE_1.replace('*5C', '*5')), 'framing');
  assert.equal(rejected(TYPE_1.replace('*5C', '')), 'framing');
  assert.equal(rejected(TYPE_1.replace('*5C', '*ZZ')), 'framing');
});

test('lower-case checksum digits are accepted', () => {
  const body = 'AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0';
  const line = `!${body}*${checksumHex(nmeaChecksum(body)).toLowerCase()}`;
  assert.equal(framed(line).payload, '13aEOK?P00PD2wVMdLDRhgvL289?');
});

test('tolerates CRLF, LF and surrounding whitespace', () => {
  for (const line of [`${TYPE_1}\r\n`, `${TYPE_1}\n`, `  \t${TYPE_1}  \r\n`]) {
    const s = framed(line);
    assert.equal(s.line, TYPE_1);
    assert.equal(s.trailer, '');
  }
  assert.equal(rejected(''), 'empty');
  assert.equal(rejected(' \r\n'), 'empty');
});

test('keeps receiver metadata after the checksum without interpreting it', () => {
  const withTime = framed(`${TYPE_1},1241544035`);
  assert.equal(withTime.trailer, ',1241544035');
  assert.equal(withTime.payload, '177KQJ5000G?tO`K>RA1wUbN0TKH');
  const catcher = framed(`${TYPE_1} ( MSG: 1, REPEAT: 0, MMSI: 477553000, signalpower: -40.2, ppm: 0.5) rssi=-40`);
  assert.equal(catcher.trailer, ' ( MSG: 1, REPEAT: 0, MMSI: 477553000, signalpower: -40.2, ppm: 0.5) rssi=-40');
  assert.equal(framed(`${TYPE_1},b003669952,1428671906\r\n`).trailer, ',b003669952,1428671906');
});

test('parses NMEA 4.10 tag blocks with their own checksum', () => {
  const seconds = framed(`${formatTagBlock(['s:rORBCOMM000', 'c:1426255375'])}${TYPE_1}`);
  assert.equal(seconds.tagBlock?.source, 'rORBCOMM000');
  assert.equal(seconds.tagBlock?.time, 1_426_255_375_000);
  assert.equal(seconds.tagBlock?.group, null);
  assert.equal(seconds.payload, '177KQJ5000G?tO`K>RA1wUbN0TKH');

  const millis = framed(`${formatTagBlock(['c:1426255375123', 's:station 7'])}${TYPE_1}`);
  assert.equal(millis.tagBlock?.time, 1_426_255_375_123);
  assert.equal(millis.tagBlock?.source, 'station 7');

  const grouped = framed(`${formatTagBlock(['g:1-2-1234', 'n:42', 'd:dest', 't:hello', 'r:5'])}${TYPE_1}`);
  assert.deepEqual(grouped.tagBlock?.group, { sentence: 1, total: 2, id: '1234' });
  assert.equal(grouped.tagBlock?.lineCount, 42);
  assert.equal(grouped.tagBlock?.destination, 'dest');
  assert.equal(grouped.tagBlock?.text, 'hello');
  assert.equal(grouped.tagBlock?.source, null);
  assert.match(grouped.tagBlock?.raw ?? '', /^g:1-2-1234,n:42,d:dest,t:hello,r:5\*[0-9A-F]{2}$/);
});

test('rejects tag blocks with a bad checksum or malformed content', () => {
  const good = formatTagBlock(['s:r1', 'c:1426255375']);
  const badChecksum = good.replace(/\*([0-9A-F]{2})\\$/, (_, hex: string) => `*${checksumHex(Number.parseInt(hex, 16) ^ 1)}\\`);
  assert.equal(rejected(`${badChecksum}${TYPE_1}`), 'checksum');
  assert.equal(rejected(`\\s:r1,c:1426255375${TYPE_1}`), 'framing'); // never closed
  assert.equal(rejected(`\\s:r1\\${TYPE_1}`), 'framing'); // no checksum
  assert.equal(rejected(`${formatTagBlock(['c:soon'])}${TYPE_1}`), 'framing');
  assert.equal(rejected(`${formatTagBlock(['g:3-2-1'])}${TYPE_1}`), 'framing');
  assert.equal(rejected(`${formatTagBlock(['novalue'])}${TYPE_1}`), 'framing');
  // A good tag block does not excuse a bad sentence checksum.
  assert.equal(rejected(`${good}${TYPE_1.replace('*5C', '*00')}`), 'checksum');
});

test('rejects malformed sentences with a reason', () => {
  assert.equal(rejected('$GPRMC,213950.00,A,5250.53669,N,00542.34920,E,0.020,,070420,,,A*7D'), 'not_ais');
  assert.equal(rejected(sentence('AIVDX,1,1,,A,15M67FC000G?ufbE,0')), 'not_ais');
  assert.equal(rejected('AIVDM,1,1,,A,15M67FC000G?ufbE,0*00'), 'framing');
  assert.equal(rejected('garbage'), 'framing');
  assert.equal(rejected(sentence('AIVDM,1,1,,A,15M67FC000G?ufbE')), 'framing'); // fill bits missing
  assert.equal(rejected(sentence('AIVDM,1,1,,A,15M67FC000G?ufbE,0,extra')), 'framing');
  assert.equal(rejected(sentence('AIVDM,0,1,,A,15M67FC000G?ufbE,0')), 'framing');
  assert.equal(rejected(sentence('AIVDM,2,3,1,A,15M67FC000G?ufbE,0')), 'framing');
  assert.equal(rejected(sentence('AIVDM,x,1,,A,15M67FC000G?ufbE,0')), 'framing');
  assert.equal(rejected(sentence('AIVDM,2,1,x,A,15M67FC000G?ufbE,0')), 'framing');
  assert.equal(rejected(sentence('AIVDM,1,1,,C,15M67FC000G?ufbE,0')), 'framing');
  assert.equal(rejected(sentence('AIVDM,1,1,,A,15M67FC000G?ufbE,6')), 'invalid_payload');
  assert.equal(rejected(sentence('AIVDM,1,1,,A,15M67FC000G?ufbE,')), 'invalid_payload');
  assert.equal(rejected(sentence('AIVDM,1,1,,A,15M67FC00 G?ufbE,0')), 'invalid_payload');
  assert.equal(rejected(sentence('AIVDM,1,1,,A,15M67FC00xG?ufbE,0')), 'invalid_payload');
});

test('builds sentences that frame back, splitting long payloads', () => {
  const payload = '53aGulD0000000c7?0918Tq<E>0<Q8U=@Tp400155P:22uG`002ShTj0EQC`4Sm51A0C@08';
  const lines = buildAisSentences(payload, 2, { sequenceId: 7, channel: 'B' });
  assert.equal(lines.length, 2);
  const parts = lines.map(framed);
  assert.deepEqual(parts.map((p) => [p.fragmentNumber, p.fragmentCount, p.sequenceId, p.channel, p.fillBits]), [
    [1, 2, 7, 'B', 0],
    [2, 2, 7, 'B', 2],
  ]);
  assert.equal(parts.map((p) => p.payload).join(''), payload);
  assert.ok(lines.every((line) => line.length <= 82));

  const single = buildAisSentences('177KQJ5000G?tO`K>RA1wUbN0TKH', 0, { channel: 'B', sequenceId: 3 });
  assert.deepEqual(single, [TYPE_1]); // a single sentence leaves the sequence id empty

  const own = framed(buildAisSentences('B39i>1000nTu;gQAlBj:wwS5kP06', 0, { talker: 'BS', formatter: 'VDO', channel: '' })[0]!);
  assert.deepEqual([own.talker, own.formatter, own.channel], ['BS', 'VDO', '']);
});

test('builds tag blocks on every sentence, with a group for multi-sentence messages', () => {
  const lines = buildAisSentences('5'.repeat(71), 2, {
    sequenceId: 1,
    tagBlock: { source: 'sim', time: 1_700_000_000_999, groupId: 42 },
  });
  const parts = lines.map(framed);
  assert.deepEqual(parts.map((p) => p.tagBlock?.group), [
    { sentence: 1, total: 2, id: '42' },
    { sentence: 2, total: 2, id: '42' },
  ]);
  assert.ok(parts.every((p) => p.tagBlock?.source === 'sim' && p.tagBlock.time === 1_700_000_000_000));
  const single = framed(buildAisSentences('177KQJ5000G?tO`K>RA1wUbN0TKH', 0, { tagBlock: { source: 'sim', groupId: 1 } })[0]!);
  assert.equal(single.tagBlock?.group, null);
});
