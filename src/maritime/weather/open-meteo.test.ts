// The Open-Meteo adapter against a loopback server answering in Open-Meteo's shape: what it asks
// for, what it reads, how it batches, caches and spaces its requests, and how each failure reads.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEndlessUpstream } from '../../../test/support/endless-upstream.ts';
import { waitFor } from '../feeds/testing.ts';
import { HOUR_MS, WeatherUnavailableError } from './model.ts';
import { OpenMeteoWeather, type OpenMeteoOptions } from './open-meteo.ts';
import { replayValues, startOpenMeteoReplay, type OpenMeteoReplay } from './testing.ts';

let replay: OpenMeteoReplay;
before(async () => {
  replay = await startOpenMeteoReplay();
});
after(() => replay.close());
beforeEach(() => {
  replay.behave({ kind: 'normal' });
  replay.requests.length = 0;
});

const FROM = Date.parse('2026-04-10T21:30:00Z');
const TO = Date.parse('2026-04-11T02:00:00Z');
const NORTH_SEA = { lat: 54.123, lon: 3.456 };
const BISCAY = { lat: 45.5, lon: -5.25 };

function client(options: Partial<OpenMeteoOptions> = {}): OpenMeteoWeather {
  return new OpenMeteoWeather({ forecastBaseUrl: replay.url, marineBaseUrl: `${replay.url}/`, timeoutMs: 2000, minIntervalMs: 0, ...options });
}

async function refusal(work: Promise<unknown>): Promise<WeatherUnavailableError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof WeatherUnavailableError, String(error));
    return error;
  }
  assert.fail('expected a WeatherUnavailableError');
}

describe('Open-Meteo adapter', () => {
  it('asks both APIs for the hourly variables in knots, Unix time and whole UTC days, and reads them back', async () => {
    const [point] = await client().hourly([{ ...NORTH_SEA, from: FROM, to: TO }]);
    assert.equal(replay.requests.length, 2);
    const forecast = replay.requests.find((request) => request.url.pathname === '/v1/forecast')!.url.searchParams;
    assert.equal(forecast.get('hourly'), 'wind_speed_10m,wind_direction_10m,wind_gusts_10m,visibility');
    assert.equal(forecast.get('wind_speed_unit'), 'kn');
    assert.equal(forecast.get('timeformat'), 'unixtime');
    assert.equal(forecast.get('timezone'), 'GMT');
    assert.deepEqual([forecast.get('start_date'), forecast.get('end_date')], ['2026-04-10', '2026-04-11']);
    assert.deepEqual([forecast.get('latitude'), forecast.get('longitude')], ['54.12', '3.46'], 'coordinates to 0.01°');
    assert.equal(forecast.get('apikey'), null);
    const marine = replay.requests.find((request) => request.url.pathname === '/v1/marine')!.url.searchParams;
    assert.equal(marine.get('hourly'), 'wave_height,wave_direction');

    assert.deepEqual(point!.hours.map((hour) => hour.time), [
      '2026-04-10T21:00:00.000Z', '2026-04-10T22:00:00.000Z', '2026-04-10T23:00:00.000Z', '2026-04-11T00:00:00.000Z',
      '2026-04-11T01:00:00.000Z', '2026-04-11T02:00:00.000Z',
    ]);
    for (const hour of point!.hours) {
      const expected = replayValues(54.12, 3.46, Date.parse(hour.time) / 1000);
      assert.equal(hour.wind_speed_kn, expected.wind_speed_10m);
      assert.equal(hour.wind_direction_deg, expected.wind_direction_10m);
      assert.equal(hour.gust_kn, Math.max(expected.wind_gusts_10m, expected.wind_speed_10m), 'gusts never below the wind');
      assert.equal(hour.wave_height_m, expected.wave_height);
      assert.equal(hour.wave_direction_deg, 250);
      assert.equal(hour.visibility_m, expected.visibility);
    }
  });

  it('sends several points in one request per API, in order, and keeps the wave model\'s nulls over land', async () => {
    const points = await client().hourly([{ ...NORTH_SEA, from: FROM, to: TO }, { ...BISCAY, from: FROM, to: TO }]);
    assert.equal(replay.requests.length, 2);
    assert.equal(replay.requests[0]!.url.searchParams.get('latitude'), '54.12,45.5');
    assert.equal(points[1]!.lat, 45.5);
    assert.equal(points[1]!.hours[2]!.wind_speed_kn, replayValues(45.5, -5.25, Date.parse(points[1]!.hours[2]!.time) / 1000).wind_speed_10m);
    assert.ok(points[1]!.hours.every((hour) => hour.wave_height_m === null && hour.wave_direction_deg === null));
    assert.ok(points[0]!.hours.every((hour) => hour.wave_height_m !== null));
  });

  it('asks for points needing different days in one request over all those days', async () => {
    const [near, far] = await client().hourly([
      { ...NORTH_SEA, from: FROM, to: FROM + HOUR_MS },
      { ...BISCAY, from: FROM + 3 * 24 * HOUR_MS, to: FROM + 3 * 24 * HOUR_MS },
    ]);
    assert.equal(replay.requests.length, 2);
    const params = replay.requests[0]!.url.searchParams;
    assert.deepEqual([params.get('start_date'), params.get('end_date')], ['2026-04-10', '2026-04-13']);
    assert.equal(near!.hours.length, 2);
    assert.deepEqual(far!.hours.map((hour) => hour.time), ['2026-04-13T21:00:00.000Z']);
  });

  it('converts the units the answer names', async () => {
    replay.behave({ kind: 'normal', windUnit: 'km/h' });
    const [point] = await client().hourly([{ ...NORTH_SEA, from: FROM, to: FROM }]);
    const expected = replayValues(54.12, 3.46, Date.parse(point!.hours[0]!.time) / 1000);
    assert.ok(Math.abs(point!.hours[0]!.wind_speed_kn! - expected.wind_speed_10m) <= 0.1);
  });

  it('keeps answers for 30 minutes, asks again for days it lacks, and shares a request in flight', async () => {
    let now = Date.parse('2026-04-10T20:00:00Z');
    const source = client({ now: () => now });
    await source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]);
    await source.hourly([{ ...NORTH_SEA, from: FROM + HOUR_MS, to: TO }]);
    assert.equal(replay.requests.length, 2, 'the second answer came from the cache');
    await source.hourly([{ ...NORTH_SEA, from: FROM, to: TO + 24 * HOUR_MS }]);
    assert.equal(replay.requests.length, 4, 'a day not yet fetched');
    now += 31 * 60_000;
    await source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]);
    assert.equal(replay.requests.length, 6, 'expired after 30 minutes');

    replay.requests.length = 0;
    const fresh = client();
    await Promise.all([fresh.hourly([{ ...BISCAY, from: FROM, to: TO }]), fresh.hourly([{ ...BISCAY, from: FROM, to: TO }])]);
    assert.equal(replay.requests.length, 2, 'one request per API for both callers');
  });

  it('starts requests no closer together than its interval', async () => {
    const source = client({ minIntervalMs: 150 });
    await Promise.all([source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]), source.hourly([{ ...BISCAY, from: FROM, to: TO }])]);
    const times = replay.requests.map((request) => request.at).sort((a, b) => a - b);
    assert.equal(times.length, 4);
    // Arrival times at the server jitter by a few milliseconds around the start times.
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= 120, `requests ${times[i]! - times[i - 1]!} ms apart`);
  });

  it('names Open-Meteo\'s reason for a 400, and does not pause for it', async () => {
    replay.behave({ kind: 'error', status: 400, reason: 'Parameter \'start_date\' is out of allowed range from 2026-01-01 to 2026-05-01' });
    const source = client();
    const error = await refusal(source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]));
    assert.equal(error.failure, 'upstream');
    assert.match(error.message, /HTTP 400 from 127\.0\.0\.1:\d+: Parameter 'start_date' is out of allowed range/);
    replay.behave({ kind: 'normal' });
    await source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]);
  });

  it('after 429 sends nothing until Retry-After, failing at once with the time left', async () => {
    replay.behave({ kind: 'error', status: 429, reason: 'Minutely API request limit exceeded. Please try again in one minute.', retryAfter: '7' });
    const source = client();
    const limited = await refusal(source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]));
    assert.equal(limited.failure, 'rate_limited');
    assert.equal(limited.retryAfterMs, 7000);
    assert.match(limited.message, /Minutely API request limit exceeded/);
    const asked = replay.requests.length;
    replay.behave({ kind: 'normal' });
    const paused = await refusal(source.hourly([{ ...BISCAY, from: FROM, to: TO }]));
    assert.equal(paused.failure, 'rate_limited');
    assert.ok(paused.retryAfterMs! > 6000 && paused.retryAfterMs! <= 7000);
    assert.match(paused.message, /not asking again for 7 s/);
    assert.equal(replay.requests.length, asked, 'nothing was sent while paused');
  });

  it('backs off after a server error, doubling while failures go on', async () => {
    let now = Date.parse('2026-04-10T20:00:00Z');
    const source = client({ now: () => now });
    replay.behave({ kind: 'error', status: 502, reason: 'Bad Gateway' });
    const first = await refusal(source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]));
    assert.equal(first.failure, 'upstream');
    assert.equal(first.retryAfterMs, 10_000);
    now += 10_001;
    const second = await refusal(source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]));
    assert.equal(second.retryAfterMs, 20_000);
    now += 20_001;
    replay.behave({ kind: 'normal' });
    await source.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]);
  });

  it('gives up on a slow answer at its timeout, and refuses an answer that is not Open-Meteo JSON', async () => {
    replay.behave({ kind: 'slow', delayMs: 1000 });
    const slow = await refusal(client({ timeoutMs: 100 }).hourly([{ ...NORTH_SEA, from: FROM, to: TO }]));
    assert.equal(slow.failure, 'timeout');
    assert.match(slow.message, /no complete answer from 127\.0\.0\.1:\d+ within 100 ms/);

    replay.behave({ kind: 'garbage' });
    const garbage = await refusal(client().hourly([{ ...NORTH_SEA, from: FROM, to: TO }]));
    assert.equal(garbage.failure, 'bad_response');
    assert.match(garbage.message, /not JSON.*Bad gateway/);

    const closed = await refusal(new OpenMeteoWeather({ forecastBaseUrl: 'http://127.0.0.1:1', marineBaseUrl: 'http://127.0.0.1:1', timeoutMs: 500, minIntervalMs: 0 })
      .hourly([{ ...NORTH_SEA, from: FROM, to: TO }]));
    assert.equal(closed.failure, 'network');
  });

  it('cuts off an answer over its size limit: a failed request, and a log line', async () => {
    const endless = await startEndlessUpstream();
    try {
      const logged: unknown[][] = [];
      const weather = client({ forecastBaseUrl: endless.url, marineBaseUrl: endless.url, maxAnswerBytes: 64 * 1024, logger: { warn: (...line: unknown[]) => logged.push(line) } });
      const tooLarge = await refusal(weather.hourly([{ ...NORTH_SEA, from: FROM, to: TO }]));
      assert.equal(tooLarge.failure, 'too_large');
      assert.match(tooLarge.message, /the answer from 127\.0\.0\.1:\d+ is over the limit of 64 KiB/);
      await waitFor(() => endless.answers.length === 2, 'the upstream to see both connections close');
      assert.ok(endless.answers.every((answer) => !answer.complete && answer.sent < endless.ceilingBytes), JSON.stringify(endless.answers));
      assert.match(JSON.stringify(logged), /over its size limit/);
    } finally {
      await endless.close();
    }
  });

  it('sends the API key of the commercial service', async () => {
    await client({ apiKey: 'k3y' }).hourly([{ ...NORTH_SEA, from: FROM, to: FROM }]);
    assert.ok(replay.requests.every((request) => request.url.searchParams.get('apikey') === 'k3y'));
  });
});
