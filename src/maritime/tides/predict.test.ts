import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stationsById } from '@neaps/tide-database';
import { createTidePredictor } from '@neaps/tide-predictor';
import { MAX_PERIOD_DAYS, predictExtremes, predictTimeline } from './predict.ts';
import { loadTideStations } from './stations.ts';
import type { TideStation } from './stations.ts';
import { refusedField } from './testing.ts';

const index = await loadTideStations();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// Asked of the stations thread once, for the tests to take synchronously.
const loaded = new Map(await Promise.all(['ticon/newlyn-new-gbr-bodc', 'noaa/8761993'].map(async (id) => [id, await index.get(id)] as const)));

function station(id: string): TideStation {
  const found = loaded.get(id);
  assert.ok(found, id);
  return found;
}

const newlyn = station('ticon/newlyn-new-gbr-bodc');
const from = new Date('2025-03-01T00:07:00Z');

describe('water level timeline', () => {
  it('samples on the 10 minute grid inside the period, on the chart datum, matching the predictor', () => {
    const to = new Date(from.getTime() + DAY);
    const timeline = predictTimeline({ station: newlyn, distance_nm: 1.5, from, to });
    assert.equal(timeline.datum, 'LAT');
    assert.equal(timeline.distance_nm, 1.5);
    assert.equal(timeline.station.id, newlyn.id);
    assert.equal(timeline.levels[0]!.time, '2025-03-01T00:10:00.000Z');
    assert.equal(timeline.levels.at(-1)!.time, '2025-03-02T00:00:00.000Z');
    assert.equal(timeline.levels.length, 24 * 6 - 1 + 1);

    const raw = stationsById.get(newlyn.id)!;
    const direct = createTidePredictor(raw.harmonic_constituents, { offset: raw.datums.MSL! - raw.datums.LAT! });
    for (const level of timeline.levels) {
      const expected = direct.getWaterLevelAtTime({ time: new Date(level.time) }).level;
      assert.ok(Math.abs(level.height_m - expected) < 0.002, `${level.time}: ${level.height_m} vs ${expected}`);
      // Above LAT and below HAT, as heights on LAT must be (with a centimetre for rounding).
      assert.ok(level.height_m > -0.01 && level.height_m < newlyn.datums.HAT! + 0.01, level.time);
    }
  });

  it('moves every height by the datum difference when another datum is asked for', () => {
    const to = new Date(from.getTime() + 12 * HOUR);
    const onLat = predictTimeline({ station: newlyn, from, to, step_minutes: 30 });
    const onMsl = predictTimeline({ station: newlyn, from, to, step_minutes: 30, datum: 'MSL' });
    assert.equal(onMsl.datum, 'MSL');
    assert.equal(onMsl.levels.length, onLat.levels.length);
    onLat.levels.forEach((level, i) => {
      assert.equal(onMsl.levels[i]!.time, level.time);
      assert.ok(Math.abs(level.height_m - onMsl.levels[i]!.height_m - newlyn.datums.MSL!) < 0.002);
    });
  });
});

describe('high and low waters', () => {
  it('alternate high and low about 6 h 12 min apart at a semidiurnal station', () => {
    const result = predictExtremes({ station: newlyn, from, to: new Date(from.getTime() + MAX_PERIOD_DAYS * DAY) });
    const { extremes } = result;
    assert.equal(result.datum, 'LAT');
    assert.ok(extremes.length >= 52);
    for (let i = 1; i < extremes.length; i++) {
      const before = extremes[i - 1]!;
      const extreme = extremes[i]!;
      assert.notEqual(extreme.type, before.type, extreme.time);
      const gapHours = (Date.parse(extreme.time) - Date.parse(before.time)) / HOUR;
      assert.ok(gapHours > 5 && gapHours < 7.5, `${gapHours} h before ${extreme.time}`);
      if (extreme.type === 'high') assert.ok(extreme.height_m > before.height_m + 2);
    }
    // Half the principal lunar (M2) period of 12 h 25 min.
    const meanGap = (Date.parse(extremes.at(-1)!.time) - Date.parse(extremes[0]!.time)) / HOUR / (extremes.length - 1);
    assert.ok(Math.abs(meanGap - 12.4206 / 2) < 0.05, `${meanGap} h`);
  });

  it('are the turning points of the timeline', () => {
    const to = new Date(from.getTime() + 2 * DAY);
    const { extremes } = predictExtremes({ station: newlyn, from, to });
    const { levels } = predictTimeline({ station: newlyn, from, to, step_minutes: 1 });
    for (const extreme of extremes) {
      const time = Date.parse(extreme.time);
      const nearby = levels.filter((level) => Math.abs(Date.parse(level.time) - time) <= 30 * 60_000).map((level) => level.height_m);
      const turning = extreme.type === 'high' ? Math.max(...nearby) : Math.min(...nearby);
      assert.ok(Math.abs(turning - extreme.height_m) < 0.002, extreme.time);
    }
  });

  it('keeps a subordinate station\'s extremes near the period ends, despite its time offsets', () => {
    const subordinate = station('noaa/8761993');
    assert.equal(subordinate.type, 'subordinate');
    const to = new Date(from.getTime() + 3 * DAY);
    const inPeriod = predictExtremes({ station: subordinate, from, to }).extremes;
    const wider = predictExtremes({ station: subordinate, from: new Date(from.getTime() - DAY), to: new Date(to.getTime() + DAY) })
      .extremes.filter((extreme) => Date.parse(extreme.time) >= from.getTime() && Date.parse(extreme.time) <= to.getTime());
    assert.ok(inPeriod.length > 0);
    assert.deepEqual(inPeriod.map((extreme) => extreme.type), wider.map((extreme) => extreme.type));
    inPeriod.forEach((extreme, i) => {
      // The search starts elsewhere, so the bisection lands within a second or so of the other.
      assert.ok(Math.abs(Date.parse(extreme.time) - Date.parse(wider[i]!.time)) < 60_000, extreme.time);
    });
  });
});

describe('prediction input', () => {
  const to = new Date(from.getTime() + DAY);

  it('names the field at fault', () => {
    assert.equal(refusedField(() => predictTimeline({ station: newlyn, from: new Date('nonsense'), to })), 'from');
    assert.equal(refusedField(() => predictTimeline({ station: newlyn, from, to: from })), 'to');
    assert.equal(refusedField(() => predictExtremes({ station: newlyn, from, to: new Date(from.getTime() + (MAX_PERIOD_DAYS + 1) * DAY) })), 'to');
    assert.equal(refusedField(() => predictTimeline({ station: newlyn, from, to, datum: 'NAVD88' })), 'datum');
    assert.equal(refusedField(() => predictTimeline({ station: newlyn, from, to, datum: 'toString' })), 'datum');
    assert.equal(refusedField(() => predictTimeline({ station: newlyn, from, to, step_minutes: 0 })), 'step_minutes');
    assert.equal(refusedField(() => predictTimeline({ station: newlyn, from, to, step_minutes: 2.5 })), 'step_minutes');
    assert.equal(refusedField(() => predictTimeline({ station: newlyn, from, to, distance_nm: -1 })), 'distance_nm');
    assert.equal(refusedField(() => predictTimeline({ station: newlyn, from, to })), null);
  });

  it('refuses a station that did not come from the index', () => {
    assert.throws(() => predictTimeline({ station: { ...newlyn }, from, to }), TypeError);
  });
});
