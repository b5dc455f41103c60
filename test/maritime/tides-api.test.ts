// Tides and tidal windows over HTTP against a real server, on the built-in ports plus a small World
// Port Index import (Brest with its channel depth, and a port in mid-ocean far from any station).
// Water levels and windows are compared with neaps computed directly from the station's harmonic
// constituents and datums, minute by minute.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stationsById } from '@neaps/tide-database';
import { createTidePredictor } from '@neaps/tide-predictor';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const BREST_STATION = 'ticon/brest-822-fra-uhslc_fd';
const CHANNEL_DEPTH = 5;
const FROM = '2026-03-01T00:00:00.000Z';
const TO = '2026-03-03T00:00:00.000Z';
const MINUTE = 60_000;

let server: TestServer;
before(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-tides-'));
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(29150, { unlocode: 'FRBES', name: 'Brest', country: 'FR', lat: 48.38, lon: -4.49, harbour_size: 'medium', channel_depth_m: CHANNEL_DEPTH }),
    wpiEntry(99999, { name: 'Mid Atlantic Buoy Harbour', lat: 30, lon: -40, harbour_size: 'very_small', channel_depth_m: 10 }),
  ]);
  server = await startTestServer({ config: { dataDir } });
});
after(() => server.close());

const get = (url: string) => fetch(server.url + url, { headers: AUTH });

async function ok(url: string): Promise<any> {
  const response = await get(url);
  assert.equal(response.status, 200, await response.clone().text());
  return json(response);
}

async function problem(url: string, status: number, code: string): Promise<any> {
  const response = await get(url);
  assert.equal(response.status, status, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.code, code);
  return body;
}

/** Heights on the station's chart datum every minute, straight from neaps. */
function directHeights(stationId: string, from: string, to: string): { time: number; height: number }[] {
  const raw = stationsById.get(stationId)!;
  const predictor = createTidePredictor(raw.harmonic_constituents, { offset: raw.datums.MSL! - raw.datums[raw.chart_datum!]! });
  return predictor
    .getTimelinePrediction({ start: new Date(from), end: new Date(to), timeFidelity: 60, offsets: raw.offsets })
    .filter((point) => point.time.getTime() >= Date.parse(from) && point.time.getTime() <= Date.parse(to))
    .map((point) => ({ time: point.time.getTime(), height: point.level }));
}

describe('tides at a port', () => {
  test('water levels and high and low waters from the nearest station, as neaps predicts them, with its licence', async () => {
    const tides = await ok(`/v3/maritime/ports/FRBES/tides?from=${FROM}&to=${TO}&step=15`);
    assert.deepEqual(tides.port, { id: 'FRBES', name: 'Brest', lat: 48.38, lon: -4.49 });
    assert.equal(tides.station.id, BREST_STATION);
    assert.ok(tides.station.distance_nm < 2);
    assert.equal(tides.datum, 'LAT');
    assert.equal(tides.station.chart_datum, 'LAT');
    assert.deepEqual(tides.station.licence, { type: 'cc-by-4.0', url: 'https://creativecommons.org/licenses/by/4.0/', notes: null });
    assert.equal(tides.station.commercial_use_allowed, true);
    assert.ok(tides.station.attribution.length > 10);
    assert.match(tides.disclaimer, /not be the sole source/);
    assert.equal(tides.step_minutes, 15);
    assert.equal(tides.levels.length, 2 * 24 * 4 + 1);

    const direct = new Map(directHeights(BREST_STATION, FROM, TO).map((point) => [point.time, point.height]));
    for (const level of tides.levels) {
      const expected = direct.get(Date.parse(level.time))!;
      assert.ok(Math.abs(level.height_m - expected) < 0.002, `${level.time}: ${level.height_m} vs ${expected}`);
    }
    // Semi-diurnal: about four extremes a day, alternating, each a turning point of the direct curve.
    assert.ok(tides.extremes.length >= 7 && tides.extremes.length <= 9, String(tides.extremes.length));
    for (const extreme of tides.extremes) {
      const time = Date.parse(extreme.time);
      const nearby = [...direct].filter(([at]) => Math.abs(at - time) <= 30 * MINUTE).map(([, height]) => height);
      const turning = extreme.type === 'high' ? Math.max(...nearby) : Math.min(...nearby);
      assert.ok(Math.abs(turning - extreme.height_m) < 0.005, `${extreme.time} ${extreme.type}`);
    }
  });

  test('heights on another datum of the station are moved by its height above the chart datum', async () => {
    const lat = await ok(`/v3/maritime/ports/FRBES/tides?from=${FROM}&to=${TO}&step=60`);
    const msl = await ok(`/v3/maritime/ports/FRBES/tides?from=${FROM}&to=${TO}&step=60&datum=MSL`);
    assert.equal(msl.datum, 'MSL');
    const shift = lat.station.datums.MSL;
    msl.levels.forEach((level: { height_m: number }, i: number) => assert.ok(Math.abs(level.height_m + shift - lat.levels[i].height_m) < 0.002));
  });

  test('a station whose licence forbids commercial use is flagged, and can be passed over', async () => {
    const rotterdam = await ok('/v3/maritime/ports/NLRTM/tides?step=60');
    assert.match(rotterdam.station.licence.type, /-nc-/);
    assert.equal(rotterdam.station.commercial_use_allowed, false);
    const commercial = await ok('/v3/maritime/ports/NLRTM/tides?step=60&commercial_use_only=true');
    assert.notEqual(commercial.station.id, rotterdam.station.id);
    assert.equal(commercial.station.commercial_use_allowed, true);
    assert.ok(commercial.station.distance_nm <= 50);
  });

  test('defaults to the next 24 hours every 10 minutes', async () => {
    const before = Date.now();
    const tides = await ok('/v3/maritime/ports/FRBES/tides');
    assert.ok(Date.parse(tides.from) >= before - 1000 && Date.parse(tides.from) <= Date.now());
    assert.equal(Date.parse(tides.to) - Date.parse(tides.from), 24 * 60 * MINUTE);
    assert.equal(tides.step_minutes, 10);
  });
});

describe('tidal windows', () => {
  /** The windows of the period where depth + tide ≥ draught + UKC, each boundary checked against the direct curve. */
  function assertWindowsMatch(result: any, chartedMinusRequired: number): void {
    const direct = directHeights(BREST_STATION, result.from, result.to).map((point) => ({ time: point.time, margin: point.height + chartedMinusRequired }));
    const crossings: { rising: boolean; at: number }[] = [];
    for (let i = 1; i < direct.length; i++) {
      const [a, b] = [direct[i - 1]!, direct[i]!];
      if ((a.margin >= 0) !== (b.margin >= 0)) crossings.push({ rising: b.margin >= 0, at: a.time + ((b.time - a.time) * a.margin) / (a.margin - b.margin) });
    }
    const boundaries: { rising: boolean; at: number }[] = [];
    for (const window of result.windows) {
      if (window.start !== result.from) boundaries.push({ rising: true, at: Date.parse(window.start) });
      if (window.end !== result.to) boundaries.push({ rising: false, at: Date.parse(window.end) });
      const inside = direct.filter((point) => point.time >= Date.parse(window.start) && point.time <= Date.parse(window.end));
      assert.ok(Math.abs(window.max_margin_m - Math.max(...inside.map((point) => point.margin))) < 0.01);
      assert.ok(window.min_margin_m >= 0);
      assert.equal(window.duration_minutes, Math.round((Date.parse(window.end) - Date.parse(window.start)) / MINUTE));
    }
    assert.ok(crossings.length >= 4, 'the case should open and close several windows');
    assert.equal(boundaries.length, crossings.length);
    boundaries.forEach((boundary, i) => {
      assert.equal(boundary.rising, crossings[i]!.rising);
      assert.ok(Math.abs(boundary.at - crossings[i]!.at) <= MINUTE, `${new Date(boundary.at).toISOString()} vs ${new Date(crossings[i]!.at).toISOString()}`);
    });
  }

  test('on the port\'s channel depth with the default under-keel clearance', async () => {
    const result = await ok(`/v3/maritime/ports/FRBES/tidal-windows?draught=8&from=${FROM}&to=${TO}`);
    assert.equal(result.station.id, BREST_STATION);
    assert.equal(result.datum, 'LAT');
    assert.equal(result.charted_depth_m, CHANNEL_DEPTH);
    assert.equal(result.charted_depth_source, 'port_channel_depth');
    assert.match(result.charted_depth_note, /^The channel depth of Brest \(WPI 29150, "Channel Depth \(m\)"\) in the World Port Index imported from test rows on /);
    assert.equal(result.ukc_m, 0.8);
    assert.equal(result.ukc_default, true);
    assert.equal(result.required_depth_m, 8.8);
    assert.equal(result.navigable, 'partly');
    assert.equal(result.station.licence.type, 'cc-by-4.0');
    assertWindowsMatch(result, CHANNEL_DEPTH - 8.8);
  });

  test('on a given charted depth and under-keel clearance', async () => {
    const result = await ok(`/v3/maritime/ports/FRBES/tidal-windows?draught=12.5&ukc=1.2&charted_depth=9&from=${FROM}&to=${TO}&step=5`);
    assert.equal(result.charted_depth_source, 'given');
    assert.equal(result.charted_depth_note, 'Given in the request: 9 m below LAT.');
    assert.equal(result.ukc_default, false);
    assert.equal(result.required_depth_m, 13.7);
    assert.equal(result.step_minutes, 5);
    assertWindowsMatch(result, 9 - 13.7);
  });

  test('the channel depth moves with the datum, so the windows stay where they are', async () => {
    const lat = await ok(`/v3/maritime/ports/FRBES/tidal-windows?draught=8&from=${FROM}&to=${TO}`);
    const msl = await ok(`/v3/maritime/ports/FRBES/tidal-windows?draught=8&from=${FROM}&to=${TO}&datum=MSL`);
    assert.equal(msl.datum, 'MSL');
    assert.ok(Math.abs(msl.charted_depth_m - (CHANNEL_DEPTH + lat.station.datums.MSL)) < 0.001);
    assert.match(msl.charted_depth_note, new RegExp(`chart datum LAT; MSL lies ${lat.station.datums.MSL} m above it, so ${msl.charted_depth_m} m below MSL\\.`));
    assert.equal(msl.windows.length, lat.windows.length);
    msl.windows.forEach((window: { start: string; end: string }, i: number) => {
      assert.ok(Math.abs(Date.parse(window.start) - Date.parse(lat.windows[i].start)) <= 1000);
      assert.ok(Math.abs(Date.parse(window.end) - Date.parse(lat.windows[i].end)) <= 1000);
    });
  });

  test('always and never', async () => {
    const always = await ok(`/v3/maritime/ports/FRBES/tidal-windows?draught=2&from=${FROM}&to=${TO}`);
    assert.equal(always.navigable, 'always');
    assert.deepEqual([always.windows[0].start, always.windows[0].end], [FROM, TO]);
    const never = await ok(`/v3/maritime/ports/FRBES/tidal-windows?draught=16&from=${FROM}&to=${TO}`);
    assert.equal(never.navigable, 'never');
    assert.deepEqual(never.windows, []);
    assert.ok(never.best_margin_m < 0);
  });
});

describe('refusals', () => {
  test('unknown and malformed ports', async () => {
    await problem('/v3/maritime/ports/FRXXX/tides', 404, 'port_not_found');
    await problem('/v3/maritime/ports/FRXXX/tidal-windows?draught=5', 404, 'port_not_found');
    const malformed = await problem('/v3/maritime/ports/brest!/tides', 400, 'validation_failed');
    assert.deepEqual(malformed.errors.map((error: { path: string }) => error.path), ['/params/id']);
  });

  test('draught and period out of range, and a datum the station lacks, name their parameter', async () => {
    const paths = async (url: string) => (await problem(url, 400, 'validation_failed')).errors.map((error: { path: string }) => error.path);
    assert.deepEqual(await paths('/v3/maritime/ports/FRBES/tidal-windows'), ['/querystring/draught']);
    assert.deepEqual(await paths('/v3/maritime/ports/FRBES/tidal-windows?draught=0'), ['/querystring/draught']);
    assert.deepEqual(await paths('/v3/maritime/ports/FRBES/tidal-windows?draught=31'), ['/querystring/draught']);
    assert.deepEqual(await paths('/v3/maritime/ports/FRBES/tidal-windows?draught=8&ukc=-1'), ['/querystring/ukc']);
    assert.deepEqual(await paths(`/v3/maritime/ports/FRBES/tides?from=${FROM}&to=2026-03-16T00:00:01Z`), ['/querystring/to']);
    assert.deepEqual(await paths(`/v3/maritime/ports/FRBES/tides?from=${TO}&to=${FROM}`), ['/querystring/to']);
    assert.deepEqual(await paths('/v3/maritime/ports/FRBES/tides?from=yesterday'), ['/querystring/from']);
    assert.deepEqual(await paths('/v3/maritime/ports/FRBES/tides?step=61'), ['/querystring/step']);
    const datum = await problem('/v3/maritime/ports/FRBES/tides?datum=NAVD88', 400, 'validation_failed');
    assert.deepEqual(datum.errors.map((error: { path: string }) => error.path), ['/querystring/datum']);
    assert.match(datum.detail, /LAT/);
  });

  test('a port with no station within reach', async () => {
    const far = await problem('/v3/maritime/ports/WPI-99999/tides', 404, 'no_tide_station');
    assert.match(far.detail, /within 50 nm of Mid Atlantic Buoy Harbour/);
    assert.equal(far.max_distance_nm, 50);
    await problem('/v3/maritime/ports/WPI-99999/tidal-windows?draught=5', 404, 'no_tide_station');
    await problem('/v3/maritime/ports/FRBES/tides?max_distance_nm=0.1', 404, 'no_tide_station');
  });

  test('tidal windows where the charted depth is unknown', async () => {
    const body = await problem('/v3/maritime/ports/GBSOU/tidal-windows?draught=9', 422, 'charted_depth_unknown');
    assert.equal(body.detail, 'The World Port Index gives no channel depth for Southampton (GBSOU); it gives none of its depths. Pass charted_depth.');
    await ok('/v3/maritime/ports/GBSOU/tidal-windows?draught=9&charted_depth=11');
  });
});
