import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createAirportIndex } from '../reference/airports-index.ts';
import { fixtureMeta, fixtureRecord, fixtureRunway } from '../reference/airports-fixtures.ts';
import { NAVDAT_1200 } from './fixtures.ts';
import { parseNavDat } from './navdat.ts';
import { airportIls, NavData, withNavData } from './navdata.ts';
import { navDataFile, readNavData, saveNavData } from './store.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-navdata-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const parsed = parseNavDat(Buffer.from(NAVDAT_1200));
if (!parsed.ok) throw new Error(parsed.error);
const meta = { origin: 'earth_nav.dat', version: parsed.version, cycle: parsed.cycle, imported_at: '2099-01-02T03:04:05.000Z' };

// EGLL's two runways as the airport data gives them (idents only matter here), and an airport the file does not cover.
const end = (ident: string) => ({ ...fixtureRunway().ends[0]!, ident });
const records = [
  fixtureRecord('EGLL', { runways: [fixtureRunway({ id: 1, designator: '09L/27R', ends: [end('09L'), end('27R')] }), fixtureRunway({ id: 2, designator: '09R/27L', ends: [end('09R'), end('27L')] })] }),
  fixtureRecord('EGKK', { runways: [fixtureRunway({ designator: '08R/26L', ends: [end('08R'), end('26L')] })] }),
];
const index = createAirportIndex(records, fixtureMeta(records));

describe('navigation data', () => {
  test('saved and read back whole; a missing or damaged file says so and never throws', async () => {
    assert.deepEqual(await readNavData(dataDir), { status: 'missing' });
    const file = await saveNavData(dataDir, meta, parsed.localizers);
    assert.equal(file, navDataFile(dataDir));
    const stored = await readNavData(dataDir);
    assert.equal(stored.status, 'loaded');
    assert.deepEqual(stored.status === 'loaded' && stored.localizers, parsed.localizers);

    const broken = mkdtempSync(path.join(tmpdir(), 'lamis-navdata-broken-'));
    try {
      mkdirSync(path.dirname(navDataFile(broken)));
      writeFileSync(navDataFile(broken), '{"format":1,"origin":"x"');
      assert.match((await readNavData(broken) as { error: string }).error, /^not JSON/);
      writeFileSync(navDataFile(broken), JSON.stringify({ format: 1, ...meta, localizers: [{ airport: 'EGLL' }] }));
      assert.match((await readNavData(broken) as { error: string }).error, /an entry is damaged/);
      const { navdata, load } = await NavData.load(broken);
      assert.equal(load.status, 'unreadable');
      assert.equal(navdata.airports, 0);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  test('runway ends at a covered airport say true or false with their ILS; other airports stay unknown', async () => {
    const { navdata } = await NavData.load(dataDir);
    const airports = withNavData(index, navdata);
    const egll = airports.get('egll')!;
    const ends = new Map(egll.runways.flatMap((runway) => runway.ends).map((e) => [e.ident, e]));
    assert.deepEqual([...ends.values()].map((e) => [e.ident, e.ils]), [['09L', true], ['27R', false], ['09R', false], ['27L', true]]);
    assert.deepEqual(ends.get('27L')!.localizers, [{
      ident: 'ILLA', runway: '27L', kind: 'ILS', category: 'III', frequency_mhz: 109.5, course_true_deg: 269.717, course_magnetic_deg: 269,
      glide_slope_deg: 3, source: 'earth_nav.dat (X-Plane 1200, data cycle 2501), imported 2099-01-02',
    }]);
    assert.equal(airports.get('EGKK')!.runways[0]!.ends[0]!.ils, null);
    // Every way into the index answers the same airport.
    assert.equal(airports.get('EGLL'), egll);
    assert.equal(airports.runways('EGLL'), egll.runways);
    assert.equal(airports.search({ q: 'EGLL' }).items[0]!.airport, egll);
    assert.ok(airports.airports().includes(egll));
  });

  test('the airport endpoint\'s ILS: listed with its source, or unknown and why', async () => {
    const { navdata } = await NavData.load(dataDir);
    const listed = airportIls(navdata, 'EGLL');
    assert.equal(listed.status, 'listed');
    assert.deepEqual(listed.localizers.map((l) => `${l.runway} ${l.category}`), ['27L III', '09L II']);
    assert.equal(listed.detail, 'From earth_nav.dat (X-Plane 1200, data cycle 2501), imported 2099-01-02.');
    assert.deepEqual(airportIls(navdata, 'EGKK'), {
      status: 'unknown', detail: 'ILS unknown (no navigation data): the imported earth_nav.dat does not cover EGKK.', localizers: [],
    });
    assert.equal(airportIls(new NavData(null, []), 'EGLL').detail, 'ILS unknown (no navigation data): none has been imported.');
    // Without data the index is left as it is.
    assert.equal(withNavData(index, new NavData(null, [])), index);
  });

  test('a runway renumbered since the data was made is found by its neighbouring number and heading', () => {
    const record = { airport: 'BIKF', ident: 'IKF', kind: 'ILS' as const, category: 'I' as const, frequency_mhz: 109.5, course_magnetic_deg: null, glide_slope_deg: 3, lat: 64, lon: -22.6, line: 9 };
    const navdata = new NavData(meta, [{ ...record, runway: '02', course_true_deg: 3.2 }, { ...record, ident: 'IKX', runway: '11', course_true_deg: 150 }]);
    const bikf = navdata.apply({
      ...records[0]!.airport, icao: 'BIKF',
      runways: [fixtureRunway({ ends: [{ ...end('01'), true_heading_deg: 4 }, { ...end('19'), true_heading_deg: 184 }] }), fixtureRunway({ ends: [{ ...end('10'), true_heading_deg: 98 }, { ...end('28'), true_heading_deg: 278 }] })],
    });
    // 02 became 01 (course along its heading); 11's course is 52° off 10's heading, so 10 is not taken for it.
    assert.deepEqual(bikf.runways.flatMap((runway) => runway.ends.map((e) => [e.ident, e.ils])), [['01', true], ['19', false], ['10', false], ['28', false]]);
  });
});
