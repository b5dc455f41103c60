// Conformance against a real X-Plane nav.dat (../shared/data/aviation/navdata/nav.dat.gz, format
// 810, data cycle 2013.10, as FlightGear ships it; GPL-2+, so it is read here and never copied
// into the project): every row is read, the figures the file's own counts give are reproduced,
// known ILS come out with their category, and the ILS are joined to the airport data's runway ends.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { sharedFile } from '../support/shared.ts';
import { REFERENCE_CACHE } from '../support/server.ts';
import { parseNavDat, type NavDatResult } from '../../src/aviation/navdata/navdat.ts';
import { NavData, withNavData } from '../../src/aviation/navdata/navdata.ts';
import { loadAirports } from '../../src/aviation/reference/airports.ts';

const file = sharedFile('data/aviation/navdata/nav.dat.gz');

test('X-Plane nav.dat 810 (2013.10)', { skip: file.skip }, async (t) => {
  const result: NavDatResult = parseNavDat(readFileSync(file.path!));
  assert.ok(result.ok, result.ok ? '' : result.error);
  assert.deepEqual([result.version, result.cycle], [810, '2013.10']);

  // The file holds 3,202 rows of code 4 at 2,162 airports; one (UK59, 117.95 MHz) is not on a localizer channel.
  const withGlideSlope = result.localizers.filter((record) => ['ILS', 'LOC-GS', 'LDA-GS', 'IGS'].includes(record.kind));
  assert.equal(withGlideSlope.length, 3201);
  assert.equal(new Set(withGlideSlope.map((record) => record.airport)).size, 2161);
  assert.deepEqual(result.counts, { ils: 3191, localizers: 309, glide_slopes: 3192, markers: 3440, dme: 5814, vor: 3720, ndb: 7099, other: 0 });
  assert.deepEqual(result.rejected.map((row) => row.line), [13615, 15348, 16455, 16758, 16812, 16827]);
  const categories = { I: 0, II: 0, III: 0 };
  for (const record of result.localizers) if (record.category !== null) categories[record.category] += 1;
  assert.deepEqual(categories, { I: 2780, II: 210, III: 201 });

  const kjfk = new Map(result.localizers.filter((record) => record.airport === 'KJFK').map((record) => [record.runway, record]));
  assert.deepEqual([...kjfk.keys()].sort(), ['04L', '04R', '13L', '22L', '22R', '31L', '31R']);
  const r04R = kjfk.get('04R')!;
  assert.deepEqual([r04R.ident, r04R.kind, r04R.category, r04R.frequency_mhz, r04R.course_true_deg, r04R.glide_slope_deg], ['IJFK', 'ILS', 'III', 109.5, 30.684, 3]);
  assert.equal(kjfk.get('13L')!.category, 'II');

  // Joined to the airport data: how many ILS find their runway end.
  const navdata = new NavData({ origin: 'nav.dat.gz', version: 810, cycle: '2013.10', imported_at: new Date().toISOString() }, result.localizers);
  const airports = withNavData(await loadAirports({ cacheDir: REFERENCE_CACHE }), navdata);
  const ils = result.localizers.filter((record) => record.kind === 'ILS');
  const joined = ils.filter((record) => airports.get(record.airport)?.runways.some((runway) => runway.ends.some((end) => end.localizers?.some((system) => system.ident === record.ident))));
  t.diagnostic(`ILS joined to a runway end of the airport data: ${joined.length} of ${ils.length}`);
  assert.ok(joined.length / ils.length > 0.9, `${joined.length} of ${ils.length}`);
  const r04REnd = airports.get('KJFK')!.runways.flatMap((runway) => runway.ends).find((end) => end.ident === '04R')!;
  assert.equal(r04REnd.ils, true);
  assert.equal(r04REnd.localizers?.[0]?.category, 'III');
});
