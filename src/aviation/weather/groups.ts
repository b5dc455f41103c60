// Strict decoders for the groups of a METAR body or a TAF forecast. metar-taf-parser skips
// groups it cannot read and mis-reads some it can (27015KMH as knots, 270150KT as 15 kt,
// 1/8SM as 0.13, 1/16SM dropped), so every group is checked and decoded here; a group with the
// right shape but impossible content is an error naming the group.
import type {
  Altimeter,
  BrakingAction,
  CloudCover,
  CloudLayer,
  DirectionalVisibility,
  RunwayState,
  RunwayVisualRange,
  SkyClearCode,
  SpeedUnit,
  Visibility,
  WeatherError,
  WeatherErrorCode,
  WeatherPhenomenon,
  Wind,
  WindShearGroup,
} from './types.ts';
import {
  HPA_PER_INHG,
  KT_PER_KMH,
  KT_PER_MPS,
  METRES_PER_NAUTICAL_MILE,
  METRES_PER_STATUTE_MILE,
  NM_PER_STATUTE_MILE,
  roundTo,
} from './units.ts';

export type Group =
  | { kind: 'wind'; wind: Wind }
  | { kind: 'wind_variation'; from_deg: number; to_deg: number }
  | { kind: 'visibility'; visibility: Visibility; cavok: boolean }
  | { kind: 'visibility_minimum'; minimum: DirectionalVisibility }
  | { kind: 'runway_visual_range'; rvr: RunwayVisualRange }
  | { kind: 'weather'; weather: WeatherPhenomenon; recent: boolean }
  | { kind: 'no_significant_weather' }
  | { kind: 'cloud'; clouds: CloudLayer[] }
  | { kind: 'sky_clear'; code: Exclude<SkyClearCode, 'CAVOK'> }
  | { kind: 'vertical_visibility'; ft: number | null }
  | { kind: 'temperature'; temperature_c: number | null; dewpoint_c: number | null }
  | { kind: 'altimeter'; altimeter: Altimeter }
  | { kind: 'wind_shear'; shear: WindShearGroup }
  | { kind: 'runway_state'; state: RunwayState }
  /** An all-slash group: the element exists but was not measured. */
  | { kind: 'missing' };

export type GroupRead =
  | { status: 'group'; group: Group; raw: string; consumed: number }
  | { status: 'invalid'; error: WeatherError }
  | { status: 'unknown' };

/** Highest plausible values; anything above is a corrupt group, not weather. */
const MAX_WIND_KT = 150;
const MAX_GUST_KT = 200;
const MIN_TEMPERATURE_C = -90;
const MAX_TEMPERATURE_C = 60;
const MIN_HPA = 850;
const MAX_HPA = 1090;
const MIN_INHG_HUNDREDTHS = 2500;
const MAX_INHG_HUNDREDTHS = 3250;

export function weatherError(code: WeatherErrorCode, group: string | null, why: string): WeatherError {
  return { code, message: group === null ? `${code}: ${why}` : `${code} "${group}": ${why}` };
}

function invalid(code: WeatherErrorCode, group: string, why: string): GroupRead {
  return { status: 'invalid', error: weatherError(code, group, why) };
}

function single(group: Group, raw: string): GroupRead {
  return { status: 'group', group, raw, consumed: 1 };
}

const MISSING: Group = { kind: 'missing' };

/** Reads the group starting at tokens[index]; some groups span two or three tokens. */
export function readGroup(tokens: readonly string[], index: number): GroupRead {
  const token = tokens[index] ?? '';
  const next = tokens[index + 1];
  // "M" is the US ASOS mark for an element it could not measure.
  if (/^\/{2,}(SM)?$/.test(token) || token === 'M') return single(MISSING, token);
  if (token === 'CAVOK') return single({ kind: 'visibility', visibility: cavokVisibility(), cavok: true }, token);
  if (token === 'NSW') return single({ kind: 'no_significant_weather' }, token);
  if (token === 'SKC' || token === 'CLR' || token === 'NSC' || token === 'NCD') {
    return single({ kind: 'sky_clear', code: token }, token);
  }
  if (token === 'WS') return readWindShear(tokens, index);
  if (/^\d$/.test(token) && next !== undefined && /^\d\/\d{1,2}SM$/.test(next)) {
    return readStatuteVisibility(`${token} ${next}`, Number(token), next, 2);
  }
  for (const reader of SINGLE_TOKEN_READERS) {
    const read = reader(token);
    if (read.status !== 'unknown') return read;
  }
  return { status: 'unknown' };
}

const SINGLE_TOKEN_READERS: ReadonlyArray<(token: string) => GroupRead> = [
  readWind,
  readWindVariation,
  readMetricVisibility,
  (token) => (token.endsWith('SM') ? readStatuteVisibility(token, 0, token, 1) : { status: 'unknown' }),
  readRunwayGroup,
  readOldRunwayState,
  readWeather,
  readCloud,
  readVerticalVisibility,
  readTemperature,
  readAltimeter,
  readHeightWindShear,
];

const WIND_PATTERN = /^(\d{3}|VRB|\/\/\/)(\d{2,3}|\/\/)(?:G(\d{2,3}|\/\/))?(KT|MPS|KMH)$/;

function readWind(token: string): GroupRead {
  // Calm written with four zeros instead of five.
  if (token === '0000KT') return single({ kind: 'wind', wind: calmWind(token) }, token);
  const match = WIND_PATTERN.exec(token);
  if (match === null) return { status: 'unknown' };
  const [, direction = '', speedText = '', gustText, unitText = ''] = match;
  if (direction === '///' || speedText === '//') return single(MISSING, token);
  const unit: SpeedUnit = unitText === 'KMH' ? 'KMH' : unitText === 'MPS' ? 'MPS' : 'KT';
  const speed = Number(speedText);
  const gust = gustText === undefined || gustText === '//' ? null : Number(gustText);
  // 000 is reserved for calm: with a speed it cannot be north (360), so it reads as variable,
  // as aviationweather.gov reads it.
  const directionDeg = direction === 'VRB' || (direction === '000' && speed > 0) ? null : Number(direction);
  if (directionDeg !== null && directionDeg > 360) return invalid('bad_wind', token, 'direction above 360 degrees');
  const speedKt = toKnots(speed, unit);
  const gustKt = gust === null ? null : toKnots(gust, unit);
  if (speedKt > MAX_WIND_KT) return invalid('bad_wind', token, `mean speed ${speedKt} kt is not plausible`);
  if (gustKt !== null && gustKt > MAX_GUST_KT) return invalid('bad_wind', token, `gust ${gustKt} kt is not plausible`);
  if (gust !== null && gust <= speed) return invalid('bad_wind', token, 'gust not above the mean speed');
  const calm = speed === 0 && gust === null;
  return single(
    {
      kind: 'wind',
      wind: {
        direction_deg: directionDeg,
        variable: directionDeg === null,
        speed_kt: speedKt,
        gust_kt: gustKt,
        variable_from_deg: null,
        variable_to_deg: null,
        calm,
        reported: { unit, speed, gust, group: token },
      },
    },
    token,
  );
}

function calmWind(token: string): Wind {
  return {
    direction_deg: 0,
    variable: false,
    speed_kt: 0,
    gust_kt: null,
    variable_from_deg: null,
    variable_to_deg: null,
    calm: true,
    reported: { unit: 'KT', speed: 0, gust: null, group: token },
  };
}

function toKnots(speed: number, unit: SpeedUnit): number {
  if (unit === 'MPS') return Math.round(speed * KT_PER_MPS);
  if (unit === 'KMH') return Math.round(speed * KT_PER_KMH);
  return speed;
}

function readWindVariation(token: string): GroupRead {
  if (token === '///V///') return single(MISSING, token);
  const match = /^(\d{3})V(\d{3})$/.exec(token);
  if (match === null) return { status: 'unknown' };
  const from = Number(match[1]);
  const to = Number(match[2]);
  if (from > 360 || to > 360) return invalid('bad_wind_variation', token, 'direction above 360 degrees');
  return single({ kind: 'wind_variation', from_deg: from, to_deg: to }, token);
}

const COMPASS_POINTS = new Set(['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW']);

function readMetricVisibility(token: string): GroupRead {
  const match = /^(\d{4})(NDV|[NESW]{1,2}|\/\/)?$/.exec(token);
  if (match === null) return { status: 'unknown' };
  const metres = Number(match[1]);
  const suffix = match[2];
  if (suffix !== undefined && suffix !== 'NDV') {
    // 0600// : an automatic station's minimum visibility without its direction.
    const direction = suffix === '//' ? null : suffix;
    if (direction !== null && !COMPASS_POINTS.has(direction)) return invalid('bad_visibility', token, `unknown direction ${suffix}`);
    return single({ kind: 'visibility_minimum', minimum: { metres, direction } }, token);
  }
  return single(
    { kind: 'visibility', visibility: metricVisibility(metres, token, suffix === 'NDV'), cavok: false },
    token,
  );
}

function metricVisibility(metres: number, reported: string, noDirectionalVariation: boolean): Visibility {
  return {
    statute_mi: roundTo(metres / METRES_PER_STATUTE_MILE, 3),
    metres,
    nm: roundTo(metres / METRES_PER_NAUTICAL_MILE, 3),
    // 9999 is the code for "10 km or more".
    lower_bound: metres === 9999,
    upper_bound: false,
    unit: 'm',
    reported,
    no_directional_variation: noDirectionalVariation,
  };
}

/** CAVOK includes visibility 10 km or more: the same as 9999. */
function cavokVisibility(): Visibility {
  return metricVisibility(9999, 'CAVOK', false);
}

const FRACTION_DENOMINATORS = new Set([2, 4, 8, 16]);

/** `fraction` is the part that ends in SM ("3/4SM", "10SM", "P6SM"); `whole` the mixed-number whole part. */
function readStatuteVisibility(reported: string, whole: number, fraction: string, consumed: number): GroupRead {
  const match = /^([PM])?(?:(\d{1,2})|(\d{1,2})\/(\d{1,2}))SM$/.exec(fraction);
  if (match === null) return invalid('bad_visibility', reported, 'expected statute miles such as 10SM, 1 1/2SM, 3/4SM or P6SM');
  const [, indicator, integer, numeratorText, denominatorText] = match;
  let miles: number;
  if (integer !== undefined) {
    miles = Number(integer);
  } else {
    const numerator = Number(numeratorText);
    const denominator = Number(denominatorText);
    if (!FRACTION_DENOMINATORS.has(denominator) || numerator === 0 || numerator >= denominator) {
      return invalid('bad_visibility', reported, `${numerator}/${denominator} is not a reportable fraction`);
    }
    miles = whole + numerator / denominator;
  }
  const visibility: Visibility = {
    statute_mi: miles,
    metres: Math.round(miles * METRES_PER_STATUTE_MILE),
    nm: roundTo(miles * NM_PER_STATUTE_MILE, 3),
    // 10SM is the US reporting cap ("10 or more"); P6SM is the TAF "more than 6". Canadian
    // stations report 15SM, 30SM as values, as aviationweather.gov reads them.
    lower_bound: indicator === 'P' || reported === '10SM',
    upper_bound: indicator === 'M',
    unit: 'SM',
    reported,
    no_directional_variation: false,
  };
  return { status: 'group', group: { kind: 'visibility', visibility, cavok: false }, raw: reported, consumed };
}

const RUNWAY = '(\\d{2}[LCR]?)';
const RVR_PATTERN = new RegExp(`^R${RUNWAY}/([PM])?(\\d{4})(?:V([PM])?(\\d{4}))?(FT)?/?([UDN])?$`);
const RUNWAY_STATE_PATTERN = new RegExp(`^R${RUNWAY}/([0-9/])([0-9/])(\\d{2}|//)(\\d{2}|//)$`);
const RUNWAY_CLEARED_PATTERN = new RegExp(`^R${RUNWAY}/CLRD(\\d{2}|//)$`);

/** R-prefixed groups: runway visual range (R24/1000U) or runway state (R24/290050, R88/CLRD60). */
function readRunwayGroup(token: string): GroupRead {
  if (!token.startsWith('R')) return { status: 'unknown' };
  if (/^R\d{2}[LCR]?\/+$/.test(token)) return single(MISSING, token);
  if (token === 'R/SNOCLO') return single({ kind: 'runway_state', state: closedBySnow(token) }, token);
  const rvr = RVR_PATTERN.exec(token);
  if (rvr !== null) {
    const [, runway = '', minIndicator, minText, maxIndicator, maxText, feet, trend] = rvr;
    return single(
      {
        kind: 'runway_visual_range',
        rvr: {
          runway,
          min: Number(minText),
          max: maxText === undefined ? null : Number(maxText),
          unit: feet === undefined ? 'm' : 'ft',
          below_min: minIndicator === 'M',
          above_max: (maxText === undefined ? minIndicator : maxIndicator) === 'P',
          trend: trend === 'U' ? 'up' : trend === 'D' ? 'down' : trend === 'N' ? 'no_change' : null,
          raw: token,
        },
      },
      token,
    );
  }
  const state = RUNWAY_STATE_PATTERN.exec(token);
  if (state !== null) {
    const [, runway = '', deposit = '', coverage = '', depth = '', friction = ''] = state;
    return runwayState(token, runway, deposit, coverage, depth, friction);
  }
  const cleared = RUNWAY_CLEARED_PATTERN.exec(token);
  if (cleared !== null) return clearedRunway(token, cleared[1] ?? '', cleared[2] ?? '');
  if (/^R\d/.test(token)) return invalid('bad_runway_visual_range', token, 'not a runway visual range or runway state group');
  return { status: 'unknown' };
}

/** WMO 8-digit runway state from before 2013 (88290195) and its cleared form (88CLRD95). */
function readOldRunwayState(token: string): GroupRead {
  const state = /^(\d{2})([0-9/])([0-9/])(\d{2}|\/\/)(\d{2}|\/\/)$/.exec(token);
  if (state !== null) {
    const [, runway = '', deposit = '', coverage = '', depth = '', friction = ''] = state;
    return runwayState(token, runway, deposit, coverage, depth, friction);
  }
  const cleared = /^(\d{2})CLRD(\d{2}|\/\/)$/.exec(token);
  if (cleared !== null) return clearedRunway(token, cleared[1] ?? '', cleared[2] ?? '');
  if (token === 'SNOCLO') return single({ kind: 'runway_state', state: closedBySnow(token) }, token);
  return { status: 'unknown' };
}

/** Two-digit designators: 88 all runways, 99 repeat of the last report, 50 + n the right of parallels. */
function runwayName(designator: string): string | null {
  if (!/^\d{2}$/.test(designator)) return designator;
  const number = Number(designator);
  if (number === 88) return 'ALL';
  if (number === 99) return 'REPEAT';
  if (number <= 36) return designator;
  if (number >= 51 && number <= 86) return `${String(number - 50).padStart(2, '0')}R`;
  return null;
}

const DEPOSITS: Record<string, string> = {
  '0': 'clear_and_dry',
  '1': 'damp',
  '2': 'wet_or_water_patches',
  '3': 'rime_or_frost',
  '4': 'dry_snow',
  '5': 'wet_snow',
  '6': 'slush',
  '7': 'ice',
  '8': 'compacted_snow',
  '9': 'frozen_ruts_or_ridges',
};

const COVERAGES: Record<string, string> = {
  '0': 'none',
  '1': 'up_to_10_percent',
  '2': '11_to_25_percent',
  '5': '26_to_50_percent',
  '9': '51_to_100_percent',
};

const DEPTH_CODES_MM: Record<string, number> = { '92': 100, '93': 150, '94': 200, '95': 250, '96': 300, '97': 350, '98': 400 };

const BRAKING_CODES: Record<string, BrakingAction> = {
  '91': 'poor',
  '92': 'medium_poor',
  '93': 'medium',
  '94': 'medium_good',
  '95': 'good',
  '99': 'unreliable',
};

function emptyRunwayState(runway: string, raw: string): RunwayState {
  return {
    runway,
    cleared: false,
    closed_by_snow: false,
    deposit: null,
    coverage: null,
    depth_mm: null,
    not_operational: false,
    friction_coefficient: null,
    braking_action: null,
    raw,
  };
}

function closedBySnow(raw: string): RunwayState {
  return { ...emptyRunwayState('ALL', raw), closed_by_snow: true };
}

function runwayState(
  token: string,
  designator: string,
  deposit: string,
  coverage: string,
  depth: string,
  friction: string,
): GroupRead {
  const runway = runwayName(designator);
  if (runway === null) return invalid('bad_runway_state', token, `runway designator ${designator} does not exist`);
  if (deposit !== '/' && DEPOSITS[deposit] === undefined) return invalid('bad_runway_state', token, `deposit code ${deposit}`);
  if (coverage !== '/' && COVERAGES[coverage] === undefined) return invalid('bad_runway_state', token, `coverage code ${coverage}`);
  if (depth === '91') return invalid('bad_runway_state', token, 'depth code 91 is not used');
  const braking = readBraking(friction);
  if (braking === null) return invalid('bad_runway_state', token, `friction code ${friction}`);
  const depthNumber = Number(depth);
  const state: RunwayState = {
    ...emptyRunwayState(runway, token),
    deposit: DEPOSITS[deposit] ?? null,
    coverage: COVERAGES[coverage] ?? null,
    depth_mm: depth === '//' || depth === '99' ? null : (DEPTH_CODES_MM[depth] ?? depthNumber),
    not_operational: depth === '99',
    ...braking,
  };
  return single({ kind: 'runway_state', state }, token);
}

function clearedRunway(token: string, designator: string, friction: string): GroupRead {
  const runway = runwayName(designator);
  if (runway === null) return invalid('bad_runway_state', token, `runway designator ${designator} does not exist`);
  const braking = readBraking(friction);
  if (braking === null) return invalid('bad_runway_state', token, `friction code ${friction}`);
  return single({ kind: 'runway_state', state: { ...emptyRunwayState(runway, token), cleared: true, ...braking } }, token);
}

/** Friction 01-90 is a coefficient (0.01-0.90); 91-95 and 99 are braking-action codes. */
function readBraking(
  code: string,
): { friction_coefficient: number | null; braking_action: BrakingAction | null } | null {
  if (code === '//') return { friction_coefficient: null, braking_action: null };
  const number = Number(code);
  if (number <= 90) return { friction_coefficient: number / 100, braking_action: null };
  const action = BRAKING_CODES[code];
  return action === undefined ? null : { friction_coefficient: null, braking_action: action };
}

const DESCRIPTORS = 'MI|PR|BC|DR|BL|SH|TS|FZ';
const PHENOMENA = 'DZ|RA|SN|SG|IC|PL|GR|GS|UP|BR|FG|FU|VA|DU|SA|HZ|PY|PO|SQ|FC|SS|DS';
const WEATHER_PATTERN = new RegExp(`^(RE)?([-+]|VC)?(${DESCRIPTORS})?((?:${PHENOMENA})*)$`);

function readWeather(token: string): GroupRead {
  const match = WEATHER_PATTERN.exec(token);
  if (match === null || token === 'RE' || token === '') return { status: 'unknown' };
  const [, recent, intensity, descriptor, phenomenaText = ''] = match;
  const weather = decodeWeather(token.slice(recent === undefined ? 0 : 2), intensity, descriptor, phenomenaText);
  // Same rule as metar-taf-parser's isWeatherConditionValid: a lone descriptor means nothing
  // except TS (thunder heard) and VCSH (showers in the vicinity); recent weather also uses RESH.
  const meaningful =
    weather.phenomena.length > 0 ||
    descriptor === 'TS' ||
    ((weather.in_vicinity || recent !== undefined) && descriptor === 'SH');
  if (!meaningful) return invalid('bad_weather', token, 'descriptor without a phenomenon');
  if (new Set(weather.phenomena).size !== weather.phenomena.length) {
    return invalid('bad_weather', token, 'phenomenon repeated');
  }
  return single({ kind: 'weather', weather, recent: recent !== undefined }, token);
}

function decodeWeather(
  raw: string,
  intensity: string | undefined,
  descriptor: string | undefined,
  phenomenaText: string,
): WeatherPhenomenon {
  return {
    intensity: intensity === '-' ? 'light' : intensity === '+' ? 'heavy' : 'moderate',
    in_vicinity: intensity === 'VC',
    descriptor: descriptor ?? null,
    phenomena: phenomenaText.match(/../g) ?? [],
    raw,
  };
}

const CLOUD_PATTERN = /^(FEW|SCT|BKN|OVC|\/\/\/)(\d{3}|\/\/\/)(CB|TCU|\/\/\/)?$/;
const LAYER = '(?:FEW|SCT|BKN|OVC)\\d{3}(?:CB|TCU)?';
const GLUED_LAYERS_PATTERN = new RegExp(`^(?:${LAYER}){2,}$`);

function readCloud(token: string): GroupRead {
  const bareType = /^\/\/\/(CB|TCU)$/.exec(token);
  if (bareType !== null) {
    const type = bareType[1] === 'CB' ? 'CB' : 'TCU';
    return single({ kind: 'cloud', clouds: [{ cover: null, base_ft: null, type, raw: token }] }, token);
  }
  // FEW040TCUBKN070: two layers sent without the space; each is unambiguous.
  if (GLUED_LAYERS_PATTERN.test(token)) {
    const layers = token.match(new RegExp(LAYER, 'g')) ?? [];
    return single({ kind: 'cloud', clouds: layers.map((layer) => cloudLayer(layer)) }, token);
  }
  if (!CLOUD_PATTERN.test(token)) {
    if (/^(FEW|SCT|BKN|OVC)/.test(token)) return invalid('bad_cloud', token, 'expected cover, three-digit height in hundreds of feet and optional CB/TCU');
    return { status: 'unknown' };
  }
  return single({ kind: 'cloud', clouds: [cloudLayer(token)] }, token);
}

function cloudLayer(token: string): CloudLayer {
  const [, cover = '', height = '', type] = CLOUD_PATTERN.exec(token) ?? [];
  return {
    cover: cover === '///' ? null : (cover as CloudCover),
    base_ft: height === '///' ? null : Number(height) * 100,
    type: type === 'CB' ? 'CB' : type === 'TCU' ? 'TCU' : null,
    raw: token,
  };
}

function readVerticalVisibility(token: string): GroupRead {
  if (!token.startsWith('VV')) return { status: 'unknown' };
  const match = /^VV(\d{3}|\/\/\/)$/.exec(token);
  if (match === null) return invalid('bad_vertical_visibility', token, 'expected VV and three digits (hundreds of feet) or VV///');
  const height = match[1] ?? '///';
  return single({ kind: 'vertical_visibility', ft: height === '///' ? null : Number(height) * 100 }, token);
}

function readTemperature(token: string): GroupRead {
  const match = /^(M?\d{2}|\/\/)\/(M?\d{2}|\/\/)?$/.exec(token);
  if (match === null) return { status: 'unknown' };
  const temperature = celsius(match[1] ?? '//');
  const dewpoint = celsius(match[2] ?? '//');
  for (const value of [temperature, dewpoint]) {
    if (value !== null && (value < MIN_TEMPERATURE_C || value > MAX_TEMPERATURE_C)) {
      return invalid('bad_temperature', token, `${value} °C is not plausible`);
    }
  }
  // Rounding allows a dew point one degree above the temperature, not more.
  if (temperature !== null && dewpoint !== null && dewpoint > temperature + 1) {
    return invalid('bad_temperature', token, 'dew point above the temperature');
  }
  if (temperature === null && dewpoint === null) return single(MISSING, token);
  return single({ kind: 'temperature', temperature_c: temperature, dewpoint_c: dewpoint }, token);
}

function celsius(text: string): number | null {
  if (text === '//') return null;
  const value = Number(text.replace('M', ''));
  return text.startsWith('M') && value !== 0 ? -value : value;
}

function readAltimeter(token: string): GroupRead {
  const match = /^([QA])(\d{4}|\/\/\/\/)$/.exec(token);
  if (match === null) return { status: 'unknown' };
  const [, unit, digits = ''] = match;
  if (digits === '////') return single(MISSING, token);
  const value = Number(digits);
  if (unit === 'Q') {
    if (value < MIN_HPA || value > MAX_HPA) return invalid('bad_pressure', token, `${value} hPa is not plausible`);
    return single({ kind: 'altimeter', altimeter: { hpa: value, inhg: roundTo(value / HPA_PER_INHG, 2), reported_unit: 'hPa' } }, token);
  }
  if (value < MIN_INHG_HUNDREDTHS || value > MAX_INHG_HUNDREDTHS) {
    return invalid('bad_pressure', token, `${value / 100} inHg is not plausible`);
  }
  const inhg = value / 100;
  return single({ kind: 'altimeter', altimeter: { hpa: roundTo(inhg * HPA_PER_INHG, 1), inhg, reported_unit: 'inHg' } }, token);
}

function windShear(raw: string, runway: string | null, phase: WindShearGroup['phase']): WindShearGroup {
  return { runway, all_runways: runway === null, phase, height_ft: null, wind_at_height: null, raw };
}

/** WS R25L, WS RWY25L, WS RWY 25L, WS ALL RWY, WS TKOF RWY25L, WS LDG RWY25L. */
function readWindShear(tokens: readonly string[], index: number): GroupRead {
  let cursor = index + 1;
  let phase: WindShearGroup['phase'] = null;
  if (tokens[cursor] === 'TKOF' || tokens[cursor] === 'LDG') {
    phase = tokens[cursor] === 'TKOF' ? 'takeoff' : 'landing';
    cursor += 1;
  }
  const first = tokens[cursor] ?? '';
  const second = tokens[cursor + 1] ?? '';
  const found = (runway: string | null, consumed: number): GroupRead => {
    const raw = tokens.slice(index, index + consumed).join(' ');
    return { status: 'group', group: { kind: 'wind_shear', shear: windShear(raw, runway, phase) }, raw, consumed };
  };
  const taken = cursor - index;
  if (first === 'ALL' && second === 'RWY') return found(null, taken + 2);
  const inline = /^(?:R|RWY)(\d{2}[LCR]?)$/.exec(first);
  if (inline !== null) return found(inline[1] ?? '', taken + 1);
  if (first === 'RWY' && /^\d{2}[LCR]?$/.test(second)) return found(second, taken + 2);
  return invalid('bad_wind_shear', tokens.slice(index, cursor + 1).join(' '), 'expected WS R25L, WS RWY25L or WS ALL RWY');
}

/** TAF (and some METAR) form WS020/27045KT: shear below 2000 ft, wind 270° 45 kt at the top. */
function readHeightWindShear(token: string): GroupRead {
  if (!token.startsWith('WS')) return { status: 'unknown' };
  const match = /^WS(\d{3})\/(\d{3})(\d{2,3})(KT|MPS|KMH)$/.exec(token);
  if (match === null) return invalid('bad_wind_shear', token, 'expected WShhh/dddffKT');
  const [, height = '', direction = '', speed = '', unit = ''] = match;
  if (Number(direction) > 360) return invalid('bad_wind_shear', token, 'direction above 360 degrees');
  const shear: WindShearGroup = {
    ...windShear(token, null, null),
    all_runways: false,
    height_ft: Number(height) * 100,
    wind_at_height: {
      direction_deg: Number(direction),
      speed_kt: toKnots(Number(speed), unit === 'MPS' ? 'MPS' : unit === 'KMH' ? 'KMH' : 'KT'),
    },
  };
  return single({ kind: 'wind_shear', shear }, token);
}
