import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { REFERENCE_CACHE } from '../../../test/support/server.ts';
import { airportConditions } from '../landing/conditions.ts';
import { sharedFile } from '../../../test/support/shared.ts';
import { airportDataSource, compileAirports } from './airports-compile.ts';
import { createAirportIndex } from './airports-index.ts';
import { loadAirports } from './airports.ts';
import { FREQUENCIES_CSV, NAVAIDS_CSV, RUNWAYS_CSV } from './ourairports-fixtures.ts';
import {
  COMMITTED_OURAIRPORTS_FILE,
  currentOurAirportsFile,
  decodeOurAirports,
  encodeOurAirports,
  OURAIRPORTS_FORMAT,
  parseFrequenciesCsv,
  parseNavaidsCsv,
  parseRunwaysCsv,
  syncedOurAirportsFile,
  writeOurAirports,
  type OurAirportsData,
  type ParsedPart,
} from './ourairports.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'lamis-ourairports-'));
after(() => rmSync(folder, { recursive: true, force: true }));

function rowsOf<T>(parsed: ParsedPart<T>): T[] {
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.rows;
}

function fixtureData(compiledAt: string): OurAirportsData {
  const part = { from: 'fixture', read_at: compiledAt, rows: 0 };
  return {
    header: { format: OURAIRPORTS_FORMAT, compiled_at: compiledAt, parts: { runways: part, frequencies: part, navaids: part } },
    runways: rowsOf(parseRunwaysCsv(RUNWAYS_CSV)),
    frequencies: rowsOf(parseFrequenciesCsv(FREQUENCIES_CSV)),
    navaids: rowsOf(parseNavaidsCsv(NAVAIDS_CSV)),
  };
}

describe('reading the OurAirports CSV files', () => {
  test('runways: both ends with position, heading and displaced threshold; blanks are null; a row without an id is rejected by line', () => {
    const parsed = parseRunwaysCsv(RUNWAYS_CSV);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.rows[0], [239399, 'EGLL', 12799, 164, 'ASP', true, false,
      ['09L', 51.47749, -0.489439, 79, 90, 1007], ['27R', 51.477681, -0.433227, 78, 270, 500]]);
    assert.deepEqual(parsed.rows[4], [260073, 'BGAA', 2621, null, 'UNK', false, false, ['12', null, null, 71, null, null], ['30', null, null, 66, null, null]]);
    assert.equal(parsed.rows[3]![6], true, 'KGAD 18/36 is closed');
    assert.deepEqual(parsed.rejected, [{ line: 7, reason: 'runway id "" is not a whole number' }]);
  });

  test('frequencies and navaids: MHz and kHz as published, positions to six decimals', () => {
    const frequencies = parseFrequenciesCsv(FREQUENCIES_CSV);
    assert.ok(frequencies.ok);
    assert.deepEqual(frequencies.rows[0], ['EGLL', 'TWR', 'Heathrow Tower', 118.5]);
    assert.deepEqual(frequencies.rejected.map((row) => row.line), [5]);
    const navaids = parseNavaidsCsv(NAVAIDS_CSV);
    assert.ok(navaids.ok);
    assert.deepEqual(navaids.rows, [
      ['LON', 'London', 'VOR-DME', 113600, 51.487202, -0.466667, 110, 'GB', '083X', 'EGLL'],
      ['1B', 'Sable Island', 'NDB', 277, 43.930599, -60.0229, null, 'CA', null, null],
    ]);
  });

  test('a file that is not the expected one is refused, naming the missing columns', () => {
    const wrong = parseRunwaysCsv(FREQUENCIES_CSV);
    assert.ok(!wrong.ok);
    assert.match(wrong.error, /^not an OurAirports file: no "id"|no "length_ft"/);
    assert.ok(!parseNavaidsCsv('').ok);
  });

  test('the compact file decodes to what was encoded; the later compiled file is the one in use', async () => {
    const older = fixtureData('2026-01-01T00:00:00.000Z');
    assert.deepEqual(decodeOurAirports(encodeOurAirports(older)), older);
    const committed = path.join(folder, 'committed.json.gz');
    const dataDir = path.join(folder, 'data');
    await writeOurAirports(committed, older);
    assert.equal((await currentOurAirportsFile(dataDir, committed))?.origin, 'committed');
    await writeOurAirports(syncedOurAirportsFile(dataDir), fixtureData('2026-02-01T00:00:00.000Z'));
    const newer = await currentOurAirportsFile(dataDir, committed);
    assert.equal(newer?.origin, 'synced');
    await writeOurAirports(committed, fixtureData('2026-03-01T00:00:00.000Z'));
    assert.equal((await currentOurAirportsFile(dataDir, committed))?.origin, 'committed');
    assert.equal(await currentOurAirportsFile(null, path.join(folder, 'none.json.gz')), null);
  });
});

describe('merging OurAirports over the package data', () => {
  test('matched runways take ends, headings, displaced thresholds, surface and lighting; closed runways are added; unknown stays unknown', async () => {
    const source = { ...(await airportDataSource()), ourairports: 'fixture' };
    const index = (() => {
      const compiled = compileAirports(source, fixtureData('2026-01-01T00:00:00.000Z'));
      return createAirportIndex(compiled.records, compiled.meta);
    })();

    const egll = index.get('EGLL')!;
    const north = egll.runways.find((runway) => runway.id === 239399)!;
    assert.equal(north.surface, 'ASPHALT');
    assert.equal(north.paved, true);
    assert.deepEqual(north.ends.map((end) => [end.ident, end.lat, end.lon, end.displaced_threshold_ft, end.heading_source]), [
      ['09L', 51.47749, -0.489439, 1007, 'data'],
      ['27R', 51.477681, -0.433227, 500, 'data'],
    ]);
    assert.deepEqual(index.frequencies('EGLL'), [
      { type: 'ATIS', description: 'Heathrow ATIS', frequency_mhz: 113.75 },
      { type: 'TWR', description: 'Heathrow Tower', frequency_mhz: 118.5 },
    ]);
    assert.deepEqual(index.navaids('EGLL').map((navaid) => [navaid.ident, navaid.type, navaid.frequency_khz]), [['LON', 'VOR-DME', 113600]]);
    assert.deepEqual(index.navaids('EGKA'), []);

    // The package leaves closed runways out; OurAirports brings them back, marked closed.
    const gadsden = index.get('KGAD')!;
    assert.deepEqual(gadsden.runways.map((runway) => [runway.designator, runway.closed]), [['06/24', false], ['18/36', true]]);

    // "UNK" is unknown, not unpaved; ends known by number only get headings from the number.
    const aasiaat = index.get('BGAA')!.runways[0]!;
    assert.equal(aasiaat.surface, 'UNKNOWN');
    assert.equal(aasiaat.paved, null);
    assert.deepEqual(aasiaat.ends.map((end) => [end.ident, end.lat, end.heading_source]), [['12', null, 'ident'], ['30', null, 'ident']]);

    // An airport OurAirports does not describe keeps the package's runways as they were.
    const plain = compileAirports({ ...source, ourairports: null }, null);
    const before = plain.records.find((record) => record.airport.icao === 'KJFK')!.airport;
    assert.deepEqual(index.get('KJFK')!.runways, before.runways);
  });
});

describe('the committed OurAirports data', () => {
  test('EGLL: every runway paved, ends placed, 09L with its displaced threshold; LHR finds it', async () => {
    const airports = await loadAirports({ cacheDir: REFERENCE_CACHE });
    const egll = airports.get('LHR')!;
    assert.equal(egll.icao, 'EGLL');
    assert.deepEqual(egll.runways.map((runway) => [runway.designator, runway.surface, runway.paved]), [
      ['09R/27L', 'ASPHALT', true],
      ['09L/27R', 'ASPHALT', true],
    ]);
    for (const end of egll.runways.flatMap((runway) => runway.ends)) assert.ok(end.lat !== null && end.lon !== null, `${end.ident} is placed`);
    const ends = new Map(egll.runways.flatMap((runway) => runway.ends.map((end) => [end.ident, end])));
    // OurAirports gives 09L a 1,007 ft displaced threshold and 27R none (blank: landing uses the full length).
    assert.equal(ends.get('09L')!.displaced_threshold_ft, 1007);
    assert.equal(ends.get('27R')!.displaced_threshold_ft, null);
    assert.equal(ends.get('27R')!.lat, 51.477681);
    assert.ok(airports.frequencies('EGLL').some((frequency) => frequency.type === 'TWR' && frequency.frequency_mhz === 118.5));
    // Landing lengths past the displaced threshold: 12,799 ft − 1,007 ft for 09L, the whole runway for 27R.
    const lengths = new Map(airportConditions(egll.runways).ends.map((end) => [end.designator, end.landing_length_m]));
    assert.equal(lengths.get('09L'), Math.round((12_799 - 1007) * 0.3048));
    assert.equal(lengths.get('27R'), Math.round(12_799 * 0.3048));
  });

  test('holds what the published CSV files hold', async (t) => {
    const runways = sharedFile('data/aviation/ourairports/runways.csv');
    if (runways.path === undefined) return t.skip(runways.skip);
    const parsed = parseRunwaysCsv(readFileSync(runways.path, 'utf8'));
    assert.ok(parsed.ok);
    assert.equal(parsed.rejected.length, 0);
    assert.ok(parsed.rows.length > 45_000, `${parsed.rows.length} runways`);
    const heathrow = parsed.rows.filter((row) => row[1] === 'EGLL');
    assert.deepEqual(heathrow.map((row) => [row[7]?.[0], row[7]?.[5], row[8]?.[0], row[8]?.[5]]), [['09L', 1007, '27R', null], ['09R', 1013, '27L', null]]);
    const committed = decodeOurAirports(readFileSync(COMMITTED_OURAIRPORTS_FILE));
    const committedHeathrow = committed.runways.filter((row) => row[1] === 'EGLL');
    assert.deepEqual(committedHeathrow, heathrow);
  });
});
