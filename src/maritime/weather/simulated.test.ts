// The simulated forecast: the same answer for the same place and hour, and weather that hangs
// together (gusts above the wind, waves that follow it, smooth in time and space, the climate's
// belts in the right places).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { HOUR_MS } from './model.ts';
import { createSimulatedWeather, simulateHours } from './simulated.ts';

const START = Date.parse('2026-01-01T00:00:00Z');
/** Every third hour of a year. */
const YEAR = Array.from({ length: (365 * 24) / 3 }, (_, i) => START + i * 3 * HOUR_MS);
const WEEK = Array.from({ length: 7 * 24 }, (_, i) => START + i * HOUR_MS);

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const winds = (lat: number, lon: number, hours = YEAR) => simulateHours({ lat, lon }, hours).map((hour) => hour.wind_speed_kn!);

function correlation(xs: readonly number[], ys: readonly number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}

describe('simulated forecast', () => {
  it('answers the same for the same place and hour, however it is asked', async () => {
    const source = createSimulatedWeather(168);
    const [alone] = await source.hourly([{ lat: 47.5, lon: -6.2, from: START + 30 * HOUR_MS, to: START + 30 * HOUR_MS }]);
    const [, together] = await source.hourly([
      { lat: 10, lon: 10, from: START, to: START + 5 * HOUR_MS },
      { lat: 47.5, lon: -6.2, from: START + 29.5 * HOUR_MS, to: START + 40 * HOUR_MS },
    ]);
    assert.equal(alone!.hours.length, 1);
    assert.equal(together!.hours[0]!.time, new Date(START + 29 * HOUR_MS).toISOString(), 'hours start with the hour holding `from`');
    assert.deepEqual(together!.hours[1], alone!.hours[0]);
    assert.equal(together!.hours.length, 12);
  });

  it('answers the same whichever places were asked before, in a fresh process', async () => {
    // Points in the four weather cells meeting at 45° N 0°, in cells of one row and in another
    // hemisphere, asked in two orders: the systems kept for a cell and hour must be that cell's.
    const points = [
      { lat: 44.9, lon: -0.1 }, { lat: 45.1, lon: -0.1 }, { lat: 44.9, lon: 0.1 }, { lat: 45.1, lon: 0.1 },
      { lat: 50, lon: -30 }, { lat: 50, lon: 30 }, { lat: 50, lon: 100 }, { lat: -20, lon: 60 },
    ];
    const inOrder = async (order: readonly number[]) => {
      const script = `
        import { simulateHours } from ${JSON.stringify(import.meta.resolve('./simulated.ts'))};
        const points = ${JSON.stringify(points)};
        const hours = Array.from({ length: 48 }, (_, i) => ${START} + i * ${HOUR_MS});
        const answers = [];
        for (const i of ${JSON.stringify(order)}) answers[i] = simulateHours(points[i], hours);
        console.log(JSON.stringify(answers));`;
      return new Promise<unknown>((resolve, reject) => {
        execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout, stderr) =>
          error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout)));
      });
    };
    const [forward, backward] = await Promise.all([inOrder([0, 1, 2, 3, 4, 5, 6, 7]), inOrder([7, 6, 5, 4, 3, 2, 1, 0])]);
    assert.deepEqual(backward, forward);
    assert.deepEqual(forward, points.map((point) => simulateHours(point, WEEK.slice(0, 48))));
  });

  it('has gusts at or above the wind, every value within physical bounds', () => {
    for (const [lat, lon] of [[50, -20], [15, -40], [-50, 60], [20, 130], [65, 5]] as const) {
      for (const hour of simulateHours({ lat, lon }, YEAR)) {
        assert.ok(hour.gust_kn! >= hour.wind_speed_kn!, `${hour.time} ${lat},${lon}: gust ${hour.gust_kn} < wind ${hour.wind_speed_kn}`);
        assert.ok(hour.wind_speed_kn! >= 0 && hour.wind_speed_kn! < 130);
        assert.ok(hour.wave_height_m! > 0 && hour.wave_height_m! < 20);
        assert.ok(hour.visibility_m! >= 50 && hour.visibility_m! <= 30_000);
        assert.ok(hour.wind_direction_deg! >= 0 && hour.wind_direction_deg! < 360);
      }
    }
  });

  it('builds waves from the wind: higher seas in stronger wind, lagging behind it', () => {
    const hours = simulateHours({ lat: 52, lon: -25 }, YEAR);
    const wind = hours.map((hour) => hour.wind_speed_kn!);
    const waves = hours.map((hour) => hour.wave_height_m!);
    assert.ok(correlation(wind, waves) > 0.8, `correlation ${correlation(wind, waves)}`);
    const inGales = waves.filter((_, i) => wind[i]! >= 34);
    const inLightAir = waves.filter((_, i) => wind[i]! < 10);
    assert.ok(inGales.length > 0 && inLightAir.length > 0);
    assert.ok(mean(inGales) > mean(inLightAir) + 3, `${mean(inGales)} m in gales, ${mean(inLightAir)} m in light air`);
    // The sea keeps building after the wind: hourly waves follow the wind of hours before better than the wind of the hour.
    const hourly = simulateHours({ lat: 52, lon: -25 }, WEEK.concat(WEEK.map((t) => t + 7 * 24 * HOUR_MS)));
    const w = hourly.map((hour) => hour.wind_speed_kn!);
    const h = hourly.map((hour) => hour.wave_height_m!);
    assert.ok(correlation(w.slice(0, -4), h.slice(4)) > correlation(w.slice(4), h.slice(0, -4)));
  });

  it('changes smoothly from hour to hour and over short distances', () => {
    const hours = simulateHours({ lat: 45, lon: -30 }, YEAR.flatMap((t) => [t, t + HOUR_MS]));
    let jumps = 0;
    for (let i = 0; i < hours.length; i += 2) if (Math.abs(hours[i]!.wind_speed_kn! - hours[i + 1]!.wind_speed_kn!) > 8) jumps++;
    assert.ok(jumps / (hours.length / 2) < 0.01, `${jumps} hourly jumps over 8 kn`);
    const here = winds(45, -30);
    const nearby = winds(45.1, -29.9);
    const far = winds(30, 160);
    const differences = here.map((wind, i) => Math.abs(wind - nearby[i]!));
    assert.ok(mean(differences) < 1.5, `mean difference 8 nm away: ${mean(differences)} kn`);
    assert.ok(mean(here.map((wind, i) => Math.abs(wind - far[i]!))) > 5 * mean(differences));
  });

  it('puts the climate\'s belts where they are: trades, doldrums, westerlies and a windier southern ocean', () => {
    const trades = simulateHours({ lat: 15, lon: -40 }, YEAR);
    const fromNorthEast = trades.filter((hour) => hour.wind_direction_deg! >= 20 && hour.wind_direction_deg! <= 100).length;
    assert.ok(fromNorthEast / trades.length > 0.8, 'north-east trades');
    assert.ok(mean(winds(0, -30)) < 6, 'doldrums');
    const westerlies = simulateHours({ lat: 50, lon: -20 }, YEAR);
    const fromWest = westerlies.filter((hour) => hour.wind_direction_deg! >= 180 && hour.wind_direction_deg! <= 340).length;
    assert.ok(fromWest / westerlies.length > 0.7, 'westerlies');
    const north = winds(50, -20);
    assert.ok(mean(north) > 15 && mean(north) < 25, `mean at 50° N ${mean(north)} kn`);
    const gales = north.filter((wind) => wind >= 34).length / north.length;
    assert.ok(gales > 0.02 && gales < 0.2, `gales ${gales * 100} % of the time at 50° N`);
    assert.ok(mean(winds(-50, 60)) > mean(north), 'the southern ocean is windier');
  });

  it('has fog now and then in light wind, and never in a gale', () => {
    const hours = [[45, -50], [55, 0], [40, 150]].flatMap(([lat, lon]) => simulateHours({ lat: lat!, lon: lon! }, YEAR));
    const foggy = hours.filter((hour) => hour.visibility_m! < 1000);
    assert.ok(foggy.length > 0 && foggy.length / hours.length < 0.1, `${foggy.length} foggy hours of ${hours.length}`);
    assert.ok(foggy.every((hour) => hour.wind_speed_kn! < 14));
  });
});
