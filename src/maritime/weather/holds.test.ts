import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_THRESHOLDS, exceeded, weatherHolds } from './holds.ts';
import { HOUR_MS, type WeatherHour } from './model.ts';

const START = Date.parse('2026-03-10T00:00:00Z');
const limits = DEFAULT_THRESHOLDS.large;

/** Hours from START, calm unless the override says otherwise. */
function hours(...overrides: Partial<WeatherHour>[]): WeatherHour[] {
  return overrides.map((override, i) => ({
    time: new Date(START + i * HOUR_MS).toISOString(),
    wind_speed_kn: 12, wind_direction_deg: 240, gust_kn: 18, wave_height_m: 1.2, wave_direction_deg: 240, visibility_m: 15_000,
    ...override,
  }));
}

describe('weather holds', () => {
  it('defaults are stricter for smaller harbours', () => {
    const sizes = ['large', 'medium', 'small', 'very_small'] as const;
    for (let i = 1; i < sizes.length; i++) {
      const [larger, smaller] = [DEFAULT_THRESHOLDS[sizes[i - 1]!], DEFAULT_THRESHOLDS[sizes[i]!]];
      assert.ok(smaller.wind_kn < larger.wind_kn && smaller.gust_kn < larger.gust_kn && smaller.wave_height_m < larger.wave_height_m);
      assert.ok(smaller.visibility_m >= larger.visibility_m);
    }
  });

  it('an hour is held above the wind, gust and wave limits, and below the visibility limit; at the limit it is not', () => {
    assert.deepEqual(exceeded(hours({ wind_speed_kn: 35, gust_kn: 45, wave_height_m: 3.5, visibility_m: 500 })[0]!, limits), []);
    assert.deepEqual(exceeded(hours({ wind_speed_kn: 35.1, gust_kn: 45.1, wave_height_m: 3.6, visibility_m: 490 })[0]!, limits), ['wind', 'gust', 'waves', 'visibility']);
    assert.deepEqual(exceeded(hours({ wave_height_m: null, visibility_m: null })[0]!, limits), [], 'what the forecast lacks holds nothing');
  });

  it('joins held hours into periods, each with its limiting factors, worst values and hours', () => {
    const forecast = hours(
      {},
      { gust_kn: 47 },
      { wind_speed_kn: 36, gust_kn: 52, wave_height_m: 3.8 },
      { wind_speed_kn: 38, gust_kn: 50, wave_height_m: 4.1 },
      {},
      { visibility_m: 300 },
      { visibility_m: 150 },
    );
    const holds = weatherHolds(forecast, limits, START, START + 7 * HOUR_MS);
    assert.deepEqual(holds, [
      {
        start: '2026-03-10T01:00:00.000Z',
        end: '2026-03-10T04:00:00.000Z',
        duration_hours: 3,
        limiting: [
          { factor: 'gust', threshold: 45, unit: 'kn', worst: 52, worst_at: '2026-03-10T02:00:00.000Z', hours: 3 },
          { factor: 'wind', threshold: 35, unit: 'kn', worst: 38, worst_at: '2026-03-10T03:00:00.000Z', hours: 2 },
          { factor: 'waves', threshold: 3.5, unit: 'm', worst: 4.1, worst_at: '2026-03-10T03:00:00.000Z', hours: 2 },
        ],
      },
      {
        start: '2026-03-10T05:00:00.000Z',
        end: '2026-03-10T07:00:00.000Z',
        duration_hours: 2,
        limiting: [{ factor: 'visibility', threshold: 500, unit: 'm', worst: 150, worst_at: '2026-03-10T06:00:00.000Z', hours: 2 }],
      },
    ]);
  });

  it('cuts holds to the period asked for', () => {
    const forecast = hours({ wind_speed_kn: 40 }, { wind_speed_kn: 40 }, { wind_speed_kn: 40 }, { wind_speed_kn: 41 });
    const [hold] = weatherHolds(forecast, limits, START + 20 * 60_000, START + 2.5 * HOUR_MS);
    assert.equal(hold!.start, '2026-03-10T00:20:00.000Z');
    assert.equal(hold!.end, '2026-03-10T02:30:00.000Z');
    assert.equal(hold!.duration_hours, 2.17);
    // The 03:00 hour lies after the period: neither counted nor the worst; the factor's hours are
    // those within the period, so a factor held throughout agrees with the hold's duration.
    assert.deepEqual(hold!.limiting, [{ factor: 'wind', threshold: 35, unit: 'kn', worst: 40, worst_at: '2026-03-10T00:00:00.000Z', hours: 2.17 }]);
    assert.deepEqual(weatherHolds(hours({}, {}), limits, START, START + 2 * HOUR_MS), []);
  });
});
