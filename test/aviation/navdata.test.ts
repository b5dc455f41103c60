// Navigation data end to end: `lamis import navdata` into a server's data folder, the server
// started on it, an operator's METAR of fog at KJFK, and the landing answer and airport record
// that follow; and the same without any navigation data, where ILS is unknown, never "no ILS".
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { NAVDATA_IMPORTERS } from '../../src/aviation/index.ts';
import { NAVDAT_810 } from '../../src/aviation/navdata/fixtures.ts';
import { callOk } from '../support/http.ts';
import { sharedFile } from '../support/shared.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const two = (n: number) => String(n).padStart(2, '0');
/** Fog at KJFK ten minutes ago: calm, 200 m, RVR 300 m on 04R, sky obscured at 100 ft. */
function fogAtKennedy(): string {
  const at = new Date(Date.now() - 10 * 60_000);
  return `KJFK ${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}Z 00000KT 0200 R04R/0300N FG VV001 08/08 A3012`;
}
const landing = (server: TestServer) => callOk(server.url, 'POST', '/v3/intelligence/landing', {
  destination_icao: 'KJFK', vehicle_type: 'aircraft', registration: 'N123AB', aircraft_type: 'A320',
  eta_utc: new Date(Date.now() + 30 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
}, AUTH);

describe('with navigation data imported', () => {
  let server: TestServer;
  before(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-test-navdata-'));
    await NAVDATA_IMPORTERS[0]!.import(dataDir, [{ name: 'nav.dat.gz', bytes: gzipSync(Buffer.from(NAVDAT_810)) }]);
    server = await startTestServer({ config: { dataDir } });
    await callOk(server.url, 'POST', '/v3/aviation/airports/KJFK/metar', fogAtKennedy(), AUTH);
  });
  after(() => server.close());

  test('fog at KJFK: an ILS approach on the CAT III runway, within its minima', async () => {
    const bundle = await landing(server);
    assert.equal(bundle.recommended_approach, 'ILS RWY 04R');
    assert.equal(bundle.runway.designator, '04R');
    assert.equal(bundle.runway.ils, 'usable');
    assert.deepEqual({ ...bundle.runway.ils_system, source: undefined }, { ident: 'IAAA', category: 'III', frequency_mhz: 109.5, course_true_deg: 30.7, source: undefined });
    assert.match(bundle.runway.ils_system.source, /^nav\.dat\.gz \(X-Plane 810, data cycle 2099\.01\), imported \d{4}-\d\d-\d\d$/);
    assert.equal(bundle.approach.type, 'ILS');
    assert.equal(bundle.approach.ils_category, 'IIIA');
    assert.equal(bundle.approach.below_minima, false);
    assert.deepEqual(bundle.approach.minima, { decision_height_ft: 50, rvr_m: 175, visibility_m: 175, label: 'ILS CAT IIIA' });
    assert.match(bundle.runway_choice.reason, /^Runway 04R: wind does not decide, so the best equipped .*; ILS CAT III, lighted/);
  });

  test('the airport lists its ILS per runway end and in one list with the source', async () => {
    const airport = await callOk(server.url, 'GET', '/v3/aviation/airports/KJFK', undefined, AUTH);
    assert.equal(airport.ils.status, 'listed');
    assert.deepEqual(airport.ils.localizers.map((l: any) => `${l.runway} ${l.ident} ${l.kind} ${l.category}`), ['04R IAAA ILS III', '04L IBBB ILS I', '13L ICCC ILS II', '22L IDDD LOC null']);
    const ends = new Map(airport.runways.flatMap((runway: any) => runway.ends).map((end: any) => [end.ident, end.ils]));
    assert.deepEqual([ends.get('04R'), ends.get('04L'), ends.get('13L'), ends.get('22L'), ends.get('31L')], [true, true, true, false, false]);
    // An airport the file does not cover stays unknown.
    const egll = await callOk(server.url, 'GET', '/v3/aviation/airports/EGLL', undefined, AUTH);
    assert.equal(egll.ils.status, 'unknown');
    assert.match(egll.ils.detail, /^ILS unknown \(no navigation data\): the imported nav\.dat\.gz does not cover EGLL\.$/);
    assert.ok(egll.runways.every((runway: any) => runway.ends.every((end: any) => end.ils === null)));
  });

  test('a NOTAM taking the CAT III ILS out moves the approach to the next best ILS', async () => {
    const raw = 'A0421/26 NOTAMN\nQ) KZNY/QICAS/I/NBO/A/000/999/4039N07347W005\nA) KJFK B) 2601010000 C) 2912312359\nE) ILS RWY 04R U/S';
    await callOk(server.url, 'POST', '/v3/aviation/notams', raw, AUTH);
    const bundle = await landing(server);
    assert.equal(bundle.recommended_approach, 'ILS RWY 13L');
    assert.equal(bundle.approach.ils_category, 'II');
    assert.equal(bundle.approach.below_minima, true);
    const r04R = bundle.approach.reasoning.join(' ');
    assert.match(r04R, /Visibility 200 m is below the typical ILS CAT II minimum of 300 m\./);
  });
});

// FlightGear's 2013 nav.dat (GPL-2+, read from ../shared, never copied in): KJFK's real ILS.
const flightgear = sharedFile('data/aviation/navdata/nav.dat.gz');
describe('with FlightGear\'s nav.dat imported', { skip: flightgear.skip }, () => {
  let server: TestServer;
  before(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-test-navdata-'));
    await NAVDATA_IMPORTERS[0]!.import(dataDir, [{ name: 'nav.dat.gz', bytes: readFileSync(flightgear.path!) }]);
    server = await startTestServer({ config: { dataDir } });
    await callOk(server.url, 'POST', '/v3/aviation/airports/KJFK/metar', fogAtKennedy(), AUTH);
  });
  after(() => server.close());

  test('fog at KJFK: ILS RWY 04R, its CAT III ILS IJFK on 109.50 MHz, within CAT IIIA minima', async () => {
    const bundle = await landing(server);
    assert.equal(bundle.recommended_approach, 'ILS RWY 04R');
    assert.deepEqual([bundle.runway.ils, bundle.runway.ils_system.ident, bundle.runway.ils_system.category, bundle.runway.ils_system.frequency_mhz], ['usable', 'IJFK', 'III', 109.5]);
    assert.deepEqual([bundle.approach.ils_category, bundle.approach.below_minima], ['IIIA', false]);
    const airport = await callOk(server.url, 'GET', '/v3/aviation/airports/KJFK', undefined, AUTH);
    assert.equal(airport.ils.localizers.filter((l: any) => l.kind === 'ILS').length, 7);
    const withoutIls = airport.runways.flatMap((runway: any) => runway.ends).filter((end: any) => end.ils !== true).map((end: any) => [end.ident, end.ils]);
    assert.deepEqual(withoutIls, [['13R', false]]);
  });
});

describe('without navigation data', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await callOk(server.url, 'POST', '/v3/aviation/airports/KJFK/metar', fogAtKennedy(), AUTH);
  });
  after(() => server.close());

  test('ILS unknown: RNAV assumed and said so; no answer says "no ILS"', async () => {
    const bundle = await landing(server);
    assert.equal(bundle.runway.ils, 'unknown');
    assert.equal(bundle.runway.ils_system, null);
    assert.equal(bundle.approach.type, 'RNAV');
    assert.match(bundle.approach.reason, /^RNAV RWY \w+ \(assumed; ILS unknown\) \(indicative\)/);
    assert.ok(bundle.approach.reasoning.some((line: string) => line.startsWith('ILS unknown (no navigation data) for ')));
    assert.match(bundle.runway_choice.reason, /ILS unknown \(no navigation data\)/);
    const airport = await callOk(server.url, 'GET', '/v3/aviation/airports/KJFK', undefined, AUTH);
    assert.deepEqual(airport.ils, { status: 'unknown', detail: 'ILS unknown (no navigation data): none has been imported.', localizers: [] });
    for (const answer of [bundle, airport]) assert.equal(/no ILS/i.test(JSON.stringify(answer)), false, JSON.stringify(answer));
  });
});
