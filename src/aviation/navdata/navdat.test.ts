import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { NAVDAT_1200, NAVDAT_810 } from './fixtures.ts';
import { parseNavDat, runwayKey } from './navdat.ts';

const parse = (text: string) => {
  const result = parseNavDat(Buffer.from(text, 'latin1'));
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result;
};

describe('nav.dat', () => {
  test('format 810: ILS with category, course, frequency and glide slope; localizers; other rows counted', () => {
    const result = parse(NAVDAT_810);
    assert.equal(result.version, 810);
    assert.equal(result.cycle, '2099.01');
    assert.deepEqual(result.counts, { ils: 3, localizers: 1, glide_slopes: 2, markers: 1, dme: 1, vor: 1, ndb: 1, other: 0 });
    const byRunway = new Map(result.localizers.map((record) => [record.runway, record]));
    assert.deepEqual(byRunway.get('04R'), {
      airport: 'KJFK', runway: '04R', ident: 'IAAA', kind: 'ILS', category: 'III', frequency_mhz: 109.5,
      course_true_deg: 30.7, course_magnetic_deg: null, glide_slope_deg: 3, lat: 40.648, lon: -73.753, line: 6,
    });
    // "4L" is read as 04L, and its glide slope (3.20°) joins it.
    assert.equal(byRunway.get('04L')?.category, 'I');
    assert.equal(byRunway.get('04L')?.glide_slope_deg, 3.2);
    assert.equal(byRunway.get('13L')?.category, 'II');
    assert.equal(byRunway.get('13L')?.glide_slope_deg, null);
    assert.deepEqual([byRunway.get('22L')?.kind, byRunway.get('22L')?.category], ['LOC', null]);
  });

  test('bad lines are rejected by number, the rest is read, nothing after "99"', () => {
    const result = parse(NAVDAT_810);
    assert.deepEqual(result.rejected.map((row) => row.line), [14, 15, 16, 17, 18, 19]);
    assert.match(result.rejected[0]!.reason, /latitude "91\.00000000" .* is not a position/);
    assert.match(result.rejected[1]!.reason, /frequency "11795" is not a localizer channel/);
    assert.equal(result.rejected[2]!.reason, 'IAAA for KJFK runway 04R again (first on line 6)');
    assert.match(result.rejected[3]!.reason, /type "ILS-CAT-I" is not a localizer alone/);
    assert.equal(result.rejected[4]!.reason, 'row code 6 needs ident, airport, runway and type: found 10 fields');
    assert.equal(result.rejected[5]!.reason, 'unknown row code 42');
    assert.equal(result.localizers.some((record) => record.ident === 'IZZZ'), false);
  });

  test('format 1200: the region column, the magnetic course folded into the true one, FPAP rows counted', () => {
    const result = parse(NAVDAT_1200);
    assert.equal(result.version, 1200);
    assert.equal(result.cycle, '2501');
    assert.deepEqual(result.counts, { ils: 2, localizers: 0, glide_slopes: 1, markers: 1, dme: 1, vor: 1, ndb: 1, other: 1 });
    const [r27L, r09L] = result.localizers;
    assert.deepEqual(
      [r27L!.runway, r27L!.category, r27L!.course_true_deg, r27L!.course_magnetic_deg, r27L!.glide_slope_deg, r27L!.frequency_mhz],
      ['27L', 'III', 269.717, 269, 3, 109.5],
    );
    assert.deepEqual([r09L!.runway, r09L!.category, r09L!.course_true_deg, r09L!.course_magnetic_deg], ['09L', 'II', 89.6, null]);
    assert.deepEqual(result.rejected, [{ line: 12, reason: 'row code 4 needs ident, airport, region, runway and type: found 11 fields' }]);
  });

  test('gzip-compressed files read the same as plain ones', () => {
    const plain = parse(NAVDAT_1200);
    const gzipped = parseNavDat(gzipSync(Buffer.from(NAVDAT_1200)));
    assert.deepEqual(gzipped, plain);
  });

  test('files that are not nav.dat fail with a clear message', () => {
    const error = (bytes: Uint8Array) => {
      const result = parseNavDat(bytes);
      assert.equal(result.ok, false);
      return result.ok ? '' : result.error;
    };
    assert.match(error(Buffer.from('name,lat,lon\nKJFK,40.6,-73.7\n')), /^not an X-Plane nav\.dat file/);
    assert.match(error(Buffer.from('I\n740 Version - old\n99\n')), /format 740 is not supported/);
    assert.match(error(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3])), /gzip data is damaged/);
    assert.match(error(Buffer.from('I\n1100 Version - empty\n')), /no navigation data rows/);
  });

  test('runway designators compare in two-digit form', () => {
    assert.deepEqual(['4R', '04R', '9', '27L', '8T', 'H1'].map(runwayKey), ['04R', '04R', '09', '27L', '08T', 'H1']);
  });

  test('never throws, whatever the bytes', () => {
    const header = fc.constantFrom('', 'I\n810 Version\n', 'I\n1100 Version\n');
    fc.assert(fc.property(header, fc.string(), fc.uint8Array({ maxLength: 64 }), (start, text, bytes) => {
      for (const input of [Buffer.from(start + text), Buffer.concat([Buffer.from(start), bytes])]) {
        const result = parseNavDat(input);
        assert.equal(typeof result.ok, 'boolean');
      }
    }));
  });
});
