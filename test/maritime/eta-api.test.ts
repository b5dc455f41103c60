// Arrival prediction over HTTP against a real server on the simulated forecast: vessels sent as NMEA
// through POST /v3/maritime/ais/nmea (tag-block times spread over the last minutes so the recorder
// keeps a track), then their ETA at Rotterdam, checked against the sea route and against the
// prediction worked out directly from the same vessel, track and forecast.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatTagBlock } from '../../src/maritime/ais/index.ts';
import { predictArrival } from '../../src/maritime/eta/predict.ts';
import { loadPorts } from '../../src/maritime/ports/ports.ts';
import { routeBetween } from '../../src/maritime/sea-routes/index.ts';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { HOUR_MS } from '../../src/maritime/weather/model.ts';
import { OPEN_METEO_HORIZON_HOURS } from '../../src/maritime/weather/open-meteo.ts';
import { createSimulatedWeather } from '../../src/maritime/weather/simulated.ts';
import { startOpenMeteoReplay, type OpenMeteoReplay } from '../../src/maritime/weather/testing.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const EASTBOUND = 244_110_001;
const MOORED = 244_110_002;
const SILENT = 244_110_003;
const NEVER_HEARD = 244_110_999;

let server: TestServer;
/** When the reported ETA is: about 20 hours after the uploads, to the minute. */
let reportedEta: Date;
/** Where the eastbound ship reported last. */
let last: { lat: number; lon: number };

const get = (url: string) => fetch(server.url + url, { headers: AUTH });
const upload = async (lines: string[]) => {
  const response = await fetch(`${server.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: lines.join('\r\n') });
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal((await json(response)).rejected.checksum, 0);
};
const tagged = (lines: string[], at: number) => lines.map((line) => formatTagBlock([`c:${Math.round(at / 1000)}`]) + line);

before(async () => {
  server = await startTestServer();
  const now = Date.now();
  reportedEta = new Date(Math.floor((now + 20 * HOUR_MS) / 60_000) * 60_000);
  const voyage = {
    shipname: 'CHANNEL TRADER', shiptype: 70, to_bow: 150, to_stern: 30, to_port: 15, to_starboard: 17, draught: 118, destination: 'NLRTM',
    month: reportedEta.getUTCMonth() + 1, day: reportedEta.getUTCDate(), hour: reportedEta.getUTCHours(), minute: reportedEta.getUTCMinutes(),
  };
  const lines: string[] = [...sentences(staticVoyage(EASTBOUND, voyage), 1)];
  // Five reports a minute apart, sailing east up the Channel at 13.6 to 14.2 kn.
  const speeds = [140, 136, 142, 139, 141];
  speeds.forEach((speed, i) => {
    last = { lat: 50.3, lon: -0.7 + i * 0.0061 };
    lines.push(...tagged(sentences(positionReport(EASTBOUND, last.lat, last.lon, { speed, course: 800, heading: 80, status: 0 })), now - (4 - i) * 60_000));
  });
  lines.push(...sentences(staticVoyage(MOORED, { ...voyage, shipname: 'QUAY SITTER' }), 2));
  lines.push(...sentences(positionReport(MOORED, 51.95, 4.1, { speed: 0, status: 5 })));
  lines.push(...sentences(staticVoyage(SILENT, { ...voyage, shipname: 'NO FIX YET' }), 3));
  await upload(lines);
});
after(() => server.close());

async function eta(mmsi: number, query: string): Promise<any> {
  const response = await get(`/v3/maritime/vessels/${mmsi}/eta?${query}`);
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

describe('ETA of a vessel under way', () => {
  test('routes from its last position over the sea lanes, at its recent AIS speed, with the weather on each leg', async () => {
    const prediction = await eta(EASTBOUND, 'port=NLRTM');
    const rotterdam: { lat: number; lon: number } = await json(await get('/v3/maritime/ports/NLRTM'));
    const route = routeBetween(last, rotterdam);
    assert.ok(route.ok);
    assert.equal(prediction.port.id, 'NLRTM');
    assert.equal(prediction.distance_nm, Math.round(route.distance_nm * 10) / 10);
    assert.ok(prediction.distance_nm > 200 && prediction.distance_nm < 350, String(prediction.distance_nm));
    assert.deepEqual([prediction.departure.lat, prediction.departure.lon], [last.lat, Math.round(last.lon * 600_000) / 600_000]);

    assert.equal(prediction.speed.source, 'ais_track');
    assert.equal(prediction.speed.samples, 5);
    // Trimmed mean of 13.6, 13.9, 14.0, 14.1, 14.2 without the ends.
    assert.equal(prediction.speed.observed_kn, 14);
    assert.ok(prediction.speed.calm_water_kn >= 14);

    assert.equal(prediction.weather.source, 'simulated');
    assert.equal(prediction.weather.status, 'used');
    assert.equal(prediction.legs.length, Math.ceil(route.distance_nm / 50));
    assert.ok(prediction.legs.every((leg: { weather: unknown }) => leg.weather !== null), 'the whole passage lies within the forecast');
    assert.ok(Date.parse(prediction.eta) >= Date.parse(prediction.eta_calm_water) - 1000);
    assert.equal(prediction.eta, prediction.legs.at(-1).end);
    assert.equal(prediction.hull.block_coefficient, 0.82, 'a 180 m cargo ship at 14 kn is taken for a bulk carrier');
    assert.equal(prediction.hull.draught_m, 11.8);
    assert.match(prediction.assumptions.join('\n'), /Kwon/);

    assert.equal(prediction.route.type, 'Feature');
    const coordinates = prediction.route.geometry.coordinates;
    assert.deepEqual(coordinates.at(-1), [rotterdam.lon, rotterdam.lat]);
    assert.ok(Math.abs(coordinates[0][0] - last.lon) < 1e-4 && Math.abs(coordinates[0][1] - last.lat) < 1e-4);

    assert.equal(prediction.ais_eta.reported, reportedEta.toISOString());
    assert.equal(prediction.ais_eta.destination, 'NLRTM');
    assert.equal(prediction.ais_eta.difference_hours, Math.round(((reportedEta.getTime() - Date.parse(prediction.eta)) / HOUR_MS) * 10) / 10);
    assert.match(prediction.disclaimer, /sole source/);
  });

  test('is what the prediction gives for the same vessel, track and forecast', async () => {
    const answered = await eta(EASTBOUND, 'port=NLRTM');
    const vessel = await json(await get(`/v3/maritime/vessels/${EASTBOUND}`));
    const ports = await loadPorts({ dataDir: server.config.dataDir });
    // The track read over HTTP for the window the prediction asks for, as the server reads it.
    const track = async (mmsi: number, from: number, to: number) => {
      const window = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
      return (await json(await get(`/v3/maritime/vessels/${mmsi}/track?${window}`))).points;
    };
    const direct = await predictArrival({ vessel, port: ports.get('NLRTM')! }, { weather: createSimulatedWeather(OPEN_METEO_HORIZON_HOURS), track });
    assert.ok(direct.ok);
    const { disclaimer, departure, ...rest } = answered;
    assert.ok(disclaimer);
    assert.deepEqual({ ...rest, departure: { ...departure, age_minutes: 0 } }, { ...direct.prediction, departure: { ...direct.prediction.departure, age_minutes: 0 } });
  });

  test('at a given speed', async () => {
    const prediction = await eta(EASTBOUND, 'port=nlrtm&speed_kn=9.5');
    assert.equal(prediction.speed.source, 'given');
    assert.equal(prediction.speed.calm_water_kn, 9.5);
    assert.equal(prediction.speed.observed_kn, null);
    const calmHours = (Date.parse(prediction.eta_calm_water) - Date.parse(prediction.departure.time)) / HOUR_MS;
    assert.ok(Math.abs(calmHours - prediction.distance_nm / 9.5) < 0.01);
  });

  test('of a moored vessel needs a speed', async () => {
    const refused = await problem(`/v3/maritime/vessels/${MOORED}/eta?port=NLRTM`, 422, 'vessel_speed_unknown');
    assert.match(refused.detail, /give speed_kn/);
    const prediction = await eta(MOORED, 'port=NLRTM&speed_kn=6');
    assert.ok(prediction.distance_nm < 40);
  });
});

describe('refusals', () => {
  test('a vessel without a position, one never heard, an unknown or malformed port, a speed out of range', async () => {
    const silent = await problem(`/v3/maritime/vessels/${SILENT}/eta?port=NLRTM`, 409, 'vessel_position_unknown');
    assert.match(silent.detail, new RegExp(String(SILENT)));
    await problem(`/v3/maritime/vessels/${NEVER_HEARD}/eta?port=NLRTM`, 404, 'vessel_not_found');
    await problem(`/v3/maritime/vessels/${EASTBOUND}/eta?port=NLXXX`, 404, 'port_not_found');
    const paths = async (url: string) => (await problem(url, 400, 'validation_failed')).errors.map((error: { path: string }) => error.path);
    assert.deepEqual(await paths(`/v3/maritime/vessels/${EASTBOUND}/eta?port=rotterdam!`), ['/querystring/port']);
    assert.deepEqual(await paths(`/v3/maritime/vessels/${EASTBOUND}/eta`), ['/querystring/port']);
    assert.deepEqual(await paths(`/v3/maritime/vessels/${EASTBOUND}/eta?port=NLRTM&speed_kn=0`), ['/querystring/speed_kn']);
    assert.deepEqual(await paths(`/v3/maritime/vessels/${EASTBOUND}/eta?port=NLRTM&speed_kn=51`), ['/querystring/speed_kn']);
    assert.deepEqual(await paths('/v3/maritime/vessels/0/eta?port=NLRTM'), ['/params/mmsi']);
  });
});

describe('ETA on the live Open-Meteo adapter', () => {
  let live: TestServer;
  let replay: OpenMeteoReplay;
  before(async () => {
    replay = await startOpenMeteoReplay();
    live = await startTestServer({ config: { maritimeWeather: 'open-meteo', openMeteoForecastUrl: replay.url, openMeteoMarineUrl: replay.url } });
    const response = await fetch(`${live.url}/v3/maritime/ais/nmea`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'text/plain' },
      body: sentences(positionReport(EASTBOUND, 50.3, -0.7, { speed: 140, course: 800, heading: 80, status: 0 })).join('\r\n'),
    });
    assert.equal(response.status, 200);
  });
  after(async () => {
    await live?.close();
    await replay?.close();
  });

  const liveEta = async (query: string) => {
    const response = await fetch(`${live.url}/v3/maritime/vessels/${EASTBOUND}/eta?${query}`, { headers: AUTH });
    assert.equal(response.status, 200, await response.clone().text());
    return json(response);
  };

  test('takes each leg\'s weather from Open-Meteo, all legs in one request per API', async () => {
    const prediction = await liveEta('port=NLRTM');
    assert.equal(prediction.weather.source, 'open-meteo');
    assert.equal(prediction.weather.status, 'used');
    assert.match(prediction.weather.attribution, /Open-Meteo/);
    assert.equal(prediction.speed.source, 'ais_sog');
    assert.ok(prediction.legs.every((leg: { weather: { wind_speed_kn: number } | null }) => leg.weather !== null && leg.weather.wind_speed_kn >= 10));
    assert.deepEqual(replay.requests.map((request) => request.url.pathname).sort(), ['/v1/forecast', '/v1/marine']);
    const latitudes = replay.requests[0]!.url.searchParams.get('latitude')!.split(',');
    assert.equal(latitudes.length, prediction.legs.length + 1, 'the position and every leg\'s middle');
  });

  test('carries on in calm water when Open-Meteo fails, and says so', async () => {
    replay.behave({ kind: 'error', status: 500, reason: 'Internal Server Error' });
    // Another port than above: its legs' weather is not in the adapter's cache yet.
    const prediction = await liveEta('port=BEANR&speed_kn=12');
    assert.equal(prediction.weather.status, 'unavailable');
    assert.match(prediction.weather.message, /HTTP 500/);
    assert.equal(prediction.eta, prediction.eta_calm_water);
    assert.match(prediction.assumptions.join('\n'), /forecast source failed/);
  });
});
