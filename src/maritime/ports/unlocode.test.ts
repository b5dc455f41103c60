import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UNLOCODE_CSV } from './fixtures.ts';
import type { UnlocodeEntry } from './model.ts';
import { parseCoordinates, parseUnlocodeCsv } from './unlocode.ts';

test('keeps locations with the port function and coordinates', () => {
  const result = parseUnlocodeCsv(UNLOCODE_CSV);
  assert.ok(result.ok);
  assert.deepEqual(result.entries, [
    { unlocode: 'NLAAA', name: 'Aaahaven', name_ascii: null, country: 'NL', subdivision: 'ZH', status: 'AI', lat: 51.9167, lon: 4.5 },
    { unlocode: 'BRSSZ', name: 'Santos', name_ascii: null, country: 'BR', subdivision: 'SP', status: 'AI', lat: -23.95, lon: -46.3167 },
  ] satisfies UnlocodeEntry[]);
});

test('counts what is not a port, has no coordinates or is withdrawn; rejects what breaks the format', () => {
  const result = parseUnlocodeCsv(UNLOCODE_CSV);
  assert.ok(result.ok);
  assert.deepEqual(result.skipped, { not_port: 1, no_coordinates: 1, withdrawn: 2 });
  assert.deepEqual(result.rejected, [
    { line: 8, reason: 'NLFFF: coordinates "5260N 00410E" are not DDMMN DDDMMW' },
    { line: 9, reason: '"NL" "GG" is not a UN/LOCODE' },
    { line: 10, reason: 'NLAAA again (first on line 2)' },
  ]);
});

test('the name without diacritics is kept when it differs; ISO 8859-1 bytes are read too', () => {
  const row = ',"FR","ZZQ","Sète Port","Sete Port",,"1-------","RL","2301",,"4324N 00342E",""\n';
  const utf8 = parseUnlocodeCsv(Buffer.from(row, 'utf8'));
  const latin1 = parseUnlocodeCsv(Buffer.from(row, 'latin1'));
  assert.ok(utf8.ok && latin1.ok);
  assert.equal(utf8.entries[0]!.name, 'Sète Port');
  assert.equal(utf8.entries[0]!.name_ascii, 'Sete Port');
  assert.deepEqual(latin1.entries, utf8.entries);
});

test('a file of another shape is refused', () => {
  const result = parseUnlocodeCsv('Country,Location,Name\nNL,RTM,Rotterdam\n');
  assert.deepEqual(result, { ok: false, error: 'not a UN/LOCODE code list CSV: its rows have 3 fields, not 12' });
});

test('coordinates are degrees and minutes, south and west negative', () => {
  assert.deepEqual(parseCoordinates('5155N 00430E'), { lat: 51.9167, lon: 4.5 });
  assert.deepEqual(parseCoordinates('0117N 10351E'), { lat: 1.2833, lon: 103.85 });
  assert.deepEqual(parseCoordinates('3352S 15112W'), { lat: -33.8667, lon: -151.2 });
  for (const bad of ['5155N 0430E', '5160N 00430E', '9130N 00000E', '5155X 00430E', '']) assert.equal(parseCoordinates(bad), null, bad);
});
