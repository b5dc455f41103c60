import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AIRPORT_CACHE_FILE,
  AIRPORT_CACHE_FORMAT,
  decodeAirportCache,
  encodeAirportCache,
  readCachedAirports,
  writeCachedAirports,
} from './airports-cache.ts';
import { fixtureMeta, fixtureRecord, fixtureRunway } from './airports-fixtures.ts';
import type { AirportRecord } from './airports-model.ts';

const records = [
  fixtureRecord('K00A', { name: 'Total RF Heliport', type: 'heliport', municipality: 'Bensalem', region: 'US-PA', country: 'US' }, '00A'),
  withRadio(fixtureRecord('LSZH', {
    iata: 'ZRH', name: 'Zürich Airport', municipality: 'Zurich', country: 'CH', type: 'large_airport', lat: 47.46, lon: 8.55,
    elevation_ft: 1416, timezone: 'Europe/Zurich',
    runways: [
      fixtureRunway(),
      fixtureRunway({ id: 1002, designator: null, length_ft: null, width_ft: null, surface: 'UNKNOWN', paved: null, lighted: false, ends: [] }),
    ],
  })),
  fixtureRecord('XCLO', { status: 'closed', type: 'closed', runways: [fixtureRunway({ closed: true, surface: 'GRASS', paved: false })] }),
];
const meta = fixtureMeta(records);

function withRadio(record: AirportRecord): AirportRecord {
  return {
    ...record,
    frequencies: [{ type: 'ATIS', description: null, frequency_mhz: 128.525 }, { type: 'TWR', description: 'Zurich Tower', frequency_mhz: 118.1 }],
    navaids: [{ ident: 'KLO', name: 'Kloten', type: 'VOR-DME', frequency_khz: 114850, lat: 47.45, lon: 8.55, elevation_ft: null }],
  };
}
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lamis-airport-cache-'));
  dirs.push(dir);
  return dir;
}

test('encode then decode gives the same records and meta', () => {
  const decoded = decodeAirportCache(encodeAirportCache(records, meta), meta.source);
  assert.ok(!('reason' in decoded));
  assert.deepEqual(decoded.records, records);
  assert.deepEqual(decoded.meta, meta);
});

test('a cache from another package release, build, OurAirports file or format is stale', () => {
  const text = encodeAirportCache(records, meta);
  assert.deepEqual(decodeAirportCache(text, { ...meta.source, ourairports: 'a'.repeat(64) }), { reason: 'stale' });
  assert.deepEqual(decodeAirportCache(text, { ...meta.source, version: '9.9.10' }), { reason: 'stale' });
  assert.deepEqual(decodeAirportCache(text, { ...meta.source, bytes: 1235 }), { reason: 'stale' });
  assert.deepEqual(decodeAirportCache(text, { ...meta.source, package: 'other' }), { reason: 'stale' });
  const older = text.replace(`"format":${AIRPORT_CACHE_FORMAT}`, `"format":${AIRPORT_CACHE_FORMAT - 1}`);
  assert.notEqual(older, text);
  assert.deepEqual(decodeAirportCache(older, meta.source), { reason: 'stale' });
});

test('damaged caches are corrupt', () => {
  const text = encodeAirportCache(records, meta);
  const damaged = [
    '',
    'not json',
    text.slice(0, text.length / 2),
    '[]',
    '{"header":{}}',
    text.replace('"large_airport"', '"spaceport"'),
    text.replace('"ASPHALT"', '"TARMAC"'),
    text.replace('"reciprocal"', '"guess"'),
    text.replace('"Zürich Airport"', '42'),
    text.replace('1416', '"1416"'),
    // An airport tuple one field short.
    text.replace('"Europe/Zurich",', ''),
    // A runway lost from a well-formed file no longer matches the header's count.
    text.replace(`,${JSON.stringify([1002, null, null, 'UNKNOWN', false, false, []])}`, ''),
  ];
  for (const variant of damaged) {
    assert.notEqual(variant, text);
    assert.deepEqual(decodeAirportCache(variant, meta.source), { reason: 'corrupt' }, variant.slice(0, 80));
  }
});

test('write then read through the file system; no temporary file is left', async () => {
  const dir = join(temporaryDir(), 'nested', 'cache');
  assert.deepEqual(await readCachedAirports(dir, meta.source), { ok: false, file: join(dir, AIRPORT_CACHE_FILE), reason: 'missing' });
  assert.equal(await writeCachedAirports(dir, records, meta), true);
  assert.deepEqual(readdirSync(dir), [AIRPORT_CACHE_FILE]);
  const read = await readCachedAirports(dir, meta.source);
  assert.ok(read.ok);
  assert.deepEqual(read.records, records);
  assert.equal(readFileSync(read.file, 'utf8'), encodeAirportCache(records, meta));
});

test('an unwritable cache folder is reported, not thrown', async () => {
  const dir = temporaryDir();
  const file = join(dir, 'occupied');
  writeFileSync(file, 'a file where the cache folder should be');
  assert.equal(await writeCachedAirports(join(file, 'cache'), records, meta), false);
  assert.deepEqual(readdirSync(dir), ['occupied']);
});
