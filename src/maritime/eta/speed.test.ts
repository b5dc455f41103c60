import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VesselPosition } from '../vessels/store.ts';
import { hullModel } from './ship.ts';
import { observedSpeed, type SpeedSample } from './speed.ts';

const END = Date.parse('2026-05-01T12:00:00Z');
const position = (sog: number | null, nav_status: number | null = 0): VesselPosition => ({
  lat: 50, lon: 0, sog, cog: 90, heading: 90, rot: 0, rot_direction: null, nav_status, position_accuracy: true, timestamp: new Date(END).toISOString(),
});
const sample = (minutesBefore: number, sog: number | null, nav_status: number | null = 0): SpeedSample =>
  ({ time: new Date(END - minutesBefore * 60_000).toISOString(), sog, nav_status });

describe('observed speed', () => {
  it('is the trimmed mean of the last hour under way: the fastest and slowest fifth left out', () => {
    const track = [sample(55, 14), sample(45, 14.2), sample(35, 13.8), sample(25, 22), sample(15, 14), sample(5, 9), sample(0, 14.1)];
    const speed = observedSpeed(track, position(14.1))!;
    // Sorted: 9, 13.8, 14, 14, 14.1, 14.2, 22; one cut at each end: (13.8 + 14 + 14 + 14.1 + 14.2) / 5.
    assert.deepEqual(speed, { speed_kn: 14, source: 'ais_track', samples: 7, window: { from: '2026-05-01T11:00:00.000Z', to: '2026-05-01T12:00:00.000Z' } });
  });

  it('leaves out stops, anchorage, moorings and reports older than an hour', () => {
    const track = [sample(90, 20), sample(50, 12), sample(40, 0.4), sample(30, 12, 5), sample(20, 12, 1), sample(10, 11), sample(1, 13), sample(0, null)];
    const speed = observedSpeed(track, position(13))!;
    assert.equal(speed.samples, 3);
    assert.equal(speed.speed_kn, 12);
  });

  it('falls back to the latest speed over ground with fewer than three reports under way, and to nothing at rest', () => {
    assert.deepEqual(observedSpeed([sample(10, 12)], position(12.5)), {
      speed_kn: 12.5, source: 'ais_sog', samples: 1, window: { from: '2026-05-01T11:00:00.000Z', to: '2026-05-01T12:00:00.000Z' },
    });
    assert.equal(observedSpeed([sample(10, 12)], position(0.2)), null);
    assert.equal(observedSpeed([], position(8, 5)), null);
  });
});

describe('hull from AIS', () => {
  const dimensions = (length: number, beam: number) => ({ to_bow: length - 30, to_stern: 30, to_port: beam / 2, to_starboard: beam / 2, length, beam });

  it('a slow long cargo ship is a bulk carrier, in ballast when she draws little', () => {
    const laden = hullModel({ category: 'CARGO', dimensions: dimensions(290, 45), draught: 17.5 }, 13);
    assert.equal(laden.block_coefficient, 0.82);
    assert.equal(laden.loading, 'loaded');
    assert.equal(laden.lpp_m, 281.3);
    assert.equal(laden.displacement_m3, Math.round(0.82 * 281.3 * 45 * 17.5));
    // 65 % of 290/16 = 11.8 m.
    assert.equal(hullModel({ category: 'CARGO', dimensions: dimensions(290, 45), draught: 9.5 }, 13).loading, 'ballast');
  });

  it('a fast cargo ship is a container ship, never in ballast', () => {
    const hull = hullModel({ category: 'CARGO', dimensions: dimensions(366, 51), draught: 9 }, 21);
    assert.equal(hull.form, 'container');
    assert.equal(hull.block_coefficient, 0.62);
    assert.equal(hull.loading, 'loaded');
  });

  it('fills in what AIS does not report, and says so', () => {
    const hull = hullModel({ category: 'TANKER', dimensions: null, draught: null }, 12);
    assert.deepEqual([hull.length_m, hull.beam_m, hull.draught_m], [230, 40, 12]);
    assert.equal(hull.estimated.filter((line) => line.includes('not reported')).length, 3);
    const scaled = hullModel({ category: 'TANKER', dimensions: dimensions(115, 0), draught: null }, 12);
    assert.deepEqual([scaled.beam_m, scaled.draught_m], [20, 6]);
  });
});
