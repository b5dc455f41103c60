// Expected arrivals and berth availability over a real server, from AIS uploaded as NMEA: vessels
// bound for the port by destination or by course, with their reported and predicted ETA and fit; availability
// now, at a past time and in a forecast, with a vessel placed at a positioned berth.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { formatTagBlock } from '../../src/maritime/ais/index.ts';
import type { PositionReportRaw, StaticVoyageRaw } from '../../src/maritime/ais/index.ts';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const HOUR = 3_600_000;
let server: TestServer;
const now = Math.floor(Date.now() / 60_000) * 60_000;
const etaIn = (hours: number) => new Date(now + hours * HOUR);

function voyage(mmsi: number, fields: Partial<StaticVoyageRaw>, eta: Date | null): string[] {
  const when = eta === null ? { month: 0, day: 0, hour: 24, minute: 60 } : { month: eta.getUTCMonth() + 1, day: eta.getUTCDate(), hour: eta.getUTCHours(), minute: eta.getUTCMinutes() };
  return sentences(staticVoyage(mmsi, { shiptype: 70, to_bow: 150, to_stern: 30, to_port: 16, to_starboard: 16, ...when, ...fields }));
}

function position(mmsi: number, lat: number, lon: number, sog: number, cog: number, status = 0, agoSec = 0): string[] {
  const at = Math.floor(Date.now() / 1000) - agoSec;
  return sentences(positionReport(mmsi, lat, lon, { speed: Math.round(sog * 10), course: Math.round(cog * 10), status, second: at % 60 } satisfies Partial<PositionReportRaw>))
    .map((line) => formatTagBlock([`c:${at}`]) + line);
}

async function upload(lines: string[]): Promise<void> {
  const response = await fetch(`${server.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: lines.join('\n') });
  assert.equal(response.status, 200);
}

const get = async (pathname: string) => {
  const response = await fetch(server.url + pathname, { headers: AUTH });
  return { status: response.status, body: await json(response) };
};

before(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-arrivals-'));
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(31140, {
      unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', lat: 51.9, lon: 4.4833, harbour_size: 'large', channel_depth_m: 11,
      max_vessel_length_m: 400, max_vessel_beam_m: 60, max_vessel_draught_m: 22.5,
    }),
  ]);
  server = await startTestServer({ config: { dataDir } });
  await upload([
    // Bound for Rotterdam by destination, 6 h out, fits; and a deep one 2 h out that does not.
    ...voyage(244_770_001, { destination: 'NL RTM', draught: 105 }, etaIn(6)),
    ...position(244_770_001, 53.2, 3.6, 14, 200),
    ...voyage(244_770_002, { destination: 'ROTTERDAM ANCH', draught: 145 }, etaIn(2)),
    ...position(244_770_002, 51.5, 2.6, 13, 70),
    // No usable destination, 29 nm west and heading in.
    ...voyage(244_770_003, { destination: 'FOR ORDERS', draught: 80 }, null),
    ...position(244_770_003, 51.95, 3.7, 12, 92),
    // Bound elsewhere.
    ...voyage(244_770_004, { destination: 'NLRTM>DEHAM', draught: 90 }, etaIn(20)),
    ...position(244_770_004, 53.9, 7.0, 15, 80),
    // Moored in Rotterdam for a while.
    ...voyage(244_770_005, { destination: 'NLRTM', draught: 95 }, etaIn(-2)),
    ...position(244_770_005, 51.9005, 4.4840, 0, 0, 5, 120),
    ...position(244_770_005, 51.9005, 4.4840, 0.1, 0, 5, 10),
  ]);
});
after(() => server.close());

test('vessels bound for the port, soonest first, with reported ETA, draught, dimensions and fit', async () => {
  const { status, body } = await get('/v3/maritime/ports/nlrtm/arrivals');
  assert.equal(status, 200);
  assert.equal(body.port_id, 'NLRTM');
  assert.match(body.disclaimer, /not be the sole source/);
  assert.deepEqual(body.data.map((a: { mmsi: number }) => a.mmsi), [244_770_002, 244_770_003, 244_770_001]);
  const [deep, byCourse, fitting] = body.data;

  assert.deepEqual([deep.match, deep.destination, deep.destination_match], ['destination', 'ROTTERDAM ANCH', { leg: 'ROTTERDAM ANCH', matched_by: 'name', ambiguous: false }]);
  assert.equal(deep.reported_eta, etaIn(2).toISOString());
  assert.deepEqual([deep.draught_m, deep.length_m, deep.beam_m, deep.source], [14.5, 180, 32, 'upload']);
  assert.equal(deep.fit.verdict, 'exceeds');
  assert.deepEqual(deep.fit.checks.filter((check: { fits: boolean }) => !check.fits), [{ limit: 'channel_depth', port_m: 11, vessel_m: 14.5, fits: false }]);
  // The weather-aware prediction along the sea route, from the vessel's AIS speed.
  assert.equal(deep.course_eta, null);
  assert.ok(deep.predicted_distance_nm >= deep.distance_nm - 0.1, `${deep.predicted_distance_nm} nm by sea, ${deep.distance_nm} nm straight`);
  const predictedHours = (Date.parse(deep.predicted_eta) - Date.parse(deep.position.timestamp)) / HOUR;
  // Around the reported 13 kn; the weather may add or take half of it (the prediction's own tests check how).
  const atReportedSpeed = deep.predicted_distance_nm / 13;
  assert.ok(predictedHours > atReportedSpeed / 1.5 && predictedHours < atReportedSpeed * 2, `${predictedHours} h for ${deep.predicted_distance_nm} nm`);

  assert.deepEqual([byCourse.match, byCourse.destination, byCourse.destination_match, byCourse.reported_eta], ['course', 'FOR ORDERS', null, null]);
  const courseHours = (Date.parse(byCourse.course_eta) - Date.parse(byCourse.position.timestamp)) / HOUR;
  assert.ok(Math.abs(courseHours - byCourse.distance_nm / 12) < 0.01, `${courseHours} h for ${byCourse.distance_nm} nm at 12 kn`);

  assert.deepEqual([fitting.destination_match.matched_by, fitting.fit.verdict, fitting.fit.unknown], ['unlocode', 'fits', []]);
  assert.ok(fitting.distance_nm > 80 && fitting.distance_nm < 90, `${fitting.distance_nm} nm`);

  const hamburg = await get('/v3/maritime/ports/DEHAM/arrivals');
  assert.deepEqual(hamburg.body.data.map((a: { mmsi: number; destination_match: { leg: string } }) => [a.mmsi, a.destination_match.leg]), [[244_770_004, 'DEHAM']]);
});

test('arrivals page with cursors; bad requests are refused', async () => {
  const first = await get('/v3/maritime/ports/NLRTM/arrivals?limit=2');
  assert.equal(first.body.data.length, 2);
  const second = await get(`/v3/maritime/ports/NLRTM/arrivals?limit=2&cursor=${first.body.next_cursor}`);
  assert.deepEqual(second.body.data.map((a: { mmsi: number }) => a.mmsi), [244_770_001]);
  assert.equal(second.body.next_cursor, null);
  const unpredicted = await get('/v3/maritime/ports/NLRTM/arrivals?predict=false');
  assert.ok(unpredicted.body.data.every((a: { predicted_eta: string | null }) => a.predicted_eta === null));
  assert.equal((await get('/v3/maritime/ports/NLXXX/arrivals')).body.code, 'port_not_found');
  assert.equal((await get('/v3/maritime/ports/rotterdam/arrivals')).status, 400);
  assert.equal((await get('/v3/maritime/ports/NLRTM/arrivals?limit=0')).status, 400);
});

test('availability now: the vessel at berth, placed at its berth record, and who is coming within a day', async () => {
  const made = await fetch(`${server.url}/v3/maritime/ports/NLRTM/berths`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Parkhaven 1', length_m: 200, lat: 51.9, lon: 4.4845 }),
  });
  const berth = await json(made);
  const { status, body } = await get('/v3/maritime/ports/NLRTM/availability');
  assert.equal(status, 200);
  assert.equal(body.basis, 'now');
  assert.deepEqual(body.capacity, { basis: 'berths', berths: 1, by_harbour_size: null, observed_peak: null });
  assert.deepEqual([body.at_berth, body.waiting, body.available], [1, 0, 0]);
  assert.deepEqual(body.vessels.map((v: { mmsi: number; state: string; berth_id: string }) => [v.mmsi, v.state, v.berth_id]), [[244_770_005, 'at_berth', berth.id]]);
  assert.deepEqual(body.berths, [{ id: berth.id, name: 'Parkhaven 1', organisation_id: null, occupied_by: { mmsi: 244_770_005, name: 'NORDIC SPIRIT' } }]);
  assert.deepEqual(body.expected_arrivals.map((a: { mmsi: number; eta_basis: string }) => [a.mmsi, a.eta_basis]), [
    [244_770_002, 'reported'], [244_770_003, 'course'], [244_770_001, 'reported'],
  ]);
  assert.equal(body.vessels[0].expected_departure_basis, 'default');
  assert.match(body.disclaimer, /sole source/);
});

test('availability at a past time and in a forecast; times out of range are 400s', async () => {
  const past = await get(`/v3/maritime/ports/NLRTM/availability?at=${encodeURIComponent(new Date(now - 5 * HOUR).toISOString())}`);
  assert.deepEqual([past.status, past.body.basis, past.body.at_berth, past.body.vessels], [200, 'recorded', 0, []]);

  const later = await get(`/v3/maritime/ports/NLRTM/availability?at=${encodeURIComponent(new Date(now + 4 * HOUR).toISOString())}`);
  assert.equal(later.body.basis, 'forecast');
  // The moored vessel stays (cargo, a day by default); two more come within 4 h: demand 3 for 1 berth.
  assert.deepEqual(later.body.expected_arrivals.map((a: { mmsi: number }) => a.mmsi), [244_770_002, 244_770_003]);
  assert.deepEqual([later.body.at_berth, later.body.waiting, later.body.available], [1, 2, 0]);

  const tooLate = await get(`/v3/maritime/ports/NLRTM/availability?at=${encodeURIComponent(new Date(now + 31 * 24 * HOUR).toISOString())}`);
  assert.deepEqual([tooLate.status, tooLate.body.errors[0].path], [400, '/querystring/at']);
  assert.equal((await get('/v3/maritime/ports/NLRTM/availability?at=2020-01-01T00:00:00Z')).status, 400);
  assert.equal((await get('/v3/maritime/ports/NLRTM/availability?at=tomorrow')).status, 400);
  assert.equal((await get('/v3/maritime/ports/NLXXX/availability')).body.code, 'port_not_found');
});
