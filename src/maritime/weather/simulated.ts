// The simulated marine forecast used when no live weather source is configured: a pure function of
// position and time (any hour can be asked for, twice, with the same answer), so neighbouring
// points and hours agree and tests can rely on it.
//
// The wind is a climatological background plus travelling weather systems:
// - Background by latitude: light equatorial winds, north-east (south-east) trades, the light
//   horse latitudes, westerlies (a third stronger in the southern ocean) and polar easterlies,
//   modulated by a slow wave travelling east so the same place has calmer and windier days.
// - Systems are born per 15° × 20° cell and day with a chance that depends on latitude (12 % a day
//   between 35° and 65°): mid-latitude lows (20–50 kn, 150–400 nm radius of maximum wind, drifting
//   east at 15–30 kn) and, between 8° and 25°, rarer tropical cyclones (35–95 kn, 20–60 nm,
//   drifting west and poleward). Each lives 3 to 6 days, growing and decaying (a sine of its age),
//   and turns cyclonically with 20° of inflow: counter-clockwise in the north, clockwise in the
//   south. Winds rise linearly to the radius of maximum wind and fall as (R/r)^0.6 beyond, fading
//   out between two and three and a half radii. Overlapping systems never add up beyond the
//   strongest, and within a system its circulation replaces up to half the background.
//   At 50° N this gives a mean wind near 20 kn with gales (34 kn or more) about a tenth of the time.
// Derived elements follow the wind:
// - Gusts: the wind times a gust factor of 1.25–1.45 that drifts every 3 hours, higher in rain
//   bands; never below the wind, and at least 2 kn above it from 3 kn up.
// - Waves: the wind sea from the wind of the last 12 hours (weights 0.35, 0.25, 0.2, 0.12, 0.08 at
//   0, 3, 6, 9, 12 h), Hs = 0.0664 · U^1.5 (U in m/s), a fit to the WMO probable wave heights of the
//   Beaufort scale (1 m at force 4, 3 m at 6, 5.5 m at 8, 9 m at 10), combined with a swell of
//   0.5–3 m by latitude (largest in the southern westerlies) as the root of the sum of squares.
//   Waves come from the wind's direction when the wind sea dominates, else from the prevailing one.
// - Visibility: 12–30 km in clear air, down by up to 85 % in the rain near system centres, and fog
//   banks (in 15 % of the 3° cells and 6-hour blocks between 35° and 65°, 5 % elsewhere) that
//   thicken and clear within their 6 hours, only in light wind (gone above 14 kn), to 100–800 m.
import { haversineNm, type LatLon } from '../../platform/geo/great-circle.ts';
import { hashUnit } from '../../platform/random.ts';
import { initialBearingDeg, normalizeLon } from '../sea-routes/geo.ts';
import { HOUR_MS, hoursOf, type PointWeather, type WeatherHour, type WeatherRequest, type WeatherSource } from './model.ts';

const SEED = 0x5eaf0c;
const DAY_MS = 24 * HOUR_MS;
const RAD = Math.PI / 180;
const MS_PER_KN = 0.514444;

const CELL_LAT = 15;
const CELL_LON = 20;
const ROWS = 180 / CELL_LAT;
const COLUMNS = 360 / CELL_LON;
const MAX_LIFE_HOURS = 144;
/** Systems drift east at up to 30 kn for 6 days: up to about 110° of longitude at 50°. */
const COLUMNS_WEST = 6;
const COLUMNS_EAST = 2;

const CHANNEL = {
  genesis: 1, birth: 2, lat: 3, lon: 4, strength: 5, radius: 6, driftEast: 7, driftNorth: 8, life: 9,
  gust: 10, visibility: 11, fog: 12, fogDepth: 13,
} as const;

/** Wind sea lags behind the wind: weights of the wind 0, 3, 6, 9 and 12 hours before. */
const WAVE_LAGS: readonly [hours: number, weight: number][] = [[0, 0.35], [3, 0.25], [6, 0.2], [9, 0.12], [12, 0.08]];
const LOOKBACK_HOURS = 12;

/**
 * Background wind by |latitude|, blowing toward (east, north) in knots for the northern hemisphere;
 * the southern hemisphere mirrors the north component.
 */
const CLIMATE: readonly [absLat: number, east: number, north: number][] = [
  [0, -3, 0], [5, -5, -2], [15, -12, -7], [25, -8, -4], [32, 5, 1], [45, 15, 5], [55, 16, 5], [65, 1, 0], [75, -8, -1], [90, -4, 0],
];
/** Swell height by |latitude| in metres; the southern ocean's is half as high again beyond 35°. */
const SWELL: readonly [absLat: number, metres: number][] = [[0, 0.9], [20, 0.9], [35, 1.0], [50, 1.5], [65, 1.0], [90, 0.5]];

export const SIMULATED_ATTRIBUTION = 'Simulated by LAMIS: not a forecast. Plausible weather for demonstrations and tests only.';

/** A forecast from the simulation; the horizon matches the live source's so answers look alike. */
export function createSimulatedWeather(horizonHours: number): WeatherSource {
  return {
    kind: 'simulated',
    attribution: SIMULATED_ATTRIBUTION,
    horizonHours,
    async hourly(requests: readonly WeatherRequest[]): Promise<PointWeather[]> {
      return requests.map((request) => ({ lat: request.lat, lon: request.lon, hours: simulateHours(request, hoursOf(request.from, request.to)) }));
    },
  };
}

interface Wind {
  east: number;
  north: number;
  /** 0..1: how heavy the rain of the nearest system is here. */
  rain: number;
}

/** The simulated weather at each of the given whole hours at one point. */
export function simulateHours(point: LatLon, hours: readonly number[]): WeatherHour[] {
  if (hours.length === 0) return [];
  const first = hours[0]! - LOOKBACK_HOURS * HOUR_MS;
  const winds = new Map<number, Wind>();
  const windAt = (time: number): Wind => {
    let wind = winds.get(time);
    if (wind === undefined) {
      wind = windField(point.lat, point.lon, time);
      winds.set(time, wind);
    }
    return wind;
  };
  for (let time = first; time < hours[0]!; time += HOUR_MS) windAt(time);
  return hours.map((time) => weatherAt(point, time, windAt));
}

function weatherAt(point: LatLon, time: number, windAt: (time: number) => Wind): WeatherHour {
  const wind = windAt(time);
  const speed = Math.hypot(wind.east, wind.north);

  const gustFactor = 1.25 + 0.2 * drifting(CHANNEL.gust, point, 5, time, 3) + 0.15 * wind.rain;
  const gust = Math.max(speed * gustFactor, speed >= 3 ? speed + 2 : speed);

  let east = 0;
  let north = 0;
  let effectiveMs = 0;
  for (const [lag, weight] of WAVE_LAGS) {
    const past = windAt(time - lag * HOUR_MS);
    east += weight * past.east;
    north += weight * past.north;
    effectiveMs += weight * Math.hypot(past.east, past.north) * MS_PER_KN;
  }
  const windSea = 0.0664 * effectiveMs ** 1.5;
  const swell = swellHeight(point, time);
  const prevailing = background(point.lat, point.lon, time);
  const waveFrom = windSea >= swell ? fromDirection(east, north) : fromDirection(prevailing.east, prevailing.north);

  return {
    time: new Date(time).toISOString(),
    wind_speed_kn: round(speed, 1),
    wind_direction_deg: Math.round(fromDirection(wind.east, wind.north)) % 360,
    gust_kn: round(gust, 1),
    wave_height_m: round(Math.hypot(windSea, swell), 2),
    wave_direction_deg: Math.round(waveFrom) % 360,
    visibility_m: visibility(point, time, speed, wind.rain),
  };
}

/**
 * Background plus every live system near the point, at one instant. Systems that overlap do not add
 * up beyond the strongest of them, and inside a system its own circulation replaces half the
 * background.
 */
function windField(lat: number, lon: number, time: number): Wind {
  let east = 0;
  let north = 0;
  let strongest = 0;
  let deepest = 0;
  let rain = 0;
  for (const system of systemsNear(lat, lon, time)) {
    const distance = haversineNm(lat, lon, system.lat, system.lon);
    const radius = system.radiusNm;
    if (distance > 3.5 * radius) continue;
    const profile = distance < radius ? distance / radius : (radius / distance) ** 0.6;
    const taper = distance <= 2 * radius ? 1 : (1 - (distance - 2 * radius) / (1.5 * radius)) ** 2;
    const weight = system.envelope * profile * taper;
    const bearing = distance < 1e-6 ? 0 : initialBearingDeg([system.lon, system.lat], [lon, lat]);
    // Cyclonic turning with 20° of inflow towards the centre.
    const toward = (system.lat >= 0 ? bearing - 110 : bearing + 110) * RAD;
    const speed = system.maxWindKn * weight;
    east += speed * Math.sin(toward) + 0.3 * weight * system.driftEastKn;
    north += speed * Math.cos(toward) + 0.3 * weight * system.driftNorthKn;
    strongest = Math.max(strongest, system.maxWindKn * system.envelope);
    deepest = Math.max(deepest, weight);
    rain = Math.max(rain, system.envelope * Math.min(1, system.maxWindKn / 50) * Math.max(0, 1 - distance / (1.5 * radius)));
  }
  const combined = Math.hypot(east, north);
  const scale = combined > strongest && combined > 0 ? strongest / combined : 1;
  const prevailing = background(lat, lon, time);
  const share = 1 - 0.5 * Math.min(1, deepest);
  return { east: east * scale + prevailing.east * share, north: north * scale + prevailing.north * share, rain };
}

function background(lat: number, lon: number, time: number): Wind {
  const absLat = Math.min(90, Math.abs(lat));
  let i = 0;
  while (i < CLIMATE.length - 2 && CLIMATE[i + 1]![0] < absLat) i++;
  const [lat0, east0, north0] = CLIMATE[i]!;
  const [lat1, east1, north1] = CLIMATE[i + 1]!;
  const f = (absLat - lat0) / (lat1 - lat0);
  let east = east0 + (east1 - east0) * f;
  let north = north0 + (north1 - north0) * f;
  if (lat < 0) {
    north = -north;
    if (east > 0) east *= 1.3;
  }
  const modulation = 1 + 0.3 * Math.sin(2 * Math.PI * (lon / 60 + time / (5 * DAY_MS)) + lat / 15);
  return { east: east * modulation, north: north * modulation, rain: 0 };
}

interface LiveSystem {
  lat: number;
  lon: number;
  maxWindKn: number;
  radiusNm: number;
  driftEastKn: number;
  driftNorthKn: number;
  /** 0..1 over the system's life. */
  envelope: number;
}

interface BornSystem {
  birth: number;
  lifeHours: number;
  lat: number;
  lon: number;
  maxWindKn: number;
  radiusNm: number;
  driftEastKn: number;
  driftNorthKn: number;
}

/**
 * The systems near a cell at an instant, kept for the next point of the cell: a route's points and
 * hours, and every route crossing the cell, ask the same (each a look at 189 cells and days).
 */
const nearCell = new Map<number, readonly LiveSystem[]>();
const MAX_CELL_INSTANTS = 20_000;

function systemsNear(lat: number, lon: number, time: number): readonly LiveSystem[] {
  const row = Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_LAT)));
  const column = Math.floor((normalizeLon(lon) + 180) / CELL_LON);
  const key = time * ROWS * COLUMNS + row * COLUMNS + column;
  let systems = nearCell.get(key);
  if (systems === undefined) {
    systems = systemsOfCell(row, column, time);
    if (nearCell.size >= MAX_CELL_INSTANTS) nearCell.delete(nearCell.keys().next().value!);
    nearCell.set(key, systems);
  }
  return systems;
}

function systemsOfCell(row: number, column: number, time: number): LiveSystem[] {
  const systems: LiveSystem[] = [];
  const lastEpoch = Math.floor(time / DAY_MS);
  for (let epoch = Math.floor((time - MAX_LIFE_HOURS * HOUR_MS) / DAY_MS); epoch <= lastEpoch; epoch++) {
    for (let j = Math.max(0, row - 1); j <= Math.min(ROWS - 1, row + 1); j++) {
      for (let di = -COLUMNS_WEST; di <= COLUMNS_EAST; di++) {
        const born = systemBorn(j, (((column + di) % COLUMNS) + COLUMNS) % COLUMNS, epoch);
        if (born === null) continue;
        const ageHours = (time - born.birth) / HOUR_MS;
        if (ageHours < 0 || ageHours > born.lifeHours) continue;
        const systemLat = Math.max(-80, Math.min(80, born.lat + (born.driftNorthKn * ageHours) / 60));
        const meanLat = (born.lat + systemLat) / 2;
        const systemLon = normalizeLon(born.lon + (born.driftEastKn * ageHours) / (60 * Math.cos(meanLat * RAD)));
        systems.push({
          lat: systemLat,
          lon: systemLon,
          maxWindKn: born.maxWindKn,
          radiusNm: born.radiusNm,
          driftEastKn: born.driftEastKn,
          driftNorthKn: born.driftNorthKn,
          envelope: Math.sin((Math.PI * ageHours) / born.lifeHours),
        });
      }
    }
  }
  return systems;
}

/** Systems born per cell and day, by the latitude of the cell's centre. */
function genesisChance(absLat: number): number {
  if (absLat < 8) return 0;
  if (absLat < 25) return 0.02;
  if (absLat < 35) return 0.05;
  if (absLat < 65) return 0.12;
  return 0.05;
}

function systemBorn(row: number, column: number, epoch: number): BornSystem | null {
  const draw = (channel: number) => unit(channel, row, column, epoch);
  const centreLat = -90 + (row + 0.5) * CELL_LAT;
  if (draw(CHANNEL.genesis) >= genesisChance(Math.abs(centreLat))) return null;
  const lat = -90 + (row + draw(CHANNEL.lat)) * CELL_LAT;
  const lon = -180 + (column + draw(CHANNEL.lon)) * CELL_LON;
  const poleward = lat >= 0 ? 1 : -1;
  const strength = draw(CHANNEL.strength);
  const tropical = Math.abs(lat) >= 8 && Math.abs(lat) < 25;
  return {
    birth: epoch * DAY_MS + draw(CHANNEL.birth) * DAY_MS,
    lifeHours: 72 + 72 * draw(CHANNEL.life),
    lat,
    lon,
    maxWindKn: tropical ? 35 + 60 * strength ** 3 : Math.abs(lat) > 65 ? 18 + 20 * strength : 20 + 30 * strength ** 2,
    radiusNm: tropical ? 20 + 40 * draw(CHANNEL.radius) : 150 + 250 * draw(CHANNEL.radius),
    driftEastKn: tropical ? -(8 + 6 * draw(CHANNEL.driftEast)) : 15 + 15 * draw(CHANNEL.driftEast),
    driftNorthKn: poleward * (tropical ? 2 + 4 * draw(CHANNEL.driftNorth) : 1 + 3 * draw(CHANNEL.driftNorth)),
  };
}

function swellHeight(point: LatLon, time: number): number {
  const absLat = Math.min(90, Math.abs(point.lat));
  let i = 0;
  while (i < SWELL.length - 2 && SWELL[i + 1]![0] < absLat) i++;
  const [lat0, h0] = SWELL[i]!;
  const [lat1, h1] = SWELL[i + 1]!;
  const base = (h0 + ((h1 - h0) * (absLat - lat0)) / (lat1 - lat0)) * (point.lat < -35 ? 1.5 : 1);
  return base * (1 + 0.25 * Math.sin(2 * Math.PI * (time / (3 * DAY_MS) + point.lon / 45 + point.lat / 25)));
}

function visibility(point: LatLon, time: number, windKn: number, rain: number): number {
  let metres = (12_000 + 18_000 * drifting(CHANNEL.visibility, point, 6, time, 6)) * (1 - 0.85 * Math.min(1, rain));
  const row = Math.floor((point.lat + 90) / 3);
  const column = Math.floor((normalizeLon(point.lon) + 180) / 3);
  const block = time / (6 * HOUR_MS);
  const index = Math.floor(block);
  const absLat = Math.abs(point.lat);
  const chance = absLat >= 35 && absLat < 65 ? 0.15 : 0.05;
  if (unit(CHANNEL.fog, row, column, index) < chance) {
    const thickest = 100 + 700 * unit(CHANNEL.fogDepth, row, column, index);
    const density = Math.sin(Math.PI * (block - index)) * Math.min(1, Math.max(0, (14 - windKn) / 6));
    metres = Math.min(metres, thickest / Math.max(0.02, density) ** 2);
  }
  return Math.round(Math.min(30_000, metres) / 10) * 10;
}

/** A value in [0, 1] per cell of `cellDeg` degrees that moves smoothly from one `blockHours` step to the next. */
function drifting(channel: number, point: LatLon, cellDeg: number, time: number, blockHours: number): number {
  const row = Math.floor((point.lat + 90) / cellDeg);
  const column = Math.floor((normalizeLon(point.lon) + 180) / cellDeg);
  const block = time / (blockHours * HOUR_MS);
  const index = Math.floor(block);
  const f = block - index;
  const eased = f * f * (3 - 2 * f);
  const a = unit(channel, row, column, index);
  return a + (unit(channel, row, column, index + 1) - a) * eased;
}

/** A value in [0, 1) fixed by the channel and three integers. */
function unit(channel: number, a: number, b: number, c: number): number {
  const key = Math.imul(Math.imul(SEED ^ channel, 0x27d4eb2d) ^ a, 0x165667b1) ^ Math.imul(b, 0x9e3779b1);
  return hashUnit(key, c);
}

/** The direction (degrees true, 0..360) a wind blowing toward (east, north) comes from. */
function fromDirection(east: number, north: number): number {
  return (Math.atan2(east, north) / RAD + 540) % 360;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
