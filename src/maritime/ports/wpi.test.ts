import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { sharedFile } from '../../../test/support/shared.ts';
import { WPI_CSV } from './fixtures.ts';
import type { WpiEntry } from './model.ts';
import { parseWpiCsv } from './wpi.ts';

function parsed(input: string | Uint8Array) {
  const result = parseWpiCsv(input);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result;
}

describe('World Port Index CSV', () => {
  test('reads every field of a row, in metres, with its flags and alternate names', () => {
    const alpha = parsed(WPI_CSV).entries[0]!;
    assert.deepEqual(alpha, {
      wpi_number: 90010,
      unlocode: 'NLALP',
      name: 'Port Alpha',
      alternate_names: ['Alfa', 'Alpha Roads'],
      country: 'NL',
      lat: 51.9,
      lon: 4.5,
      harbour_size: 'large',
      harbour_type: 'river_basins',
      shelter: 'fair',
      channel_depth_m: 12.5,
      anchorage_depth_m: 14,
      cargo_pier_depth_m: 11,
      oil_terminal_depth_m: 15.5,
      tidal_range_m: 1.5,
      max_vessel_length_m: 300,
      max_vessel_beam_m: 45,
      max_vessel_draught_m: 13.7,
      entrance_restrictions: { tide: false, swell: true, ice: null, other: true },
    } satisfies WpiEntry);
  });

  test('0 and blank are unknown; a UN/LOCODE loses its space; fractional WPI numbers are kept', () => {
    const [, bravo, charlie] = parsed(WPI_CSV).entries;
    assert.equal(bravo!.unlocode, 'NLBRV');
    assert.deepEqual(
      [bravo!.tidal_range_m, bravo!.channel_depth_m, bravo!.anchorage_depth_m, bravo!.cargo_pier_depth_m, bravo!.max_vessel_length_m],
      [null, null, null, 6.4, null],
    );
    assert.equal(bravo!.harbour_size, null);
    assert.equal(bravo!.harbour_type, null);
    assert.equal(bravo!.shelter, null);
    assert.deepEqual(bravo!.alternate_names, []);
    assert.deepEqual(bravo!.entrance_restrictions, { tide: null, swell: null, ice: null, other: null });
    assert.equal(charlie!.wpi_number, 90020.5);
    assert.equal(charlie!.country, 'BS');
  });

  test('bad rows are rejected with their line and reason; doubtful values are dropped with a warning', () => {
    const result = parsed(WPI_CSV);
    assert.equal(result.entries.length, 3);
    assert.deepEqual(result.rejected.map((row) => row.line), [5, 6, 7, 8]);
    assert.match(result.rejected[0]!.reason, /WPI number 90010 again \(first on line 2\)/);
    assert.match(result.rejected[1]!.reason, /not a positive number: "abc"/);
    assert.match(result.rejected[2]!.reason, /no valid position/);
    assert.match(result.rejected[3]!.reason, /Invalid Record Length/);
    assert.equal(result.entries[2]!.unlocode, null);
    assert.deepEqual(result.warnings, [{ line: 4, reason: 'WPI 90020.5: UN/LOCODE USCHX is not in The Bahamas (BS); left out' }]);
  });

  test('a file in another format is refused with the columns it lacks', () => {
    const result = parseWpiCsv('INDEX_NO,PORT_NAME,LATITUDE,LONGITUDE\n1,Somewhere,1,2\n');
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.error : '', /no column "World Port Index Number", "Main Port Name"/);
    assert.deepEqual(parseWpiCsv(''), { ok: false, error: 'the file holds no CSV rows' });
  });

  const shared = sharedFile('data/ports/UpdatedPub150.csv');
  describe('the published file', { skip: shared.skip }, () => {
    const result = shared.path === undefined ? undefined : parsed(readFileSync(shared.path));
    const byNumber = (wpiNumber: number) => result!.entries.find((entry) => entry.wpi_number === wpiNumber);

    test('holds more than 2,800 ports, nearly every row usable', () => {
      assert.ok(result!.entries.length > 2800, `${result!.entries.length} ports`);
      assert.ok(result!.rejected.length < 10, JSON.stringify(result!.rejected));
    });

    test('Rotterdam (NL RTM, WPI 31140) as the file gives it', () => {
      const rotterdam = byNumber(31140)!;
      assert.equal(rotterdam.name, 'Rotterdam');
      assert.equal(rotterdam.unlocode, 'NLRTM');
      assert.equal(rotterdam.country, 'NL');
      assert.equal(rotterdam.harbour_size, 'large');
      assert.equal(rotterdam.harbour_type, 'river_basins');
      assert.deepEqual(
        [rotterdam.channel_depth_m, rotterdam.anchorage_depth_m, rotterdam.cargo_pier_depth_m, rotterdam.oil_terminal_depth_m, rotterdam.tidal_range_m],
        [11, 11, 6.4, 12.5, 1],
      );
      assert.equal(rotterdam.max_vessel_draught_m, null);
      assert.deepEqual(rotterdam.entrance_restrictions, { tide: false, swell: false, ice: false, other: true });
    });

    test('Singapore: the WPI lists its main harbour as Keppel (SG KEP, WPI 50000)', () => {
      const keppel = byNumber(50000)!;
      assert.equal(keppel.name, 'Keppel - (East Singapore)');
      assert.deepEqual(keppel.alternate_names, ['Keppel Harbor']);
      assert.equal(keppel.unlocode, 'SGKEP');
      assert.equal(keppel.country, 'SG');
      assert.equal(keppel.harbour_size, 'large');
      assert.deepEqual([keppel.channel_depth_m, keppel.anchorage_depth_m, keppel.cargo_pier_depth_m, keppel.tidal_range_m], [12.5, 20.1, 14, 3]);
      assert.equal(keppel.oil_terminal_depth_m, null);
      assert.deepEqual(result!.entries.filter((entry) => entry.country === 'SG').map((entry) => entry.unlocode).sort(), [
        'SGJUR', 'SGKEP', 'SGPUB', 'SGSEB', null,
      ]);
    });

    test('every country name in the file maps to an ISO code', () => {
      const unknown = result!.warnings.filter((row) => /country/.test(row.reason));
      assert.deepEqual(unknown, []);
      assert.ok(result!.entries.every((entry) => entry.country !== null && /^[A-Z]{2}$/.test(entry.country)));
    });
  });
});
