// Port weather, weather holds and weather limits over HTTP against a real server: the simulated
// forecast by default, limits set by the instance's operators and by two organisations (keys made
// with the operator commands), on SQLite and, when configured, PostgreSQL; and a server on the live
// Open-Meteo adapter pointed at a loopback server answering in Open-Meteo's shape.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { fetchLimitedWaveM } from '../../src/maritime/weather/exposure.ts';
import { DEFAULT_THRESHOLDS, weatherHolds } from '../../src/maritime/weather/holds.ts';
import { HOUR_MS, hoursOf } from '../../src/maritime/weather/model.ts';
import { simulateHours } from '../../src/maritime/weather/simulated.ts';
import { replayValues, startOpenMeteoReplay, type OpenMeteoReplay } from '../../src/maritime/weather/testing.ts';
import { freshPostgresSchema, postgresUrl, skipPostgres } from '../support/backends.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
const ROTTERDAM = { lat: 51.9, lon: 4.4833 };
const BOTLEK = { lat: 51.88, lon: 4.29 };

async function portData(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-weather-'));
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', ...ROTTERDAM, harbour_size: 'large' }),
    wpiEntry(31150, { name: 'Rotterdam Botlek', country: 'NL', ...BOTLEK, harbour_size: 'medium', harbour_type: 'river_basins', shelter: 'good' }),
  ]);
  return dataDir;
}

const round2 = (degrees: number) => Math.round(degrees * 100) / 100;

/** From the next whole hour, 12 hours. */
function nextHours(hours = 12): { from: string; to: string } {
  const from = Math.ceil(Date.now() / HOUR_MS) * HOUR_MS;
  return { from: new Date(from).toISOString(), to: new Date(from + hours * HOUR_MS).toISOString() };
}

const BACKENDS = [
  { name: 'SQLite', skip: false as string | false, storage: async () => ({ config: {}, env: {}, drop: async () => {} }) },
  {
    name: 'PostgreSQL',
    skip: skipPostgres,
    async storage() {
      const { schema, drop } = await freshPostgresSchema();
      const url = new URL(postgresUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return { config: { databaseUrl: url.toString() }, env: { DATABASE_URL: url.toString() }, drop };
    },
  },
];

for (const backend of BACKENDS) {
  describe(`port weather on the simulated forecast, ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let drop: () => Promise<void>;
    const keys: Record<'a' | 'b', string> = { a: '', b: '' };

    before(async () => {
      const storage = await backend.storage();
      drop = storage.drop;
      server = await startTestServer({ config: { dataDir: await portData(), ...storage.config } });
      const lamis = async (...args: string[]) => {
        const { stdout } = await run(process.execPath, [bin, ...args, '--json'], { env: { ...process.env, LAMIS_DATA_DIR: server.config.dataDir, ...storage.env } });
        return JSON.parse(stdout);
      };
      for (const name of ['a', 'b'] as const) {
        const org = await lamis('org', 'create', '--name', `Shipping ${name.toUpperCase()}`, '--plan', 'enterprise');
        keys[name] = (await lamis('keys', 'create', '--org', org.id, '--env', 'production', '--name', 'weather')).secret;
      }
    });
    after(async () => {
      await server?.close();
      await drop?.();
    });

    const call = (method: string, url: string, key?: string, body?: unknown) => fetch(server.url + url, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : AUTH), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const ok = async (method: string, url: string, key?: string, body?: unknown) => {
      const response = await call(method, url, key, body);
      assert.equal(response.status, 200, await response.clone().text());
      return json(response);
    };
    const problem = async (response: Response, status: number, code: string) => {
      assert.equal(response.status, status, await response.clone().text());
      const body = await json(response);
      assert.equal(body.code, code);
      return body;
    };

    test('the hourly weather at the port is the simulation\'s, and says so', async () => {
      const { from, to } = nextHours();
      const weather = await ok('GET', `/v3/maritime/ports/NLRTM/weather?from=${from}&to=${to}`);
      assert.deepEqual(weather.port, { id: 'NLRTM', name: 'Rotterdam', ...ROTTERDAM, harbour_size: 'large' });
      assert.equal(weather.source.kind, 'simulated');
      assert.match(weather.source.attribution, /not a forecast/);
      assert.deepEqual(weather.hours, simulateHours(ROTTERDAM, hoursOf(Date.parse(from), Date.parse(to))));
      assert.equal(weather.hours.length, 13);
      assert.match(weather.disclaimer, /sole source/);
    });

    test('a river port with basins has the wind sea of its basins, not the open sea\'s, and says why', async () => {
      const { from, to } = nextHours(48);
      const weather = await ok('GET', `/v3/maritime/ports/WPI-31150/weather?from=${from}&to=${to}`);
      assert.deepEqual(weather.sea_state, {
        basis: 'river port with basins (good shelter), World Port Index', fetch_km: 1, transmission: 0,
        marine_point: { ...BOTLEK, distance_nm: 0, basis: 'port_position' },
      });
      const open = simulateHours(BOTLEK, hoursOf(Date.parse(from), Date.parse(to)));
      weather.hours.forEach((hour: { wave_height_m: number; wind_speed_kn: number }, index: number) => {
        assert.equal(hour.wind_speed_kn, open[index]!.wind_speed_kn);
        assert.ok(hour.wave_height_m <= Math.round(fetchLimitedWaveM(hour.wind_speed_kn, 1) * 100) / 100, `${hour.wave_height_m} m`);
      });
      assert.ok(Math.max(...open.map((hour) => hour.wave_height_m!)) > Math.max(...weather.hours.map((hour: { wave_height_m: number }) => hour.wave_height_m)));
    });

    test('a hold\'s factor held throughout agrees with its duration, also cut to a period off the hour', async () => {
      await ok('PUT', '/v3/maritime/ports/WPI-31150/weather-thresholds', keys.a, { wind_kn: 1 });
      const start = Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + 20 * 60_000;
      const held = await ok('GET', `/v3/maritime/ports/WPI-31150/weather-holds?from=${new Date(start).toISOString()}&to=${new Date(start + 47 * HOUR_MS).toISOString()}`, keys.a);
      assert.equal(held.held_hours, 47);
      assert.deepEqual(held.holds.map((hold: { duration_hours: number; limiting: { factor: string; hours: number }[] }) => [hold.duration_hours, hold.limiting.find((f) => f.factor === 'wind')!.hours]), [[47, 47]]);
    });

    test('periods beyond the forecast horizon, too far back or reversed are refused by parameter', async () => {
      const paths = async (url: string) => (await problem(await call('GET', url), 400, 'validation_failed')).errors.map((e: { path: string }) => e.path);
      const now = Date.now();
      assert.deepEqual(await paths(`/v3/maritime/ports/NLRTM/weather?to=${new Date(now + 170 * HOUR_MS).toISOString()}`), ['/querystring/to']);
      assert.deepEqual(await paths(`/v3/maritime/ports/NLRTM/weather-holds?from=${new Date(now - 25 * HOUR_MS).toISOString()}`), ['/querystring/from']);
      assert.deepEqual(await paths(`/v3/maritime/ports/NLRTM/weather?from=${new Date(now + HOUR_MS).toISOString()}&to=${new Date(now).toISOString()}`), ['/querystring/to']);
      await problem(await call('GET', '/v3/maritime/ports/NLXXX/weather'), 404, 'port_not_found');
      await problem(await call('GET', '/v3/maritime/ports/NLXXX/weather-thresholds'), 404, 'port_not_found');
    });

    test('limits start at the defaults for the harbour size', async () => {
      const limits = await ok('GET', '/v3/maritime/ports/NLRTM/weather-thresholds', keys.a);
      assert.equal(limits.scope, 'organisation');
      assert.equal(limits.defaults_basis, 'large');
      assert.deepEqual(limits.effective, DEFAULT_THRESHOLDS.large);
      assert.deepEqual(limits.sources, { wind_kn: 'default', gust_kn: 'default', wave_height_m: 'default', visibility_m: 'default' });
      assert.equal((await ok('GET', '/v3/maritime/ports/NLRTM/weather-thresholds')).scope, 'instance');
    });

    test('operators set instance-wide limits, each organisation its own over them', async () => {
      const instance = await ok('PUT', '/v3/maritime/ports/nlrtm/weather-thresholds', undefined, { wind_kn: 30, wave_height_m: 3 });
      assert.equal(instance.scope, 'instance');
      assert.deepEqual(instance.instance.values, { wind_kn: 30, gust_kn: null, wave_height_m: 3, visibility_m: null });
      const a = await ok('PUT', '/v3/maritime/ports/NLRTM/weather-thresholds', keys.a, { wind_kn: 27.5, visibility_m: null, gust_kn: 38 });
      assert.deepEqual(a.effective, { wind_kn: 27.5, gust_kn: 38, wave_height_m: 3, visibility_m: 500 });
      assert.deepEqual(a.sources, { wind_kn: 'organisation', gust_kn: 'organisation', wave_height_m: 'instance', visibility_m: 'default' });
      const b = await ok('GET', '/v3/maritime/ports/NLRTM/weather-thresholds', keys.b);
      assert.equal(b.organisation, null);
      assert.deepEqual(b.effective, { ...DEFAULT_THRESHOLDS.large, wind_kn: 30, wave_height_m: 3 });
      // Clearing the organisation's layer falls back to the instance's.
      const cleared = await ok('PUT', '/v3/maritime/ports/NLRTM/weather-thresholds', keys.a, {});
      assert.equal(cleared.organisation, null);
      assert.equal(cleared.effective.wind_kn, 30);
    });

    test('bad limits are refused by name', async () => {
      const paths = async (body: unknown) =>
        (await problem(await call('PUT', '/v3/maritime/ports/NLRTM/weather-thresholds', keys.a, body), 400, 'validation_failed')).errors.map((e: { path: string }) => e.path);
      assert.deepEqual(await paths({ wind_kn: 0 }), ['/body/wind_kn']);
      assert.deepEqual(await paths({ wave_height_m: 'high' }), ['/body/wave_height_m']);
      assert.deepEqual(await paths({ wind_kn: 30, gust_kn: 25 }), ['/body/gust_kn']);
      assert.deepEqual(await paths({ windspeed: 30 }), ['/body/windspeed']);
    });

    test('holds follow the forecast and the caller\'s limits', async () => {
      const { from, to } = nextHours(24);
      const hours = simulateHours(ROTTERDAM, hoursOf(Date.parse(from), Date.parse(to)));
      // Limits every hour breaks, and limits no hour reaches.
      await ok('PUT', '/v3/maritime/ports/NLRTM/weather-thresholds', keys.a, { wind_kn: 1, visibility_m: 20_000 });
      await ok('PUT', '/v3/maritime/ports/NLRTM/weather-thresholds', keys.b, { wind_kn: 100, gust_kn: 150, wave_height_m: 20, visibility_m: 10 });
      const held = await ok('GET', `/v3/maritime/ports/NLRTM/weather-holds?from=${from}&to=${to}`, keys.a);
      assert.equal(held.source.kind, 'simulated');
      assert.deepEqual(held.thresholds, { wind_kn: 1, gust_kn: 45, wave_height_m: 3, visibility_m: 20_000 });
      assert.equal(held.threshold_sources.wind_kn, 'organisation');
      assert.deepEqual(held.holds, weatherHolds(hours, held.thresholds, Date.parse(from), Date.parse(to)));
      assert.equal(held.holds.length, 1);
      assert.equal(held.held_hours, 24);
      const wind = held.holds[0].limiting.find((factor: { factor: string }) => factor.factor === 'wind');
      assert.equal(wind.hours, 24);
      assert.equal(wind.worst, Math.max(...hours.slice(0, 24).map((hour) => hour.wind_speed_kn!)));

      const clear = await ok('GET', `/v3/maritime/ports/NLRTM/weather-holds?from=${from}&to=${to}`, keys.b);
      assert.deepEqual(clear.holds, []);
      assert.equal(clear.held_hours, 0);

      // The instance's operators see the defaults and their own layer.
      const operator = await ok('GET', `/v3/maritime/ports/NLRTM/weather-holds?from=${from}&to=${to}`);
      assert.deepEqual(operator.holds, weatherHolds(hours, { ...DEFAULT_THRESHOLDS.large, wind_kn: 30, wave_height_m: 3 }, Date.parse(from), Date.parse(to)));
    });
  });
}

describe('port weather on the live Open-Meteo adapter', () => {
  let replay: OpenMeteoReplay;
  let server: TestServer;
  before(async () => {
    replay = await startOpenMeteoReplay();
    server = await startTestServer({
      config: { dataDir: await portData(), maritimeWeather: 'open-meteo', openMeteoForecastUrl: replay.url, openMeteoMarineUrl: replay.url, openMeteoTimeoutMs: 2000 },
    });
  });
  after(async () => {
    await server?.close();
    await replay?.close();
  });

  test('answers the forecast Open-Meteo gives, with its attribution', async () => {
    const { from, to } = nextHours(6);
    const response = await fetch(`${server.url}/v3/maritime/ports/NLRTM/weather?from=${from}&to=${to}`, { headers: AUTH });
    assert.equal(response.status, 200);
    const weather = await json(response);
    assert.equal(weather.source.kind, 'open-meteo');
    assert.match(weather.source.attribution, /Open-Meteo\.com/);
    assert.equal(weather.hours.length, 7);
    // Rotterdam's position is in the city: the marine model is asked at the nearest open water.
    const sea = weather.sea_state.marine_point;
    assert.equal(sea.basis, 'nearest_open_water');
    assert.ok(sea.distance_nm > 5 && sea.distance_nm < 30 && sea.lon < 4.2, JSON.stringify(sea));
    for (const hour of weather.hours) {
      assert.equal(hour.wind_speed_kn, replayValues(51.9, 4.48, Date.parse(hour.time) / 1000).wind_speed_10m);
      assert.equal(hour.wave_height_m, replayValues(round2(sea.lat), round2(sea.lon), Date.parse(hour.time) / 1000).wave_height);
    }
    const asked = (path: string) => replay.requests.find((request) => request.url.pathname === path)!.url.searchParams;
    assert.deepEqual([asked('/v1/forecast').get('latitude'), asked('/v1/forecast').get('longitude')], ['51.9', '4.48']);
    assert.deepEqual([asked('/v1/marine').get('latitude'), asked('/v1/marine').get('longitude')], [String(round2(sea.lat)), String(round2(sea.lon))]);
  });

  test('a failing source is a 503 weather_unavailable with Retry-After', async () => {
    replay.behave({ kind: 'error', status: 429, reason: 'Hourly API request limit exceeded. Please try again in the next hour.', retryAfter: '120' });
    // Days ahead the first test did not fetch, so the cache cannot answer.
    const from = new Date(Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + 3 * 24 * HOUR_MS);
    const to = new Date(from.getTime() + 6 * HOUR_MS);
    const response = await fetch(`${server.url}/v3/maritime/ports/NLRTM/weather-holds?from=${from.toISOString()}&to=${to.toISOString()}`, { headers: AUTH });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('retry-after'), '120');
    const body = await json(response);
    assert.equal(body.code, 'weather_unavailable');
    assert.equal(body.failure, 'rate_limited');
    assert.match(body.detail, /Hourly API request limit exceeded/);
  });
});
