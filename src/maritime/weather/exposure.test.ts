import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { atPort, fetchLimitedWaveM, portExposure } from './exposure.ts';
import { defaultThresholds, weatherHolds } from './holds.ts';
import { HOUR_MS, type WeatherHour } from './model.ts';

const hour = (values: Partial<WeatherHour>, at = 0): WeatherHour => ({
  time: new Date(at).toISOString(), wind_speed_kn: null, wind_direction_deg: null, gust_kn: null,
  wave_height_m: null, wave_direction_deg: null, visibility_m: null, ...values,
});

describe('the sea state at a port', () => {
  test('fetch-limited wind sea follows the SPM growth law', () => {
    // 20 m/s (38.9 kn) over 5 km: 0.0016 · 20 · √(5000 / 9.81) = 0.72 m.
    assert.equal(Math.round(fetchLimitedWaveM(20 / 0.514444, 5) * 100) / 100, 0.72);
    // Four times the fetch doubles the height.
    assert.equal(Math.round((fetchLimitedWaveM(30, 20) / fetchLimitedWaveM(30, 5)) * 1000) / 1000, 2);
  });

  test('a river port with basins gets only its own wind sea; an open roadstead the open sea', () => {
    const gale = hour({ wind_speed_kn: 40, wave_height_m: 5.5 });
    const basins = portExposure({ harbour_type: 'river_basins', shelter: 'fair' });
    assert.deepEqual([basins.fetch_km, basins.transmission], [1, 0]);
    assert.match(basins.basis, /river port with basins \(fair shelter\)/);
    const inside = atPort(gale, basins).wave_height_m!;
    assert.equal(inside, Math.round(fetchLimitedWaveM(40, 1) * 100) / 100);
    assert.ok(inside < 0.4, `${inside} m in a river basin in a gale`);
    assert.equal(atPort(gale, portExposure({ harbour_type: 'open_roadstead', shelter: 'poor' })).wave_height_m, 5.5);
  });

  test('behind a breakwater a fifth of the outside sea comes in; never more than outside', () => {
    const exposure = portExposure({ harbour_type: 'coastal_breakwater', shelter: 'good' });
    const swell = atPort(hour({ wind_speed_kn: 5, wave_height_m: 3 }), exposure).wave_height_m!;
    assert.ok(swell >= 0.6 && swell < 0.65, `${swell}`);
    assert.equal(atPort(hour({ wind_speed_kn: 30, wave_height_m: 0.2 }), exposure).wave_height_m, 0.2);
  });

  test('a natural harbour is sheltered by what the WPI says; unknown type and shelter keep the open-water values and say so', () => {
    assert.deepEqual([portExposure({ harbour_type: 'coastal_natural', shelter: 'excellent' }).fetch_km, portExposure({ harbour_type: null, shelter: 'poor' }).fetch_km], [2, 40]);
    const unknown = portExposure({ harbour_type: null, shelter: null });
    assert.equal(unknown.fetch_km, null);
    assert.match(unknown.basis, /unknown: open-water values/);
    const open = hour({ wind_speed_kn: 25, wave_height_m: 2.7 });
    assert.deepEqual(atPort(open, unknown), open);
  });

  test('without open-sea values a closed basin still has its wind sea; an exposed harbour has none to give', () => {
    const land = hour({ wind_speed_kn: 30, wave_height_m: null });
    assert.ok(atPort(land, portExposure({ harbour_type: 'canal_or_lake', shelter: null })).wave_height_m! > 0);
    assert.equal(atPort(land, portExposure({ harbour_type: 'coastal_breakwater', shelter: null })).wave_height_m, null);
  });

  test('Rotterdam (large, river with basins, fair shelter) is not held on a calm day with a North Sea swell', () => {
    const rotterdam = { harbour_size: 'large' as const, harbour_type: 'river_basins' as const, shelter: 'fair' as const };
    const exposure = portExposure(rotterdam);
    const calm = Array.from({ length: 48 }, (_, index) => atPort(hour({ wind_speed_kn: 12, gust_kn: 18, wave_height_m: 3.8, visibility_m: 15_000 }, index * HOUR_MS), exposure));
    const { values, basis } = defaultThresholds(rotterdam);
    assert.equal(basis, 'large, fair shelter');
    assert.deepEqual(weatherHolds(calm, values, 0, 48 * HOUR_MS), []);
  });

  test('poor or no shelter lowers the default wind limits', () => {
    assert.deepEqual(defaultThresholds({ harbour_size: 'medium', shelter: 'none' }), {
      values: { wind_kn: 25, gust_kn: 35, wave_height_m: 3, visibility_m: 800 }, basis: 'medium, no shelter (wind and gust -5 kn)',
    });
    assert.equal(defaultThresholds({ harbour_size: null, shelter: null }).basis, 'unknown');
  });
});
