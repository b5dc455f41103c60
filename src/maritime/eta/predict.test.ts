// The arrival prediction against its own parts: the sea route, Kwon's method per leg and the
// speed from the track, with weather sources that give known conditions, the simulation, none, and
// one that fails.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadPorts } from '../ports/ports.ts';
import { routeBetween } from '../sea-routes/index.ts';
import type { Vessel } from '../vessels/store.ts';
import { createSimulatedWeather } from '../weather/simulated.ts';
import { HOUR_MS, hoursOf, WeatherUnavailableError, type WeatherHour, type WeatherRequest, type WeatherSource } from '../weather/model.ts';
import { beaufortFromWind, froudeNumber, relativeWeatherAngle, speedLoss } from './kwon.ts';
import { predictArrival, type ArrivalPrediction, type ArrivalResult } from './predict.ts';
import { hullModel } from './ship.ts';
import type { SpeedSample } from './speed.ts';

const ports = await loadPorts({ dataDir: mkdtempSync(path.join(tmpdir(), 'lamis-eta-')) });
const rotterdam = ports.get('NLRTM')!;
const NOW = Date.parse('2026-06-01T12:00:00Z');
const START = { lat: 50.3, lon: -0.5 };

function vessel(overrides: Partial<Vessel> = {}): Vessel {
  return {
    mmsi: 244_000_001, mmsi_kind: 'ship', flag: { alpha2: 'NL', country: 'Netherlands' }, ais_class: 'A', name: 'TEST', callsign: null, imo: null,
    ship_type: 70, category: 'CARGO', dimensions: { to_bow: 150, to_stern: 30, to_port: 14, to_starboard: 14, length: 180, beam: 28 },
    destination: 'NLRTM', eta: null, draught: 10,
    position: { ...START, sog: 12, cog: 80, heading: 80, rot: 0, rot_direction: null, nav_status: 0, position_accuracy: true, timestamp: new Date(NOW).toISOString() },
    source: 'upload', sources: ['upload'], last_update: new Date(NOW).toISOString(), static_updated_at: null,
    ...overrides,
  };
}

/** Weather that is the same everywhere and at every hour. */
function steadyWeather(hour: Omit<WeatherHour, 'time'>, horizonHours = 168): WeatherSource {
  return {
    kind: 'simulated',
    attribution: 'steady test weather',
    horizonHours,
    async hourly(requests: readonly WeatherRequest[]) {
      return requests.map((request) => ({
        lat: request.lat, lon: request.lon, hours: hoursOf(request.from, request.to).map((time) => ({ time: new Date(time).toISOString(), ...hour })),
      }));
    },
  };
}

const NORTH_EAST_GALE = { wind_speed_kn: 25, wind_direction_deg: 45, gust_kn: 32, wave_height_m: 2.2, wave_direction_deg: 45, visibility_m: 10_000 };
const noTrack = async (): Promise<SpeedSample[]> => [];
const steadyTrack = (sog: number) => async (): Promise<SpeedSample[]> =>
  [50, 40, 30, 20, 10, 0].map((minutes) => ({ time: new Date(NOW - minutes * 60_000).toISOString(), sog, nav_status: 0 }));

function predicted(result: ArrivalResult): ArrivalPrediction {
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.prediction;
}

const hours = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / HOUR_MS;

describe('arrival prediction', () => {
  it('sails the sea route leg by leg, each at the calm-water speed less its Kwon loss', async () => {
    const prediction = predicted(await predictArrival(
      { vessel: vessel(), port: rotterdam, speed_kn: 14 },
      { weather: steadyWeather(NORTH_EAST_GALE), track: noTrack, now: () => NOW },
    ));
    const route = routeBetween(START, rotterdam);
    assert.ok(route.ok);
    assert.equal(prediction.distance_nm, Math.round(route.distance_nm * 10) / 10);
    assert.ok(prediction.distance_nm > 200 && prediction.distance_nm < 320, String(prediction.distance_nm));
    assert.equal(prediction.legs.length, Math.ceil(route.distance_nm / 50));
    assert.equal(prediction.speed.source, 'given');
    assert.equal(prediction.speed.calm_water_kn, 14);

    const hull = hullModel(vessel(), 14);
    let time = NOW;
    for (const leg of prediction.legs) {
      // Shown lengths and speeds are rounded: the times they add up to drift by seconds.
      assert.ok(Math.abs(Date.parse(leg.start) - time) < 60_000);
      // Force 6 from the wind (25 kn) and from the sea (2.2 m): both from 045°.
      assert.equal(leg.beaufort, beaufortFromWind(25));
      const relative = relativeWeatherAngle(leg.course_deg, 45);
      const expected = speedLoss({
        beaufort: 6, relative_deg: relative, block_coefficient: hull.block_coefficient, froude: froudeNumber(14, hull.lpp_m),
        loading: hull.loading, form: hull.form, displacement_m3: hull.displacement_m3,
      });
      // Courses are shown to the degree and the loss was computed with the exact one: only a leg
      // within a degree of a sector's edge may fall in the next sector.
      const nearEdge = [30, 60, 150].some((edge) => Math.abs(relative - edge) <= 1);
      if (!nearEdge) assert.ok(Math.abs(leg.speed_loss_pct - expected.percent) < 0.05, `${leg.speed_loss_pct} vs ${expected.percent}`);
      assert.ok(Math.abs(leg.speed_kn - 14 * (1 - leg.speed_loss_pct / 100)) < 0.01);
      time += ((leg.to_nm - leg.from_nm) / leg.speed_kn) * HOUR_MS;
      assert.ok(Math.abs(Date.parse(leg.end) - time) < 60_000);
    }
    assert.ok(Math.abs(Date.parse(prediction.eta) - time) < 60_000);
    assert.equal(Date.parse(prediction.eta_calm_water), Math.round((NOW + (route.distance_nm / 14) * HOUR_MS) / 1000) * 1000);
    assert.ok(prediction.weather_delay_hours > 0, 'a north-east gale slows a ship heading up the Channel');
    assert.ok(Math.abs(prediction.duration_hours - hours(prediction.departure.time, prediction.eta)) < 0.01);
    assert.equal(prediction.weather.legs_with_forecast, prediction.legs.length);
    assert.ok(prediction.losses.max_pct >= prediction.losses.mean_pct && prediction.losses.mean_pct > 0);
    const bySector = Object.values(prediction.losses.by_sector).reduce((sum, sector) => sum + sector.legs, 0);
    assert.equal(bySector, prediction.legs.length);
    assert.equal(prediction.route.type, 'Feature');
    assert.equal(prediction.route.geometry.type, 'LineString');
  });

  it('predicts one vessel a turn of the event loop, so requests get in between', async () => {
    const asked: number[] = [];
    const base = steadyWeather(NORTH_EAST_GALE);
    const weather: WeatherSource = { ...base, hourly: (requests) => (asked.push(asked.length), base.hourly(requests)) };
    const both = Promise.all([1, 2].map((i) => predictArrival({ vessel: vessel({ mmsi: 244_000_000 + i }), port: rotterdam, speed_kn: 10 }, { weather, track: noTrack, now: () => NOW })));
    while (asked.length === 0) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(asked.length, 1, 'the second vessel waits for a later turn');
    assert.ok((await both).every((result) => result.ok));
    assert.equal(asked.length, 2);
  });

  it('in calm water, or with no weather source, arrives at distance over speed', async () => {
    for (const weather of [null, steadyWeather({ ...NORTH_EAST_GALE, wind_speed_kn: 0.5, wave_height_m: 0.02 })]) {
      const prediction = predicted(await predictArrival({ vessel: vessel(), port: rotterdam, speed_kn: 10 }, { weather, track: noTrack, now: () => NOW }));
      assert.equal(prediction.eta, prediction.eta_calm_water);
      assert.equal(prediction.weather_delay_hours, 0);
      assert.equal(prediction.weather.status, weather === null ? 'not_requested' : 'used');
    }
  });

  it('works the calm-water speed back from the AIS speed made in the weather at the position', async () => {
    const prediction = predicted(await predictArrival(
      { vessel: vessel(), port: rotterdam },
      { weather: steadyWeather(NORTH_EAST_GALE), track: steadyTrack(12), now: () => NOW },
    ));
    assert.equal(prediction.speed.source, 'ais_track');
    assert.equal(prediction.speed.observed_kn, 12);
    assert.equal(prediction.speed.samples, 6);
    const loss = prediction.speed.loss_at_position_pct!;
    assert.ok(loss > 0);
    // The fixed point: the calm-water speed less the loss at it is the observed speed.
    assert.ok(Math.abs(prediction.speed.calm_water_kn * (1 - loss / 100) - 12) < 0.02, `${prediction.speed.calm_water_kn} less ${loss} %`);
    assert.match(prediction.assumptions.join('\n'), /trimmed mean of 6 AIS speeds/);
  });

  it('assumes calm water beyond the forecast horizon and says so', async () => {
    const prediction = predicted(await predictArrival(
      { vessel: vessel(), port: rotterdam, speed_kn: 12 },
      { weather: steadyWeather(NORTH_EAST_GALE, 6), track: noTrack, now: () => NOW },
    ));
    const withForecast = prediction.legs.filter((leg) => leg.weather !== null);
    assert.ok(withForecast.length > 0 && withForecast.length < prediction.legs.length);
    for (const leg of prediction.legs.filter((leg) => leg.weather === null)) {
      assert.equal(leg.speed_loss_pct, 0);
      assert.ok(Date.parse(leg.start) + ((leg.to_nm - leg.from_nm) / 2 / 12) * HOUR_MS > NOW + 5 * HOUR_MS);
    }
    assert.equal(prediction.weather.legs_without_forecast, prediction.legs.length - withForecast.length);
    assert.match(prediction.assumptions.join('\n'), /beyond its 6-hour horizon/);
  });

  it('carries on in calm water when the weather source fails, and says why', async () => {
    const failing: WeatherSource = {
      ...steadyWeather(NORTH_EAST_GALE),
      async hourly() {
        throw new WeatherUnavailableError('timeout', 'Open-Meteo forecast API: no complete answer within 10 ms');
      },
    };
    const prediction = predicted(await predictArrival({ vessel: vessel(), port: rotterdam, speed_kn: 12 }, { weather: failing, track: noTrack, now: () => NOW }));
    assert.equal(prediction.weather.status, 'unavailable');
    assert.equal(prediction.eta, prediction.eta_calm_water);
    assert.match(prediction.assumptions.join('\n'), /failed \(Open-Meteo forecast API: no complete answer/);
  });

  it('gives the same answer twice on the simulated forecast, and compares the AIS ETA', async () => {
    const eta = '2026-06-02T10:00:00.000Z';
    const ask = () => predictArrival({ vessel: vessel({ eta }), port: rotterdam }, { weather: createSimulatedWeather(168), track: steadyTrack(13), now: () => NOW });
    const first = predicted(await ask());
    assert.deepEqual(predicted(await ask()), first);
    assert.equal(first.ais_eta.reported, eta);
    assert.equal(first.ais_eta.destination, 'NLRTM');
    assert.equal(first.ais_eta.difference_hours, Math.round(hours(first.eta, eta) * 10) / 10);
  });

  it('refuses a vessel without a position, one not under way, and a speed out of range', async () => {
    const deps = { weather: null, track: noTrack, now: () => NOW };
    const none = await predictArrival({ vessel: vessel({ position: null }), port: rotterdam }, deps);
    assert.deepEqual(none.ok ? null : none.error, 'no_position');
    const moored = vessel();
    moored.position = { ...moored.position!, sog: 0, nav_status: 5 };
    const still = await predictArrival({ vessel: moored, port: rotterdam }, deps);
    assert.deepEqual(still.ok ? null : still.error, 'no_speed');
    assert.ok((await predictArrival({ vessel: moored, port: rotterdam, speed_kn: 11 }, deps)).ok, 'a given speed needs no AIS speed');
    const fast = await predictArrival({ vessel: vessel(), port: rotterdam, speed_kn: 80 }, deps);
    assert.deepEqual(fast.ok ? null : fast.error, 'invalid_speed');
  });
});

describe('the route is fitted to the vessel\'s AIS dimensions', () => {
  // In the Elbe off Brunsbüttel, bound for Kiel: the canal for a ship that fits it, round the Skaw for one that does not.
  const elbe = { ...START, lat: 53.87, lon: 9.1 };
  const kiel = ports.get('DEKEL')!;
  const bound = (overrides: Partial<Vessel>) => vessel({ ...overrides, position: { ...vessel().position!, ...elbe } });

  it('a ship that fits goes through the Kiel Canal, as GET /v3/maritime/routes routes it', async () => {
    const prediction = predicted(await predictArrival({ vessel: bound({ draught: 8 }), port: kiel, speed_kn: 10 }, { weather: null, track: noTrack, now: () => NOW }));
    assert.deepEqual(prediction.route.properties.passages.map((passage) => passage.id), ['kiel']);
    const route = routeBetween(elbe, kiel, { vessel: { length_m: 180, beam_m: 28, draught_m: 8 } });
    assert.ok(route.ok && Math.abs(route.distance_nm - prediction.distance_nm) < 0.1);
    assert.ok(prediction.distance_nm < 80, String(prediction.distance_nm));
  });

  it('one drawing 12 m goes round the Skaw and the assumptions say why; 16 m cannot reach Kiel at all', async () => {
    const prediction = predicted(await predictArrival({ vessel: bound({ draught: 12 }), port: kiel, speed_kn: 10 }, { weather: null, track: noTrack, now: () => NOW }));
    assert.ok(!prediction.route.properties.passages.some((passage) => passage.id === 'kiel'));
    assert.ok(prediction.distance_nm > 400, String(prediction.distance_nm));
    assert.match(prediction.assumptions.join(' '), /too large for Kiel Canal/);
    const blocked = await predictArrival({ vessel: bound({ draught: 16 }), port: kiel, speed_kn: 10 }, { weather: null, track: noTrack, now: () => NOW });
    assert.ok(!blocked.ok && blocked.error === 'blocked', JSON.stringify(blocked));
  });
});
