// The live weather source: Open-Meteo's forecast API (wind, gusts, visibility) and marine API
// (significant wave height and direction), asked for hourly values in UTC.
//
//   GET {forecast}/v1/forecast?latitude=…&longitude=…&hourly=wind_speed_10m,wind_direction_10m,wind_gusts_10m,visibility
//       &wind_speed_unit=kn&timeformat=unixtime&timezone=GMT&start_date=YYYY-MM-DD&end_date=YYYY-MM-DD
//   GET {marine}/v1/marine?latitude=…&longitude=…&hourly=wave_height,wave_direction&timeformat=unixtime&…
//
// Several points go into one request as comma-separated lists (the answer is then a list of
// locations, in order). Units are read from `hourly_units` and converted, so a change of unit
// upstream cannot pass as knots or metres. Wave values are null over land, and the answer keeps them
// null: a request may name another point for marine values (`marine`: open water near a port). Gusts are the hour's highest and are never shown below the wind.
//
// Politeness (the free API allows 600 calls a minute and 10,000 a day, each location counting):
// requests start at least a second apart; identical requests in flight are shared; each point's
// values are cached per UTC day for 30 minutes (models update at most hourly), with coordinates
// rounded to 0.01° (about 1 km, finer than any of their grids); after 429 nothing is sent until its
// Retry-After (60 s when absent); after a failure nothing is sent for 10 s, doubling to 5 minutes
// while failures go on. Requests that find the source paused fail at once with the time to wait.
// An answer past its size limit (4 MiB; 50 points over a week are a few hundred KiB) is cut off
// and fails as `too_large`.
// With an API key (commercial use) requests carry `apikey` and should go to the customer hosts.
import { setTimeout as sleep } from 'node:timers/promises';
import { answerMessage, readAnswer, requestFailure, retryAfterMs, type OutboundAnswer, type OutboundLogger } from '../../platform/http/outbound.ts';
import { HOUR_MS, hoursOf, WeatherUnavailableError, type PointWeather, type WeatherHour, type WeatherRequest, type WeatherSource } from './model.ts';

export const OPEN_METEO_ATTRIBUTION =
  'Weather data by Open-Meteo.com (CC BY 4.0), from national weather services\' models; wave forecasts from the Open-Meteo Marine API.';

/** Both APIs give at least 7 days ahead for every model they blend. */
export const OPEN_METEO_HORIZON_HOURS = 7 * 24;
const MAX_POINTS_PER_REQUEST = 50;
const MIN_INTERVAL_MS = 1000;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const CACHE_TTL_MS = 30 * 60_000;
const CACHE_MAX_ENTRIES = 5_000;
const RATE_LIMIT_PAUSE_MS = 60_000;
const FIRST_BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 5 * 60_000;
const DAY_MS = 24 * HOUR_MS;

type Api = 'forecast' | 'marine';

const VARIABLES: Readonly<Record<Api, readonly string[]>> = {
  forecast: ['wind_speed_10m', 'wind_direction_10m', 'wind_gusts_10m', 'visibility'],
  marine: ['wave_height', 'wave_direction'],
};

const API_NAMES: Readonly<Record<Api, string>> = { forecast: 'Open-Meteo forecast API', marine: 'Open-Meteo marine API' };

/** Factors to knots, metres and degrees from the units Open-Meteo may name. */
const SPEED_UNITS: Readonly<Record<string, number>> = { kn: 1, 'km/h': 1 / 1.852, 'm/s': 3600 / 1852, mph: 1609.344 / 1852 };
const LENGTH_UNITS: Readonly<Record<string, number>> = { m: 1, ft: 0.3048 };
const DIRECTION_UNITS: Readonly<Record<string, number>> = { '°': 1 };
const UNITS_OF: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  wind_speed_10m: SPEED_UNITS,
  wind_gusts_10m: SPEED_UNITS,
  wind_direction_10m: DIRECTION_UNITS,
  visibility: LENGTH_UNITS,
  wave_height: LENGTH_UNITS,
  wave_direction: DIRECTION_UNITS,
};

export interface OpenMeteoOptions {
  /** Scheme and host (and any path prefix) of the forecast API, without `/v1/forecast`. */
  forecastBaseUrl: string;
  /** The same for the marine API, without `/v1/marine`. */
  marineBaseUrl: string;
  /** For Open-Meteo's commercial service; sent as `apikey`. */
  apiKey?: string;
  timeoutMs: number;
  /** Largest answer read (default 4 MiB). */
  maxAnswerBytes?: number;
  /** Where an answer cut off at that size is reported. */
  logger?: OutboundLogger;
  /** Least time between the starts of two requests; tests shorten it. */
  minIntervalMs?: number;
  now?: () => number;
}

/** One day of one point from one API: variable values by hour. */
type DayValues = Map<number, Record<string, number | null>>;

interface CacheEntry {
  expires: number;
  values: DayValues;
}

export class OpenMeteoWeather implements WeatherSource {
  readonly kind = 'open-meteo' as const;
  readonly attribution = OPEN_METEO_ATTRIBUTION;
  readonly horizonHours = OPEN_METEO_HORIZON_HOURS;
  readonly #options: OpenMeteoOptions;
  readonly #now: () => number;
  readonly #minIntervalMs: number;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #inFlight = new Map<string, Promise<unknown[]>>();
  #nextStart = 0;
  #pausedUntil = 0;
  #pause: { failure: WeatherUnavailableError['failure']; message: string } | null = null;
  #backoffMs = 0;

  constructor(options: OpenMeteoOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#minIntervalMs = options.minIntervalMs ?? MIN_INTERVAL_MS;
  }

  async hourly(requests: readonly WeatherRequest[]): Promise<PointWeather[]> {
    const points = requests.map((request) => ({ ...request, lat: roundCoordinate(request.lat), lon: roundCoordinate(request.lon) }));
    const seaPoints = requests.map((request) => {
      const marine = request.marine ?? request;
      return { from: request.from, to: request.to, lat: roundCoordinate(marine.lat), lon: roundCoordinate(marine.lon) };
    });
    await settled([this.#fill('forecast', points), this.#fill('marine', seaPoints)]);
    return points.map((point, index) => ({
      lat: point.lat,
      lon: point.lon,
      hours: hoursOf(point.from, point.to).map((hour) => this.#hour(point, seaPoints[index]!, hour)),
    }));
  }

  /**
   * Fetches what the cache lacks for these points: every point missing a day, over the days from the
   * earliest any of them needs to the latest, in as few requests as the batch size allows (an ETA's
   * legs need a few days each, staggered along the passage: one request beats one per leg).
   */
  async #fill(api: Api, points: readonly WeatherRequest[]): Promise<void> {
    const missing = new Map<string, WeatherRequest>();
    let first = Infinity;
    let last = -Infinity;
    for (const point of points) {
      const from = dayOf(point.from);
      const to = dayOf(point.to);
      let lacking = false;
      for (let day = from; day <= to && !lacking; day += DAY_MS) lacking = this.#cached(api, point, day) === null;
      if (!lacking) continue;
      missing.set(pointKey(point), point);
      first = Math.min(first, from);
      last = Math.max(last, to);
    }
    const unique = [...missing.values()];
    const fetches: Promise<void>[] = [];
    for (let i = 0; i < unique.length; i += MAX_POINTS_PER_REQUEST) {
      fetches.push(this.#fetchDays(api, unique.slice(i, i + MAX_POINTS_PER_REQUEST), first, last));
    }
    await settled(fetches);
  }

  async #fetchDays(api: Api, points: readonly WeatherRequest[], first: number, last: number): Promise<void> {
    const url = this.#url(api, points, first, last);
    const locations = await this.#get(api, url);
    if (locations.length !== points.length) {
      throw new WeatherUnavailableError('bad_response', `${API_NAMES[api]} answered ${locations.length} locations for ${points.length} asked`);
    }
    const expires = this.#now() + CACHE_TTL_MS;
    points.forEach((point, i) => {
      const series = readSeries(api, locations[i]);
      for (let day = first; day <= last; day += DAY_MS) this.#store(cacheKey(api, point, day), { expires, values: new Map() });
      for (const [hour, values] of series) this.#cached(api, point, dayOf(hour))?.set(hour, values);
    });
  }

  #url(api: Api, points: readonly WeatherRequest[], first: number, last: number): URL {
    const base = api === 'forecast' ? this.#options.forecastBaseUrl : this.#options.marineBaseUrl;
    const url = new URL(`${base.replace(/\/+$/, '')}/v1/${api === 'forecast' ? 'forecast' : 'marine'}`);
    const params = url.searchParams;
    params.set('latitude', points.map((point) => point.lat).join(','));
    params.set('longitude', points.map((point) => point.lon).join(','));
    params.set('hourly', VARIABLES[api].join(','));
    if (api === 'forecast') params.set('wind_speed_unit', 'kn');
    params.set('timeformat', 'unixtime');
    params.set('timezone', 'GMT');
    params.set('start_date', dateText(first));
    params.set('end_date', dateText(last));
    if (this.#options.apiKey) params.set('apikey', this.#options.apiKey);
    return url;
  }

  /** One request, shared by identical ones in flight, started no sooner than politeness allows. */
  #get(api: Api, url: URL): Promise<unknown[]> {
    const key = url.toString();
    const running = this.#inFlight.get(key);
    if (running) return running;
    const request = this.#send(api, url).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, request);
    return request;
  }

  async #send(api: Api, url: URL): Promise<unknown[]> {
    this.#refuseWhilePaused();
    const now = this.#now();
    const wait = Math.max(0, this.#nextStart - now);
    this.#nextStart = now + wait + this.#minIntervalMs;
    if (wait > 0) await sleep(wait);
    this.#refuseWhilePaused();

    const name = API_NAMES[api];
    let response: OutboundAnswer;
    try {
      response = await readAnswer(url, {
        headers: { accept: 'application/json', 'user-agent': 'LAMIS maritime weather' },
        timeoutMs: this.#options.timeoutMs,
        maxBytes: this.#options.maxAnswerBytes ?? MAX_ANSWER_BYTES,
        logger: this.#options.logger,
      });
    } catch (error) {
      const failed = requestFailure(error, url, this.#options.timeoutMs);
      throw this.#failed(failed.reason, `${name}: ${failed.message}`);
    }
    const body = response.text();
    if (response.status === 429) {
      const pause = retryAfterMs(response.headers.get('retry-after'), this.#now()) ?? RATE_LIMIT_PAUSE_MS;
      this.#pauseFor(pause, 'rate_limited', `${name} asks LAMIS to slow down (429)`);
      throw new WeatherUnavailableError('rate_limited', answerMessage(`${name}: 429 Too Many Requests`, url, reasonOf(body)), pause);
    }
    if (!response.ok) {
      const message = answerMessage(`${name}: HTTP ${response.status}`, url, reasonOf(body));
      // A 4xx names a request it will never answer: not a reason to stop asking for others.
      if (response.status >= 400 && response.status < 500) throw new WeatherUnavailableError('upstream', message);
      throw this.#failed('upstream', message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw this.#failed('bad_response', answerMessage(`${name}: the answer is not JSON`, url, body));
    }
    this.#backoffMs = 0;
    return Array.isArray(parsed) ? parsed : [parsed];
  }

  #refuseWhilePaused(): void {
    const left = this.#pausedUntil - this.#now();
    if (left > 0 && this.#pause !== null) {
      throw new WeatherUnavailableError(this.#pause.failure, `${this.#pause.message}; not asking again for ${Math.ceil(left / 1000)} s`, left);
    }
  }

  #failed(failure: WeatherUnavailableError['failure'], message: string): WeatherUnavailableError {
    // A request that was already on its way when another failed adds no pause of its own.
    const left = this.#pausedUntil - this.#now();
    if (left > 0) return new WeatherUnavailableError(failure, message, left);
    this.#backoffMs = this.#backoffMs === 0 ? FIRST_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, this.#backoffMs * 2);
    this.#pauseFor(this.#backoffMs, failure, message);
    return new WeatherUnavailableError(failure, message, this.#backoffMs);
  }

  #pauseFor(ms: number, failure: WeatherUnavailableError['failure'], message: string): void {
    this.#pausedUntil = this.#now() + ms;
    this.#pause = { failure, message };
  }

  #cached(api: Api, point: WeatherRequest, day: number): DayValues | null {
    const key = cacheKey(api, point, day);
    const entry = this.#cache.get(key);
    if (entry === undefined) return null;
    if (entry.expires <= this.#now()) {
      this.#cache.delete(key);
      return null;
    }
    return entry.values;
  }

  #store(key: string, entry: CacheEntry): void {
    this.#cache.delete(key);
    this.#cache.set(key, entry);
    // Oldest first in insertion order: drop from the front.
    for (const old of this.#cache.keys()) {
      if (this.#cache.size <= CACHE_MAX_ENTRIES) break;
      this.#cache.delete(old);
    }
  }

  #hour(point: WeatherRequest, seaPoint: WeatherRequest, hour: number): WeatherHour {
    const atmosphere = this.#cached('forecast', point, dayOf(hour))?.get(hour) ?? {};
    const sea = this.#cached('marine', seaPoint, dayOf(hour))?.get(hour) ?? {};
    const wind = atmosphere.wind_speed_10m ?? null;
    const gust = atmosphere.wind_gusts_10m ?? null;
    return {
      time: new Date(hour).toISOString(),
      wind_speed_kn: rounded(wind, 1),
      wind_direction_deg: rounded(atmosphere.wind_direction_10m ?? null, 0),
      gust_kn: rounded(gust === null ? null : Math.max(gust, wind ?? gust), 1),
      wave_height_m: rounded(sea.wave_height ?? null, 2),
      wave_direction_deg: rounded(sea.wave_direction ?? null, 0),
      visibility_m: rounded(atmosphere.visibility ?? null, 0),
    };
  }
}

/** Hourly values of one location of an answer, converted to knots, metres and degrees, by hour (ms). */
function readSeries(api: Api, location: unknown): Map<number, Record<string, number | null>> {
  const fail = (why: string) => new WeatherUnavailableError('bad_response', `${API_NAMES[api]}: ${why}`);
  if (typeof location !== 'object' || location === null) throw fail('a location is not an object');
  const { hourly, hourly_units: units, error, reason } = location as Record<string, unknown>;
  if (error === true) throw new WeatherUnavailableError('upstream', `${API_NAMES[api]}: ${String(reason)}`);
  if (typeof hourly !== 'object' || hourly === null) throw fail('no `hourly` block');
  const columns = hourly as Record<string, unknown>;
  const times = columns.time;
  if (!Array.isArray(times) || times.some((time) => typeof time !== 'number' || !Number.isFinite(time))) {
    throw fail('`hourly.time` is not a list of Unix times');
  }
  const factors: Record<string, number> = {};
  for (const variable of VARIABLES[api]) {
    const values = columns[variable];
    if (!Array.isArray(values) || values.length !== times.length) throw fail(`\`hourly.${variable}\` is missing or not as long as \`hourly.time\``);
    const unit = (units as Record<string, unknown> | undefined)?.[variable];
    const factor = typeof unit === 'string' ? UNITS_OF[variable]![unit] : undefined;
    if (factor === undefined) throw fail(`unexpected unit ${JSON.stringify(unit)} for ${variable}`);
    factors[variable] = factor;
  }
  const series = new Map<number, Record<string, number | null>>();
  times.forEach((time, i) => {
    const values: Record<string, number | null> = {};
    for (const variable of VARIABLES[api]) {
      const value = (columns[variable] as unknown[])[i];
      values[variable] = typeof value === 'number' && Number.isFinite(value) ? value * factors[variable]! : null;
    }
    series.set((time as number) * 1000, values);
  });
  return series;
}

/** Waits for every request to finish before answering with the first failure, so none is left running. */
async function settled(work: readonly Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The message of an Open-Meteo error body (`{"error": true, "reason": "…"}`), else the body. */
function reasonOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { reason?: unknown };
    if (typeof parsed.reason === 'string') return parsed.reason;
  } catch {
    // not JSON: show the body itself
  }
  return body;
}

function roundCoordinate(degrees: number): number {
  return Math.round(degrees * 100) / 100;
}

function pointKey(point: { lat: number; lon: number }): string {
  return `${point.lat},${point.lon}`;
}

function cacheKey(api: Api, point: { lat: number; lon: number }, day: number): string {
  return `${api}|${pointKey(point)}|${day}`;
}

function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

function dateText(day: number): string {
  return new Date(day).toISOString().slice(0, 10);
}

function rounded(value: number | null, digits: number): number | null {
  if (value === null) return null;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
