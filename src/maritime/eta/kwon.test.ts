// Kwon's method against values worked by hand from the published formulae (KWON.md), step by step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  beaufortFromWaveHeight,
  beaufortFromWind,
  directionCoefficient,
  formCoefficient,
  froudeNumber,
  MAX_LOSS_PERCENT,
  relativeWeatherAngle,
  sectorOf,
  speedCoefficient,
  speedLoss,
} from './kwon.ts';

const close = (actual: number, expected: number, tolerance = 1e-4) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);

describe('worked examples', () => {
  it('a loaded bulk carrier (C_B 0.80) at Fn 0.15 in force 6 from ahead, ∇ 100,000 m³: 6.69 %', () => {
    // C_β = 2/2 = 1
    // C_U = 2.6 − 13.1·0.15 − 15.1·0.15² = 2.6 − 1.965 − 0.33975 = 0.29525
    // ∇^(2/3) = 100000^(2/3) = 2154.43; 6^6.5 = 114283.4
    // C_Form = 0.5·6 + 114283.4 / (2.7 · 2154.43) = 3 + 19.6465 = 22.6465
    // ΔV/V = 1 · 0.29525 · 22.6465 = 6.6864 %
    const loss = speedLoss({ beaufort: 6, relative_deg: 0, block_coefficient: 0.8, froude: 0.15, loading: 'loaded', form: 'other', displacement_m3: 100_000 });
    assert.equal(loss.sector, 'head');
    close(loss.c_beta, 1);
    close(loss.c_u, 0.29525);
    close(loss.c_form, 22.6465);
    close(loss.percent, 6.6864);
  });

  it('a container ship (C_B 0.60) at Fn 0.25 in force 5 on the bow, ∇ 50,000 m³: 3.78 %', () => {
    // 2C_β = 1.7 − 0.03·(5 − 4)² = 1.67, C_β = 0.835
    // C_U = 2.2 − 2.5·0.25 − 9.7·0.25² = 2.2 − 0.625 − 0.60625 = 0.96875
    // ∇^(2/3) = 1357.21; 5^6.5 = 34938.6
    // C_Form (container) = 0.7·5 + 34938.6 / (22 · 1357.21) = 3.5 + 1.17013 = 4.67013
    // ΔV/V = 0.835 · 0.96875 · 4.67013 = 3.7777 %
    const loss = speedLoss({ beaufort: 5, relative_deg: 45, block_coefficient: 0.6, froude: 0.25, loading: 'loaded', form: 'container', displacement_m3: 50_000 });
    assert.equal(loss.sector, 'bow');
    close(loss.c_beta, 0.835);
    close(loss.c_u, 0.96875);
    close(loss.c_form, 4.67013);
    close(loss.percent, 3.7777);
  });

  it('a tanker in ballast (C_B 0.85) at Fn 0.12 in force 8 from astern, ∇ 150,000 m³: 27.77 %', () => {
    // 2C_β = 0.4 − 0.03·(8 − 8)² = 0.4, C_β = 0.2
    // C_U (ballast) = 3.4 − 20.9·0.12 + 31.8·0.12² = 3.4 − 2.508 + 0.45792 = 1.34992
    // ∇^(2/3) = 2823.11; 8^6.5 = 741455.2
    // C_Form (ballast) = 0.7·8 + 741455.2 / (2.7 · 2823.11) = 5.6 + 97.2733 = 102.8733
    // ΔV/V = 0.2 · 1.34992 · 102.8733 = 27.774 %
    const loss = speedLoss({ beaufort: 8, relative_deg: 170, block_coefficient: 0.85, froude: 0.12, loading: 'ballast', form: 'other', displacement_m3: 150_000 });
    assert.equal(loss.sector, 'following');
    close(loss.c_beta, 0.2);
    close(loss.c_u, 1.34992);
    close(loss.c_form, 102.8733, 1e-3);
    close(loss.percent, 27.774, 1e-3);
  });

  it('holds a loss beyond what the method was fitted to at 50 %', () => {
    // A 60 m coaster in force 11 from ahead: C_Form alone is in the thousands.
    const loss = speedLoss({ beaufort: 11, relative_deg: 10, block_coefficient: 0.7, froude: 0.2, loading: 'loaded', form: 'other', displacement_m3: 2_000 });
    assert.ok(loss.c_beta * loss.c_u * loss.c_form > 100);
    assert.equal(loss.percent, MAX_LOSS_PERCENT);
  });

  it('calm water costs nothing', () => {
    assert.equal(speedLoss({ beaufort: 0, relative_deg: 0, block_coefficient: 0.7, froude: 0.2, loading: 'loaded', form: 'other', displacement_m3: 20_000 }).percent, 0);
  });
});

describe('coefficients', () => {
  it('direction: the four sectors at their edges, and no gain in light weather abeam or astern', () => {
    assert.deepEqual([0, 30, 30.1, 60, 60.1, 150, 150.1, 180].map(sectorOf), ['head', 'head', 'bow', 'bow', 'beam', 'beam', 'following', 'following']);
    close(directionCoefficient('beam', 6), 0.45);
    close(directionCoefficient('bow', 4), 0.85);
    close(directionCoefficient('following', 8), 0.2);
    // 0.9 − 0.06·16 = −0.06 and 0.4 − 0.03·16 = −0.08: held at 0.
    assert.equal(directionCoefficient('beam', 2), 0);
    assert.equal(directionCoefficient('following', 4), 0);
  });

  it('speed: interpolated between the table\'s block coefficients, and ballast rows only for full forms', () => {
    // Halfway between C_B 0.75 (2.4 − 1.59 − 0.21375 = 0.59625) and 0.80 (0.29525) at Fn 0.15.
    close(speedCoefficient(0.775, 0.15, 'loaded'), (0.59625 + 0.29525) / 2);
    // Below 0.55 and above 0.85 the end rows apply.
    close(speedCoefficient(0.5, 0.2, 'loaded'), 1.7 - 1.4 * 0.2 - 7.4 * 0.04);
    close(speedCoefficient(0.9, 0.1, 'ballast'), 3.4 - 2.09 + 0.318);
    // A fine form in ballast reads the loaded rows: Kwon gives ballast only from 0.75.
    close(speedCoefficient(0.65, 0.2, 'ballast'), speedCoefficient(0.65, 0.2, 'loaded'));
    // Too fast for the fit: never negative.
    assert.equal(speedCoefficient(0.55, 0.6, 'loaded'), 0);
  });

  it('form: loaded, ballast and container', () => {
    const v = 100_000 ** (2 / 3);
    close(formCoefficient(7, 100_000, 'other', 'loaded'), 3.5 + 7 ** 6.5 / (2.7 * v));
    close(formCoefficient(7, 100_000, 'other', 'ballast'), 4.9 + 7 ** 6.5 / (2.7 * v));
    close(formCoefficient(7, 100_000, 'container', 'loaded'), 4.9 + 7 ** 6.5 / (22 * v));
  });

  it('Froude number of a 190 m ship at 14 kn', () => {
    // 14 kn = 7.2022 m/s; √(9.81·190) = 43.173
    close(froudeNumber(14, 190), 0.16682);
  });
});

describe('weather', () => {
  it('Beaufort from the wind by the WMO bands', () => {
    const pairs: [number, number][] = [[0, 0], [0.9, 0], [1, 1], [3, 1], [4, 2], [10, 3], [11, 4], [16, 4], [17, 5], [21, 5], [22, 6], [27, 6],
      [28, 7], [33, 7], [34, 8], [40, 8], [41, 9], [47, 9], [48, 10], [55, 10], [56, 11], [63, 11], [64, 12], [100, 12]];
    for (const [wind, force] of pairs) assert.equal(beaufortFromWind(wind), force, `${wind} kn`);
  });

  it('Beaufort from the sea state by the WMO probable wave heights', () => {
    const pairs: [number, number][] = [[0, 0], [0.1, 1], [0.2, 2], [0.6, 3], [1, 4], [2, 5], [3, 6], [4, 7], [5.5, 8], [7, 9], [9, 10], [11.5, 11], [14, 12]];
    for (const [height, force] of pairs) assert.equal(beaufortFromWaveHeight(height), force, `${height} m`);
  });

  it('the angle between the course and where the weather comes from', () => {
    assert.equal(relativeWeatherAngle(90, 90), 0);
    assert.equal(relativeWeatherAngle(90, 270), 180);
    assert.equal(relativeWeatherAngle(350, 20), 30);
    assert.equal(relativeWeatherAngle(20, 350), 30);
    assert.equal(relativeWeatherAngle(0, 225), 135);
  });
});
