import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stationsById } from '@neaps/tide-database';
import { createTidePredictor } from '@neaps/tide-predictor';
import { loadTideStations } from './stations.ts';
import type { TideStation } from './stations.ts';
import { defaultUkcM, tidalWindows } from './windows.ts';
import type { TidalWindows } from './windows.ts';
import { refusedField } from './testing.ts';

const index = await loadTideStations();
const MINUTE = 60_000;
const STEP = 10 * MINUTE;
const MAX_BOUNDARY_DIFFERENCE = MINUTE;
const from = new Date('2025-03-01T00:07:00Z');
const to = new Date('2025-03-04T00:07:00Z');

// Asked of the stations thread once, for the tests to take synchronously.
const loaded = new Map(await Promise.all(['ticon/newlyn-new-gbr-bodc', 'noaa/9414290', 'noaa/9414305'].map(async (id) => [id, await index.get(id)] as const)));

function station(id: string): TideStation {
  const found = loaded.get(id);
  assert.ok(found, id);
  return found;
}

interface Sample {
  time: number;
  margin: number;
}

/**
 * charted depth + tide − required, on the station's chart datum, every minute through the period,
 * from neaps directly: the station's constituents, its MSL-to-chart-datum offset and its
 * subordinate offsets, without this module.
 */
function directMargins(stationId: string, chartedMinusRequired: number): Sample[] {
  const raw = stationsById.get(stationId)!;
  const chartDatum = raw.datums[raw.chart_datum!]!;
  const predictor = createTidePredictor(raw.harmonic_constituents, { offset: raw.datums.MSL! - chartDatum });
  return predictor
    .getTimelinePrediction({ start: from, end: to, timeFidelity: 60, offsets: raw.offsets })
    .filter((point) => point.time >= from && point.time <= to)
    .map((point) => ({ time: point.time.getTime(), margin: point.level + chartedMinusRequired }));
}

/** Each window boundary inside the period must sit on a sign change of the direct margin, within the 10 min step. */
function assertBoundariesMatch(result: TidalWindows, direct: Sample[]): void {
  const changes: { rising: boolean; after: number; before: number; at: number }[] = [];
  for (let i = 1; i < direct.length; i++) {
    const was = direct[i - 1]!.margin >= 0;
    const is = direct[i]!.margin >= 0;
    if (was !== is) changes.push({ rising: is, after: direct[i - 1]!.time, before: direct[i]!.time, at: crossing(direct[i - 1]!, direct[i]!) });
  }
  const boundaries: { rising: boolean; time: number }[] = [];
  for (const window of result.windows) {
    if (window.start !== isoSeconds(from)) boundaries.push({ rising: true, time: Date.parse(window.start) });
    if (window.end !== isoSeconds(to)) boundaries.push({ rising: false, time: Date.parse(window.end) });
  }
  assert.ok(changes.length >= 4, 'the case should cross the required depth several times');
  assert.equal(boundaries.length, changes.length);
  boundaries.forEach((boundary, i) => {
    const change = changes[i]!;
    assert.equal(boundary.rising, change.rising, new Date(boundary.time).toISOString());
    assert.ok(
      boundary.time >= change.after - STEP && boundary.time <= change.before + STEP,
      `${new Date(boundary.time).toISOString()} outside ${new Date(change.after).toISOString()}..${new Date(change.before).toISOString()}`,
    );
    // A straight line between samples 10 min apart is close to the curve: see the precision note.
    assert.ok(Math.abs(boundary.time - change.at) <= MAX_BOUNDARY_DIFFERENCE, `${new Date(boundary.time).toISOString()} vs ${new Date(change.at).toISOString()}`);
  });
  for (const window of result.windows) {
    const inside = direct.filter((sample) => sample.time >= Date.parse(window.start) && sample.time <= Date.parse(window.end));
    const highest = Math.max(...inside.map((sample) => sample.margin));
    // Both peaks are samples of the same curve, every 10 min and every minute.
    assert.ok(Math.abs(window.max_margin_m - highest) < 0.01, `${window.start}: ${window.max_margin_m} vs ${highest}`);
    assert.ok(window.min_margin_m >= 0);
  }
}

function crossing(a: Sample, b: Sample): number {
  return a.time + ((b.time - a.time) * a.margin) / (a.margin - b.margin);
}

function isoSeconds(date: Date): string {
  return new Date(Math.round(date.getTime() / 1000) * 1000).toISOString();
}

describe('tidal windows against a direct neaps computation', () => {
  it('Newlyn on LAT: a 5 m draught over 2 m charted depth sails around each high water', () => {
    const newlyn = station('ticon/newlyn-new-gbr-bodc');
    const result = tidalWindows({ station: newlyn, from, to, draught_m: 5, charted_depth_m: 2 });
    assert.equal(result.datum, 'LAT');
    assert.equal(result.ukc_m, 0.5);
    assert.equal(result.required_depth_m, 5.5);
    assert.equal(result.navigable, 'partly');
    assert.equal(result.station.commercial_use_allowed, true);
    assertBoundariesMatch(result, directMargins(newlyn.id, 2 - 5.5));
  });

  it('San Francisco on MLLW, a mixed tide, with a given under-keel clearance', () => {
    const goldenGate = station('noaa/9414290');
    const result = tidalWindows({ station: goldenGate, from, to, draught_m: 10, ukc_m: 0.8, charted_depth_m: 9.8 });
    assert.equal(result.datum, 'MLLW');
    assert.equal(result.ukc_default, false);
    assertBoundariesMatch(result, directMargins(goldenGate.id, 9.8 - 10.8));
  });

  it('a subordinate station, through its reference and offsets', () => {
    const sanFrancisco = station('noaa/9414305');
    assert.equal(sanFrancisco.type, 'subordinate');
    const result = tidalWindows({ station: sanFrancisco, from, to, draught_m: 10, charted_depth_m: 10 });
    assertBoundariesMatch(result, directMargins(sanFrancisco.id, 10 - 11));
  });

  it('gives the same windows on another datum when the charted depth is moved with it', () => {
    // Depths are measured down from a datum, so the seabed lies MSL-above-LAT deeper below MSL.
    const newlyn = station('ticon/newlyn-new-gbr-bodc');
    const onLat = tidalWindows({ station: newlyn, from, to, draught_m: 5, charted_depth_m: 2 });
    const onMsl = tidalWindows({ station: newlyn, from, to, draught_m: 5, charted_depth_m: 2 + newlyn.datums.MSL!, datum: 'MSL' });
    assert.equal(onMsl.datum, 'MSL');
    assert.equal(onMsl.windows.length, onLat.windows.length);
    onLat.windows.forEach((window, i) => {
      assert.ok(Math.abs(Date.parse(onMsl.windows[i]!.start) - Date.parse(window.start)) <= 1000);
      assert.ok(Math.abs(Date.parse(onMsl.windows[i]!.end) - Date.parse(window.end)) <= 1000);
    });
  });
});

describe('always and never', () => {
  const newlyn = station('ticon/newlyn-new-gbr-bodc');

  it('is one window over the whole period when even low water is deep enough', () => {
    const result = tidalWindows({ station: newlyn, from, to, draught_m: 5, charted_depth_m: 20 });
    assert.equal(result.navigable, 'always');
    assert.equal(result.windows.length, 1);
    assert.equal(result.windows[0]!.start, isoSeconds(from));
    assert.equal(result.windows[0]!.end, isoSeconds(to));
    const direct = directMargins(newlyn.id, 20 - 5.5).map((sample) => sample.margin);
    assert.ok(Math.abs(result.windows[0]!.min_margin_m - Math.min(...direct)) < 0.01);
    assert.ok(Math.abs(result.windows[0]!.max_margin_m - Math.max(...direct)) < 0.01);
  });

  it('is no window, with the best margin reached, when even high water is too shallow', () => {
    const result = tidalWindows({ station: newlyn, from, to, draught_m: 10, charted_depth_m: 0 });
    assert.equal(result.navigable, 'never');
    assert.deepEqual(result.windows, []);
    const direct = directMargins(newlyn.id, 0 - 11).map((sample) => sample.margin);
    assert.ok(result.best_margin_m < 0);
    assert.ok(Math.abs(result.best_margin_m - Math.max(...direct)) < 0.01);
  });
});

describe('under-keel clearance and input', () => {
  const newlyn = station('ticon/newlyn-new-gbr-bodc');

  it('defaults to 10 % of the draught, at least 0.5 m', () => {
    assert.equal(defaultUkcM(3), 0.5);
    assert.equal(defaultUkcM(12), 1.2);
    const result = tidalWindows({ station: newlyn, from, to, draught_m: 12, charted_depth_m: 10 });
    assert.equal(result.ukc_m, 1.2);
    assert.equal(result.ukc_default, true);
    assert.equal(result.required_depth_m, 13.2);
    const given = tidalWindows({ station: newlyn, from, to, draught_m: 12, ukc_m: 0, charted_depth_m: 10 });
    assert.equal(given.ukc_m, 0);
    assert.equal(given.required_depth_m, 12);
  });

  it('names the field at fault', () => {
    const base = { station: newlyn, from, to, draught_m: 5, charted_depth_m: 2 };
    assert.equal(refusedField(() => tidalWindows({ ...base, draught_m: -1 })), 'draught_m');
    assert.equal(refusedField(() => tidalWindows({ ...base, draught_m: 0 })), 'draught_m');
    assert.equal(refusedField(() => tidalWindows({ ...base, draught_m: 45 })), 'draught_m');
    assert.equal(refusedField(() => tidalWindows({ ...base, ukc_m: -0.1 })), 'ukc_m');
    assert.equal(refusedField(() => tidalWindows({ ...base, charted_depth_m: Number.NaN })), 'charted_depth_m');
    assert.equal(refusedField(() => tidalWindows({ ...base, to: new Date(from.getTime() + 15 * 24 * 60 * MINUTE) })), 'to');
    assert.equal(refusedField(() => tidalWindows({ ...base, step_minutes: 120 })), 'step_minutes');
    assert.equal(refusedField(() => tidalWindows({ ...base, datum: 'NAVD88' })), 'datum');
    assert.equal(refusedField(() => tidalWindows({ ...base, charted_depth_m: -1.5 })), null);
  });
});

describe('a period under way', () => {
  const newlyn = station('ticon/newlyn-new-gbr-bodc');
  const asked = { station: newlyn, from, to, draught_m: 5, charted_depth_m: 2 };
  const history = tidalWindows(asked);

  it('starts now: a window already open starts now and says so, none lies in the past', () => {
    const second = history.windows[1]!;
    // Eight minutes into the second window, as when a period is asked from the last whole ten minutes.
    const now = Date.parse(second.start) + 8 * MINUTE;
    const result = tidalWindows(asked, now);
    assert.equal(result.from, isoSeconds(new Date(now)));
    assert.equal(result.to, history.to);
    assert.deepEqual(result.windows[0], { ...result.windows[0], start: isoSeconds(new Date(now)), end: second.end, open_now: true });
    assert.equal(result.windows[0]!.duration_minutes, second.duration_minutes - 8);
    assert.deepEqual(result.windows.slice(1).map((window) => [window.start, window.open_now]), history.windows.slice(2).map((window) => [window.start, false]));
    for (const window of result.windows) assert.ok(Date.parse(window.start) >= now - 500);
  });

  it('between windows, the next one opens later and none is open now', () => {
    const now = Date.parse(history.windows[1]!.end) + 10 * MINUTE;
    const result = tidalWindows(asked, now);
    assert.equal(result.windows[0]!.start, history.windows[2]!.start);
    assert.ok(result.windows.every((window) => !window.open_now));
  });

  it('a period still to come, or already over, is answered as asked', () => {
    assert.deepEqual(tidalWindows(asked, from.getTime() - MINUTE), history);
    assert.deepEqual(tidalWindows(asked, to.getTime()), history);
    assert.ok(history.windows.every((window) => !window.open_now));
  });
});
