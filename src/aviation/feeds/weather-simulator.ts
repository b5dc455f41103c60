// The embedded METAR/TAF source used when no live feed is configured: plausible, coherent weather
// per airport, written as the report text real stations send, so it goes through the same parsers.
//
// Everything is a pure function of (seed, airport, time): no state is kept and any instant can be
// asked for. The weather is a set of smooth noise fields: synoptic ones (moisture, pressure,
// temperature anomaly, wind) drift across a latitude/longitude lattice, east in the mid-latitudes
// and west in the tropics, so neighbouring airports share weather systems; short-lived ones
// (showers, fog, gusts) are per airport. Climate sets the means: temperature by latitude, season,
// elevation and local solar time, the subtropical dry belt, trade winds, westerlies and polar
// easterlies. Report elements follow physics where it is cheap: cumulus bases at the lifting
// condensation level (about 400 ft per °C of dew point depression), fog when the air is nearly
// saturated on a calm night, snow below freezing, less diurnal range under cloud.
//
// METARs are observed at :50 past each hour. TAFs are issued 40 minutes before 00, 06, 12 and
// 18 UTC and valid 24 or 30 hours from then; they are written from the same fields sampled at each
// hour's METAR time, so a TAF agrees with the METARs it covers: persistent changes become FM
// groups, one- or two-hour episodes TEMPO groups, and wind that drifts within a period BECMG.
import { isoTime } from '../../platform/iso-time.ts';
import { flightCategory } from '../weather/index.ts';
import type { FlightCategory, Visibility } from '../weather/index.ts';

/** The little the simulator needs to know about an airport. */
export interface SimulatorAirport {
  icao: string;
  lat: number;
  lon: number;
  elevation_ft: number;
}

export interface SimulatedMetar {
  raw: string;
  /** ISO 8601 UTC. */
  observed_at: string;
}

export interface SimulatedTaf {
  raw: string;
  issued_at: string;
  valid_from: string;
  valid_to: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** METARs are observed at this minute of every hour. */
const METAR_MINUTE = 50;
const TAF_CYCLE_MS = 6 * HOUR_MS;
/** A TAF is issued this long before the start of its validity. */
const TAF_LEAD_MS = 40 * MINUTE_MS;
/** A change that lasts at least this many hours is a new FM period; a shorter one is TEMPO. */
const PERSISTENT_HOURS = 3;
/** Wind change within a period that earns a BECMG group. */
const BECMG_DIRECTION_DEG = 40;
const BECMG_SPEED_KT = 8;

/** The latest METAR at or before `atMs`. */
export function simulateMetar(airport: SimulatorAirport, atMs: number, seed = 1): SimulatedMetar {
  const observed = metarTimeAtOrBefore(atMs);
  const state = weatherAt(airport, observed, seed);
  return { raw: metarText(airport.icao, observed, state), observed_at: isoTime(observed) };
}

/** The latest TAF issued at or before `atMs` (its validity may start up to 40 minutes later). */
export function simulateTaf(airport: SimulatorAirport, atMs: number, seed = 1): SimulatedTaf {
  const validFrom = Math.floor((atMs + TAF_LEAD_MS) / TAF_CYCLE_MS) * TAF_CYCLE_MS;
  const issued = validFrom - TAF_LEAD_MS;
  // Busy airports get 30-hour TAFs, the others 24: a fixed choice per airport.
  const hours = hashUnit(stationKey(airport.icao, seed), 0x7af) < 0.6 ? 30 : 24;
  const validTo = validFrom + hours * HOUR_MS;
  const raw = tafText(airport, issued, validFrom, hours, seed);
  return { raw, issued_at: isoTime(issued), valid_from: isoTime(validFrom), valid_to: isoTime(validTo) };
}

function metarTimeAtOrBefore(atMs: number): number {
  return Math.floor((atMs - METAR_MINUTE * MINUTE_MS) / HOUR_MS) * HOUR_MS + METAR_MINUTE * MINUTE_MS;
}

// ---------------------------------------------------------------------------------------------
// Noise: hashed lattice values, smoothly interpolated (smoothstep), in [-1, 1].

function hashUnit(...values: number[]): number {
  let hash = 0x811c9dc5;
  for (const value of values) {
    hash = Math.imul(hash ^ (value | 0), 0x01000193);
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0x5bd1e995);
    hash ^= hash >>> 15;
  }
  return (hash >>> 0) / 4294967296;
}

function stationKey(icao: string, seed: number): number {
  let key = seed | 0;
  for (const char of icao.toUpperCase()) key = Math.imul(key ^ char.charCodeAt(0), 0x01000193) + 0x9e37;
  return key;
}

function smoothstep(f: number): number {
  return f * f * (3 - 2 * f);
}

/** Noise along time only, for one airport. */
function noise1(key: number, channel: number, x: number): number {
  const k = Math.floor(x);
  const s = smoothstep(x - k);
  const a = 2 * hashUnit(key, channel, k) - 1;
  const b = 2 * hashUnit(key, channel, k + 1) - 1;
  return a + (b - a) * s;
}

/** Noise over (longitude, latitude, time) lattice cells, shared by nearby airports. */
function noise3(seed: number, channel: number, x: number, y: number, z: number): number {
  const [i, j, k] = [Math.floor(x), Math.floor(y), Math.floor(z)];
  const [u, v, w] = [smoothstep(x - i), smoothstep(y - j), smoothstep(z - k)];
  const corner = (di: number, dj: number, dk: number) => 2 * hashUnit(seed, channel, i + di, j + dj, k + dk) - 1;
  const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
  const plane = (dk: number) =>
    lerp(lerp(corner(0, 0, dk), corner(1, 0, dk), u), lerp(corner(0, 1, dk), corner(1, 1, dk), u), v);
  return lerp(plane(0), plane(1), w);
}

/** Independent noise streams, one per element. */
const CHANNEL = {
  moisture: 1,
  moistureLocal: 2,
  pressure: 3,
  temperature: 4,
  windDirection: 5,
  windDirectionLocal: 6,
  windSpeed: 7,
  windSpeedLocal: 8,
  gust: 9,
  variation: 10,
  convection: 11,
  convectionLocal: 12,
  fog: 13,
  haze: 14,
  highCloud: 15,
  cloudBase: 16,
} as const;

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function mod(value: number, modulus: number): number {
  return ((value % modulus) + modulus) % modulus;
}

// ---------------------------------------------------------------------------------------------
// The weather at one instant.

type Cover = 'FEW' | 'SCT' | 'BKN' | 'OVC';
const COVER_ORDER: readonly Cover[] = ['FEW', 'SCT', 'BKN', 'OVC'];

interface Layer {
  cover: Cover;
  base_ft: number;
  type: 'CB' | 'TCU' | null;
}

type Obscuration = 'FG' | 'FZFG' | 'BR' | 'HZ';

interface WeatherState {
  /** Degrees true, null for variable (VRB) or calm. */
  direction_deg: number | null;
  speed_kt: number;
  gust_kt: number | null;
  variation: [number, number] | null;
  /** Up to 20 km: beyond what either unit system reports (9999, 10SM). */
  visibility_m: number;
  /** The precipitation group ("-SHRA", "+TSRA", "SN"), or null. */
  precipitation: string | null;
  thunder: boolean;
  /** What else lowers the visibility; reported by each region's rule (see reportedWeather). */
  obscuration: Obscuration | null;
  layers: Layer[];
  vertical_visibility_ft: number | null;
  temperature_c: number;
  dewpoint_c: number;
  qnh_hpa: number;
}

/** Clear air: more than any report can say. */
const CLEAR_AIR_VISIBILITY_M = 20_000;

function weatherAt(airport: SimulatorAirport, atMs: number, seed: number): WeatherState {
  const lat = clamp(airport.lat, -90, 90);
  const lon = airport.lon;
  const latAbs = Math.abs(lat);
  const hours = atMs / HOUR_MS;
  const key = stationKey(airport.icao, seed);

  // Synoptic systems drift east in the westerlies and west in the tropics (degrees per day).
  const westerly = smoothstep(clamp((latAbs - 20) / 15, 0, 1));
  const drift = 7 * westerly - 4 * (1 - westerly);
  const field = (channel: number, cellDeg: number, periodHours: number) =>
    noise3(seed, channel, (lon - (drift * hours) / 24) / cellDeg, lat / cellDeg, hours / periodHours);
  const local = (channel: number, periodHours: number) => noise1(key, channel, hours / periodHours);

  const date = new Date(atMs);
  const dayOfYear = (atMs - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS;
  const summer = Math.cos((2 * Math.PI * (dayOfYear - 200)) / 365.25) * (lat >= 0 ? 1 : -1);
  const solarHour = mod(date.getUTCHours() + date.getUTCMinutes() / 60 + lon / 15, 24);
  const afternoon = Math.cos((2 * Math.PI * (solarHour - 15)) / 24);
  const daylight = Math.max(0, Math.cos((2 * Math.PI * (solarHour - 13)) / 24));
  const night = Math.max(0, -afternoon);
  // The subtropical dry belt (the great deserts) around 26° either side of the equator.
  const dryness = Math.exp(-(((latAbs - 26) / 7) ** 2));

  const moisture = 0.75 * field(CHANNEL.moisture, 8, 30) + 0.3 * local(CHANNEL.moistureLocal, 7) - 0.35 * dryness + 0.02;
  const pressure = field(CHANNEL.pressure, 10, 48);
  const cloudiness = clamp((moisture + 0.35) / 0.8, 0, 1);

  // Annual mean about 27 °C at the equator and 4 °C at 60°, a seasonal swing growing with latitude.
  const diurnalHalfRange = (2 + 3.5 * dryness + 1.5 * (1 - latAbs / 90)) * (1 - 0.6 * cloudiness);
  const temperature = clamp(
    27.5 - 0.0065 * lat * lat
      + Math.min(14, 0.26 * latAbs) * summer
      - 0.00198 * airport.elevation_ft
      + 5 * field(CHANNEL.temperature, 12, 72)
      + diurnalHalfRange * afternoon,
    -55,
    50,
  );
  const depression = clamp(1.2 + 9 * dryness + 5 * (0.15 - moisture) + 0.8 * diurnalHalfRange * Math.max(0, afternoon), 0, 35);
  const dewpoint = temperature - depression;

  // Trade winds, westerlies, polar easterlies.
  const prevailing = latAbs < 28 ? (lat >= 0 ? 60 : 120) : latAbs < 62 ? (lat >= 0 ? 250 : 290) : 90;
  const baseSpeed = latAbs < 28 ? 9 : latAbs < 62 ? 11 : 10;
  let speed = clamp(
    baseSpeed * (1 + 0.55 * field(CHANNEL.windSpeed, 8, 24) + 0.25 * local(CHANNEL.windSpeedLocal, 4))
      + 3 * daylight - 2 * night + 8 * Math.max(0, -pressure - 0.35),
    0,
    60,
  );
  const direction = mod(prevailing + 120 * field(CHANNEL.windDirection, 10, 36) + 30 * local(CHANNEL.windDirectionLocal, 5), 360);

  const warmth = clamp((temperature - 12) / 15, 0, 1);
  const convection =
    0.55 * local(CHANNEL.convectionLocal, 4) + 0.35 * field(CHANNEL.convection, 5, 10)
    + 0.55 * daylight * warmth + 0.3 * moisture - 0.5 * dryness - 0.42;
  const rain = moisture - 0.5;
  const fog =
    0.55 * local(CHANNEL.fog, 5) + 0.6 * clamp(1 - depression / 2, -1, 1) + 0.4 * night - speed / 20 - 0.42;
  const haze = 0.6 * dryness + 0.5 * local(CHANNEL.haze, 12) - 0.6;

  let precipitation: string | null = null;
  let thunder = false;
  let visibility = CLEAR_AIR_VISIBILITY_M;
  let gust: number | null = null;
  const freezing = temperature <= 0.5;

  if (convection > 0.38) {
    thunder = convection > 0.55 && !freezing;
    const intensity = convection > 0.75 ? '+' : convection > 0.45 ? '' : '-';
    precipitation = thunder ? `${intensity}TSRA` : `${intensity}SH${freezing ? 'SN' : 'RA'}`;
    visibility = freezing
      ? Math.max(400, 4_000 - (convection - 0.38) * 8_000)
      : Math.max(1_500, 9_000 - (convection - 0.38) * 16_000);
    gust = thunder ? speed + 15 + 10 * Math.max(0, local(CHANNEL.gust, 3)) : null;
    speed += thunder ? 6 : 2;
  } else if (rain > 0) {
    const kind = freezing ? 'SN' : rain < 0.06 ? 'DZ' : 'RA';
    precipitation = `${rain > 0.4 ? '+' : rain > 0.18 ? '' : '-'}${kind}`;
    visibility = freezing ? Math.max(300, 4_000 - rain * 9_000) : Math.max(1_500, 10_000 - rain * 20_000);
  }
  let obscuration: Obscuration | null = null;
  if (fog > 0.35) {
    visibility = Math.min(visibility, 1_000 - (fog - 0.35) * 3_000);
    obscuration = freezing ? 'FZFG' : 'FG';
  } else if (fog > 0.1 && !thunder) {
    visibility = Math.min(visibility, 5_000 - (fog - 0.1) * 16_000);
    obscuration = 'BR';
  } else if (haze > 0 && precipitation === null) {
    visibility = Math.min(visibility, 12_000 - haze * 16_000);
    obscuration = 'HZ';
  }
  visibility = clamp(visibility, 100, CLEAR_AIR_VISIBILITY_M);

  if (gust === null && speed >= 12 && local(CHANNEL.gust, 3) > 0.1) gust = speed + 10 + 8 * local(CHANNEL.gust, 3);
  const calmOrVariable = speed < 3.5;
  const variation = !calmOrVariable && speed <= 12 && local(CHANNEL.variation, 2) > 0.5 ? 30 + 20 * local(CHANNEL.variation, 2) : null;

  const layers = cloudLayers({
    moisture,
    convection,
    depression,
    baseJitter: local(CHANNEL.cloudBase, 5),
    highCloud: field(CHANNEL.highCloud, 10, 20),
    foggy: fog > 0.35,
  });
  let verticalVisibility: number | null = null;
  if (fog > 0.35 && visibility < 400) {
    verticalVisibility = 100 * Math.max(1, Math.round(visibility / 150));
    layers.splice(0, layers.length);
  }

  const qnh = clamp(1013.5 + (4 + 14 * Math.min(1, latAbs / 60)) * pressure - 8 * Math.max(0, moisture - 0.3), 950, 1050);
  return {
    direction_deg: calmOrVariable ? null : roundDirection(direction),
    speed_kt: Math.round(speed),
    gust_kt: gust === null || calmOrVariable ? null : Math.round(gust),
    variation: variation === null ? null : [roundDirection(direction - variation), roundDirection(direction + variation)],
    visibility_m: visibility,
    precipitation,
    thunder,
    obscuration,
    layers,
    vertical_visibility_ft: verticalVisibility,
    temperature_c: Math.round(temperature * 10) / 10,
    dewpoint_c: Math.round(dewpoint * 10) / 10,
    qnh_hpa: Math.round(qnh * 10) / 10,
  };
}

/**
 * Present weather as reported: the precipitation, then the obscuration inside its range. ICAO:
 * FG below 1 000 m, BR 1 000-5 000 m, HZ up to 5 000 m. US and Canada: fog below 5/8 SM, mist
 * and haze below 7 SM.
 */
function reportedWeather(state: WeatherState, statute: boolean): string[] {
  const groups = state.precipitation === null ? [] : [state.precipitation];
  const metres = state.visibility_m;
  const obscurationLimit = statute ? 7 * 1609.344 : 5_000;
  const fogLimit = statute ? (5 / 8) * 1609.344 : 1_000;
  const { obscuration } = state;
  if ((obscuration === 'FG' || obscuration === 'FZFG') && metres < fogLimit) groups.push(obscuration);
  else if (obscuration !== null && obscuration !== 'HZ' && metres >= fogLimit && metres < obscurationLimit) groups.push('BR');
  else if (obscuration === 'HZ' && metres < obscurationLimit && state.precipitation === null) groups.push('HZ');
  return groups;
}

/** To the nearest 10°, written 010-360. */
function roundDirection(degrees: number): number {
  const rounded = Math.round(mod(degrees, 360) / 10) * 10;
  return rounded === 0 ? 360 : rounded;
}

interface CloudInputs {
  moisture: number;
  convection: number;
  depression: number;
  /** In [-1, 1]: moves the bases a little, hour to hour. */
  baseJitter: number;
  highCloud: number;
  foggy: boolean;
}

/**
 * Up to three layers plus any CB, lowest first, each at least as covered as the one below (the
 * US summation rule, which ICAO reports also follow in practice), none above an overcast.
 */
function cloudLayers(inputs: CloudInputs): Layer[] {
  const { moisture, convection, depression, baseJitter, highCloud, foggy } = inputs;
  const layers: Layer[] = [];
  if (moisture > -0.35) {
    // Under showers the deck has gaps, so the cumulonimbus can be seen and reported.
    const overcast = moisture > 0.35 && convection <= 0.38;
    const cover: Cover = overcast ? 'OVC' : moisture > 0.15 ? 'BKN' : moisture > -0.1 ? 'SCT' : 'FEW';
    const base = moisture <= 0.1 ? 5_000 + (0.1 - moisture) * 12_000 : 5_000 - (moisture - 0.1) * 8_000;
    layers.push({ cover, base_ft: Math.max(400, base) * (1 + 0.12 * baseJitter), type: null });
  }
  if (convection > 0.05) {
    const cover: Cover = convection > 0.45 ? 'BKN' : convection > 0.25 ? 'SCT' : 'FEW';
    const type = convection > 0.38 ? 'CB' : convection > 0.2 ? 'TCU' : null;
    // Cumulus form at the lifting condensation level: about 400 ft per °C of dew point depression.
    layers.push({ cover, base_ft: clamp(410 * depression, 1_500, 8_000), type });
  }
  if (foggy && moisture > 0) layers.push({ cover: moisture > 0.2 ? 'OVC' : 'BKN', base_ft: 200 + 300 * Math.max(0, baseJitter), type: null });
  if (highCloud > 0.3) {
    const cover: Cover = highCloud > 0.75 ? 'BKN' : highCloud > 0.5 ? 'SCT' : 'FEW';
    layers.push({ cover, base_ft: 20_000 + 10_000 * (highCloud - 0.3), type: null });
  }

  const rounded = layers
    .map((layer) => ({ ...layer, base_ft: roundCloudBase(layer.base_ft) }))
    .sort((a, b) => a.base_ft - b.base_ft);
  const result: Layer[] = [];
  for (const layer of rounded) {
    const below = result.at(-1);
    if (below?.cover === 'OVC') break;
    if (below !== undefined && below.base_ft === layer.base_ft) {
      below.cover = moreCovered(below.cover, layer.cover);
      below.type ??= layer.type;
      continue;
    }
    const cover = below === undefined ? layer.cover : moreCovered(below.cover, layer.cover);
    if (result.length >= 3 && layer.type !== 'CB') continue;
    result.push({ ...layer, cover });
  }
  return result;
}

function moreCovered(a: Cover, b: Cover): Cover {
  return COVER_ORDER.indexOf(a) >= COVER_ORDER.indexOf(b) ? a : b;
}

/** Reported in hundreds of feet up to 5 000 ft, 500 ft steps to 10 000 ft, thousands above. */
function roundCloudBase(feet: number): number {
  const step = feet < 5_000 ? 100 : feet < 10_000 ? 500 : 1_000;
  return Math.max(100, Math.round(feet / step) * step);
}

function ceilingFt(state: WeatherState): number | null {
  if (state.vertical_visibility_ft !== null) return state.vertical_visibility_ft;
  const ceiling = state.layers.find((layer) => layer.cover === 'BKN' || layer.cover === 'OVC');
  return ceiling === undefined ? null : ceiling.base_ft;
}

/** The flight category of the report as written: from the visibility as reported, not as simulated. */
function categoryOf(state: WeatherState, statute: boolean): FlightCategory {
  const reported = statute ? statuteMiles(state.visibility_m) : Number(metricVisibility(state.visibility_m));
  const miles = statute ? reported : reported / 1609.344;
  const visibility: Visibility = {
    statute_mi: miles,
    metres: miles * 1609.344,
    nm: (miles * 1609.344) / 1852,
    lower_bound: false,
    upper_bound: false,
    unit: statute ? 'SM' : 'm',
    reported: '',
    no_directional_variation: false,
  };
  return flightCategory({ visibility, ceiling_ft: ceilingFt(state) }) ?? 'VFR';
}

// ---------------------------------------------------------------------------------------------
// Report text.

/** US, Canadian and US-territory stations report in statute miles and inches of mercury. */
function usesStatuteUnits(icao: string): boolean {
  return /^(K|C|PA|PH|PG|TJ)/.test(icao.toUpperCase());
}

function dayHourMinute(ms: number): string {
  const date = new Date(ms);
  return [date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()].map((n) => String(n).padStart(2, '0')).join('');
}

/** DDHH for TAF periods; an end at midnight is hour 24 of the day before, as TAFs write it. */
function dayHour(ms: number, isEnd: boolean): string {
  const date = new Date(isEnd && new Date(ms).getUTCHours() === 0 ? ms - HOUR_MS : ms);
  const hour = isEnd && new Date(ms).getUTCHours() === 0 ? 24 : date.getUTCHours();
  return `${String(date.getUTCDate()).padStart(2, '0')}${String(hour).padStart(2, '0')}`;
}

function windGroup(state: WeatherState): string {
  if (state.speed_kt === 0) return '00000KT';
  const direction = state.direction_deg === null ? 'VRB' : String(state.direction_deg).padStart(3, '0');
  const gust = state.gust_kt === null ? '' : `G${String(state.gust_kt).padStart(2, '0')}`;
  return `${direction}${String(state.speed_kt).padStart(2, '0')}${gust}KT`;
}

const STATUTE_STEPS: ReadonlyArray<[number, string]> = [
  [10, '10'], [9, '9'], [8, '8'], [7, '7'], [6, '6'], [5, '5'], [4, '4'], [3, '3'],
  [2.5, '2 1/2'], [2, '2'], [1.75, '1 3/4'], [1.5, '1 1/2'], [1.25, '1 1/4'], [1, '1'],
  [0.75, '3/4'], [0.5, '1/2'], [0.25, '1/4'],
];

/** The largest reportable value not above the visibility, in statute miles (0 below 1/4 SM). */
function statuteMiles(metres: number): number {
  return STATUTE_STEPS.find(([value]) => value <= metres / 1609.344 + 1e-9)?.[0] ?? 0;
}

/** As written: TAFs give more than 6 SM as P6SM; below 1/4 SM is M1/4SM. */
function statuteVisibility(metres: number, forecast: boolean): string {
  if (forecast && metres / 1609.344 > 6) return 'P6SM';
  const step = STATUTE_STEPS.find(([value]) => value === statuteMiles(metres));
  return step === undefined ? 'M1/4SM' : `${step[1]}SM`;
}

/** 9999 for 10 km or more; 1 000 m steps from 5 000 m, 100 m steps from 800 m, 50 m below. */
function metricVisibility(metres: number): string {
  if (metres >= 10_000) return '9999';
  const step = metres >= 5_000 ? 1_000 : metres >= 800 ? 100 : 50;
  return String(Math.floor(metres / step) * step).padStart(4, '0');
}

function skyGroups(state: WeatherState, statute: boolean): string[] {
  if (state.vertical_visibility_ft !== null) return [`VV${String(state.vertical_visibility_ft / 100).padStart(3, '0')}`];
  if (state.layers.length === 0) return [statute ? 'CLR' : 'NSC'];
  return state.layers.map((layer) => `${layer.cover}${String(layer.base_ft / 100).padStart(3, '0')}${layer.type ?? ''}`);
}

/** CAVOK: 10 km or more, no weather, no cloud below 5 000 ft and no CB or TCU. */
function isCavok(state: WeatherState): boolean {
  return (
    state.visibility_m >= 10_000
    && reportedWeather(state, false).length === 0
    && state.vertical_visibility_ft === null
    && state.layers.every((layer) => layer.base_ft >= 5_000 && layer.type === null)
  );
}

function temperatureText(celsius: number): string {
  const rounded = Math.round(celsius);
  const text = String(Math.abs(rounded)).padStart(2, '0');
  return celsius < 0 && rounded <= 0 ? `M${text}` : text;
}

function metarText(icao: string, observed: number, state: WeatherState): string {
  const statute = usesStatuteUnits(icao);
  const groups = ['METAR', icao, `${dayHourMinute(observed)}Z`, windGroup(state)];
  if (state.variation !== null) groups.push(state.variation.map((d) => String(d).padStart(3, '0')).join('V'));
  if (!statute && isCavok(state)) {
    groups.push('CAVOK');
  } else {
    groups.push(statute ? statuteVisibility(state.visibility_m, false) : metricVisibility(state.visibility_m));
    groups.push(...reportedWeather(state, statute), ...skyGroups(state, statute));
  }
  groups.push(`${temperatureText(state.temperature_c)}/${temperatureText(state.dewpoint_c)}`);
  if (statute) {
    groups.push(`A${Math.floor((state.qnh_hpa / 33.8639) * 100)}`);
    // The US remarks: automated station with precipitation sensor, sea-level pressure, exact temperatures.
    const tenths = (celsius: number) => `${celsius < 0 ? 1 : 0}${String(Math.round(Math.abs(celsius) * 10)).padStart(3, '0')}`;
    const slp = String(Math.round(state.qnh_hpa * 10) % 1000).padStart(3, '0');
    groups.push('RMK', 'AO2', `SLP${slp}`, `T${tenths(state.temperature_c)}${tenths(state.dewpoint_c)}`);
  } else {
    groups.push(`Q${String(Math.floor(state.qnh_hpa)).padStart(4, '0')}`);
  }
  return groups.join(' ');
}

// ---------------------------------------------------------------------------------------------
// TAF.

interface Hour {
  start: number;
  state: WeatherState;
  regime: string;
  category: FlightCategory;
}

interface Period {
  start: number;
  end: number;
  state: WeatherState;
  regime: string;
  category: FlightCategory;
  /** Runs shorter than PERSISTENT_HOURS that differ from the period: they become TEMPO groups. */
  deviations: Hour[][];
  tempos: Array<{ start: number; end: number; state: WeatherState }>;
  becmgs: Array<{ start: number; end: number; state: WeatherState }>;
}

const CATEGORY_RANK: Record<FlightCategory, number> = { VFR: 0, MVFR: 1, IFR: 2, LIFR: 3 };

function tafText(airport: SimulatorAirport, issued: number, validFrom: number, hours: number, seed: number): string {
  const statute = usesStatuteUnits(airport.icao);
  const slots: Hour[] = [];
  for (let index = 0; index < hours; index += 1) {
    const start = validFrom + index * HOUR_MS;
    // Each hour is forecast as its METAR will see it.
    const state = weatherAt(airport, start + METAR_MINUTE * MINUTE_MS, seed);
    const category = categoryOf(state, statute);
    slots.push({ start, state, category, regime: state.thunder ? `${category}/TS` : category });
  }

  const periods = tafPeriods(slots, validFrom + hours * HOUR_MS);
  const groups = ['TAF', airport.icao, `${dayHourMinute(issued)}Z`, `${dayHour(validFrom, false)}/${dayHour(validFrom + hours * HOUR_MS, true)}`];
  periods.forEach((period, position) => {
    if (position > 0) groups.push(`FM${dayHourMinute(period.start)}`);
    groups.push(...forecastGroups(period.state, null, statute));
    const changes = [
      ...period.becmgs.map((change) => ({ ...change, keyword: 'BECMG' })),
      ...period.tempos.map((change) => ({ ...change, keyword: 'TEMPO' })),
    ].sort((a, b) => a.start - b.start);
    let stated = period.state;
    for (const change of changes) {
      groups.push(change.keyword, `${dayHour(change.start, false)}/${dayHour(change.end, true)}`);
      groups.push(...forecastGroups(change.state, stated, statute, change.keyword === 'BECMG'));
      if (change.keyword === 'BECMG') stated = { ...stated, ...windOf(change.state) };
    }
  });
  return groups.join(' ');
}

/**
 * Runs of hours with the same flight category (thunder counted apart): a run of at least three
 * hours opens a new FM period (or continues the current one when the same), a shorter run is a
 * deviation within the current period. Deviations at most an hour apart share one TEMPO of up to
 * six hours, forecast as its hour farthest from the period's category (the worse on a tie): then
 * every hour of the block is within one category of the period or of the TEMPO. Within a period,
 * wind that has drifted from what was last forecast gets a BECMG over the two hours before.
 */
function tafPeriods(slots: readonly Hour[], validTo: number): Period[] {
  const runs: Hour[][] = [];
  for (const slot of slots) {
    const run = runs.at(-1);
    if (run !== undefined && run[0]?.regime === slot.regime) run.push(slot);
    else runs.push([slot]);
  }
  const periods: Period[] = [];
  for (const run of runs) {
    const first = run[0];
    if (first === undefined) continue;
    const current = periods.at(-1);
    if (current === undefined || (run.length >= PERSISTENT_HOURS && current.regime !== first.regime)) {
      const period: Period = {
        start: first.start,
        end: validTo,
        state: first.state,
        regime: first.regime,
        category: first.category,
        deviations: [],
        tempos: [],
        becmgs: [],
      };
      if (current !== undefined) current.end = first.start;
      periods.push(period);
    } else if (current.regime !== first.regime) {
      current.deviations.push(run);
    }
  }
  const tempoHours = new Set<number>();
  for (const period of periods) {
    for (const block of tempoBlocks(period.deviations)) {
      const farthest = block.reduce((a, b) => (deviatesMore(b, a, period.category) ? b : a));
      const first = block[0]?.start ?? period.start;
      const last = block.at(-1)?.start ?? period.start;
      period.tempos.push({ start: first, end: last + HOUR_MS, state: farthest.state });
      for (let hour = first; hour <= last; hour += HOUR_MS) tempoHours.add(hour);
    }
    let stated = period.state;
    let lastChangeEnd = period.start;
    for (const slot of slots) {
      if (slot.start <= period.start || slot.start >= period.end || tempoHours.has(slot.start)) continue;
      if (!windDrifted(stated, slot.state)) continue;
      const start = Math.max(period.start, lastChangeEnd, slot.start - 2 * HOUR_MS);
      period.becmgs.push({ start, end: slot.start, state: slot.state });
      stated = { ...stated, ...windOf(slot.state) };
      lastChangeEnd = slot.start;
    }
  }
  return periods;
}

const MAX_TEMPO_HOURS = 6;

/** Deviation runs joined while the gap between them is at most an hour and the whole fits a TEMPO. */
function tempoBlocks(runs: readonly Hour[][]): Hour[][] {
  const blocks: Hour[][] = [];
  for (const run of runs) {
    const block = blocks.at(-1);
    const blockStart = block?.[0]?.start;
    const blockEnd = block?.at(-1)?.start;
    const runStart = run[0]?.start ?? 0;
    const runEnd = run.at(-1)?.start ?? 0;
    const joinable =
      block !== undefined && blockStart !== undefined && blockEnd !== undefined
      && runStart - blockEnd <= 2 * HOUR_MS
      && runEnd - blockStart < MAX_TEMPO_HOURS * HOUR_MS;
    if (joinable) block.push(...run);
    else blocks.push([...run]);
  }
  return blocks;
}

function deviatesMore(a: Hour, b: Hour, from: FlightCategory): boolean {
  const distance = (hour: Hour) => Math.abs(CATEGORY_RANK[hour.category] - CATEGORY_RANK[from]);
  if (distance(a) !== distance(b)) return distance(a) > distance(b);
  const byCategory = CATEGORY_RANK[a.category] - CATEGORY_RANK[b.category];
  return byCategory !== 0 ? byCategory > 0 : a.state.visibility_m < b.state.visibility_m;
}

function windOf(state: WeatherState): Pick<WeatherState, 'direction_deg' | 'speed_kt' | 'gust_kt'> {
  return { direction_deg: state.direction_deg, speed_kt: state.speed_kt, gust_kt: state.gust_kt };
}

function windDrifted(stated: WeatherState, now: WeatherState): boolean {
  if (Math.abs(now.speed_kt - stated.speed_kt) >= BECMG_SPEED_KT) return true;
  if (stated.direction_deg === null || now.direction_deg === null) return false;
  const turn = Math.abs(mod(now.direction_deg - stated.direction_deg + 180, 360) - 180);
  return turn > BECMG_DIRECTION_DEG && Math.min(stated.speed_kt, now.speed_kt) >= 6;
}

/**
 * The groups of one forecast. A change group (`stated` given) carries the wind only when it
 * differs, and NSW when the weather ends; a BECMG carries only the wind.
 */
function forecastGroups(state: WeatherState, stated: WeatherState | null, statute: boolean, windOnly = false): string[] {
  const groups: string[] = [];
  const windChanged = stated === null || windOnly || state.gust_kt !== null || windDrifted(stated, state);
  if (windChanged) groups.push(windGroup(state));
  if (windOnly) return groups;
  if (!statute && isCavok(state)) return [...groups, 'CAVOK'];
  groups.push(statute ? statuteVisibility(state.visibility_m, true) : metricVisibility(state.visibility_m));
  const weather = reportedWeather(state, statute);
  if (weather.length > 0) groups.push(...weather);
  else if (stated !== null && reportedWeather(stated, statute).length > 0) groups.push('NSW');
  groups.push(...skyGroups(state, statute).map((group) => (group === 'CLR' ? 'SKC' : group)));
  return groups;
}
