/**
 * Values derived from a decoded METAR (and optionally a TAF). Each follows a fixed rule,
 * repeated in RULES.md:
 *
 * flightCategory (FAA, as aviationweather.gov applies it): ceiling = lowest BKN/OVC layer or
 * vertical visibility. LIFR: ceiling < 500 ft or visibility < 1 SM. IFR: ceiling 500 to < 1000 ft
 * or visibility 1 to < 3 SM. MVFR: ceiling 1000 to 3000 ft or visibility 3 to 5 SM. VFR
 * otherwise. The worse of the two decides. No visibility: null (unknown), as AWC does. Layers
 * of unknown height (BKN///, VV///) are ignored, as AWC does; `ceiling_uncertain` flags them.
 * A METAR with no sky group has an unknown ceiling: only a visibility under 1 SM settles the
 * category (LIFR), otherwise it is null. flightCategoryAtBest gives the visibility's category
 * then (AWC's, which reads no sky group as no ceiling): the true one is that or worse.
 *
 * visibilityNm: statute miles × 0.868976, metres / 1852. P6SM, 9999, 10SM or more and CAVOK
 * are lower bounds (`lower_bound`), M1/4SM an upper bound.
 *
 * conditions: every condition that applies, in this precedence order (the first is the
 * headline): THUNDERSTORM, HAIL, FREEZING, FOG, SNOW, RAIN, LOW_VISIBILITY, MIST_HAZE,
 * OVERCAST, CLOUDY, PARTLY_CLOUDY, CLEAR; UNKNOWN when nothing is known. Rain or drizzle that is
 * only light (-RA, -DZ) ranks after the low visibility and mist or haze it comes with.
 *
 * windShearRisk: the highest level any rule gives (LOW < MODERATE < HIGH < SEVERE), with the
 * rules that fired as reasons. See WIND_SHEAR_RULES. forecastWindShearRisk: the same for the TAF
 * groups in force at a time, with the rules a forecast can give.
 *
 * windComponents: components of the mean wind along and across a runway, and the worst case
 * using the gust speed over the whole reported direction range.
 */
import { tafConditionsAt } from './taf.ts';
import type { Metar, SkyConditions, Taf, Visibility, WeatherPhenomenon, Wind } from './types.ts';
import { roundTo } from './units.ts';

export type FlightCategory = 'VFR' | 'MVFR' | 'IFR' | 'LIFR';

const CATEGORY_ORDER: readonly FlightCategory[] = ['VFR', 'MVFR', 'IFR', 'LIFR'];

/** What the category is read from; `sky_reported` false (a METAR with no sky group) makes the ceiling unknown. */
type CategoryInput = Pick<SkyConditions, 'visibility' | 'ceiling_ft'> & Partial<Pick<Metar, 'sky_reported'>>;

export function flightCategory(conditions: CategoryInput): FlightCategory | null {
  const best = flightCategoryAtBest(conditions);
  // VFR, MVFR and IFR each need the ceiling above a limit; an unknown ceiling allows any of them or worse.
  return conditions.sky_reported === false && best !== 'LIFR' ? null : best;
}

/** The best category the report allows: the category itself, or with no sky group the visibility's alone. */
export function flightCategoryAtBest(conditions: CategoryInput): FlightCategory | null {
  const { visibility, ceiling_ft: ceiling } = conditions;
  if (visibility === null) return null;
  const miles = visibility.statute_mi;
  const byVisibility: FlightCategory = miles < 1 ? 'LIFR' : miles < 3 ? 'IFR' : miles <= 5 ? 'MVFR' : 'VFR';
  const byCeiling: FlightCategory =
    ceiling === null ? 'VFR' : ceiling < 500 ? 'LIFR' : ceiling < 1000 ? 'IFR' : ceiling <= 3000 ? 'MVFR' : 'VFR';
  return CATEGORY_ORDER.indexOf(byVisibility) > CATEGORY_ORDER.indexOf(byCeiling) ? byVisibility : byCeiling;
}

export interface NauticalVisibility {
  nm: number;
  /** The visibility is at least this (P6SM, 9999, 10SM+, CAVOK). */
  lower_bound: boolean;
  /** The visibility is below this (M1/4SM). */
  upper_bound: boolean;
}

export function visibilityNm(visibility: Visibility | null): NauticalVisibility | null {
  if (visibility === null) return null;
  return { nm: visibility.nm, lower_bound: visibility.lower_bound, upper_bound: visibility.upper_bound };
}

export type Condition =
  | 'THUNDERSTORM'
  | 'HAIL'
  | 'FREEZING'
  | 'SNOW'
  | 'RAIN'
  | 'FOG'
  | 'LOW_VISIBILITY'
  | 'MIST_HAZE'
  | 'OVERCAST'
  | 'CLOUDY'
  | 'PARTLY_CLOUDY'
  | 'CLEAR'
  | 'UNKNOWN';

/**
 * Precedence, highest first, by what each does to a landing: fog takes the runway out of sight
 * whatever falls with it, so it outranks snow and rain.
 */
export const CONDITION_ORDER: readonly Condition[] = [
  'THUNDERSTORM',
  'HAIL',
  'FREEZING',
  'FOG',
  'SNOW',
  'RAIN',
  'LOW_VISIBILITY',
  'MIST_HAZE',
  'OVERCAST',
  'CLOUDY',
  'PARTLY_CLOUDY',
  'CLEAR',
  'UNKNOWN',
];

/** Below this visibility (the IFR limit) LOW_VISIBILITY applies whatever the cause. */
const LOW_VISIBILITY_SM = 3;

/**
 * Weather in the vicinity (VC) does not describe the aerodrome and is ignored, except VCTS.
 * THUNDERSTORM: TS, VCTS, SQ (squall), FC (funnel cloud). HAIL: GR, GS. FREEZING: FZRA, FZDZ,
 * FZUP, PL. SNOW: SN, SG, IC. RAIN: RA, DZ, UP. FOG: FG (FZFG too) unless shallow (MI), patches
 * (BC) or partial (PR). MIST_HAZE: BR, HZ, FU, DU, SA, VA, PY, DS, SS, PO and partial fog.
 * LOW_VISIBILITY: visibility below 3 SM. Sky: OVERCAST (OVC or sky obscured, VV), CLOUDY (BKN),
 * PARTLY_CLOUDY (FEW/SCT), CLEAR (CAVOK, SKC, CLR, NSC, NCD); none without a sky group, which
 * does not say the sky is clear. UNKNOWN only when nothing at all is known.
 */
export function conditions(observed: Pick<SkyConditions, 'visibility' | 'weather' | 'clouds' | 'sky_clear_code' | 'sky_obscured'>): Condition[] {
  const found = new Set<Condition>();
  let heavierRain = false;
  for (const weather of observed.weather) {
    for (const condition of weatherConditions(weather)) found.add(condition);
    if (weather.intensity !== 'light' && !weather.in_vicinity && weather.descriptor !== 'FZ' && weather.phenomena.some((code) => PRECIPITATION_CONDITIONS[code] === 'RAIN')) heavierRain = true;
  }
  if (observed.visibility !== null && observed.visibility.statute_mi < LOW_VISIBILITY_SM) found.add('LOW_VISIBILITY');
  const covers = new Set(observed.clouds.map((cloud) => cloud.cover));
  if (covers.has('OVC') || observed.sky_obscured) found.add('OVERCAST');
  else if (covers.has('BKN')) found.add('CLOUDY');
  else if (covers.has('FEW') || covers.has('SCT')) found.add('PARTLY_CLOUDY');
  else if (observed.sky_clear_code !== null) found.add('CLEAR');
  if (found.size === 0) found.add('UNKNOWN');
  const ordered = CONDITION_ORDER.filter((condition) => found.has(condition));
  // Light rain is not what limits a landing in mist or low visibility: the visibility is.
  if (!found.has('RAIN') || heavierRain || !(found.has('LOW_VISIBILITY') || found.has('MIST_HAZE'))) return ordered;
  const withoutRain = ordered.filter((condition) => condition !== 'RAIN');
  const after = withoutRain.indexOf(found.has('MIST_HAZE') ? 'MIST_HAZE' : 'LOW_VISIBILITY');
  return [...withoutRain.slice(0, after + 1), 'RAIN', ...withoutRain.slice(after + 1)];
}

const PRECIPITATION_CONDITIONS: Record<string, Condition> = {
  GR: 'HAIL',
  GS: 'HAIL',
  PL: 'FREEZING',
  SN: 'SNOW',
  SG: 'SNOW',
  IC: 'SNOW',
  RA: 'RAIN',
  DZ: 'RAIN',
  UP: 'RAIN',
  SQ: 'THUNDERSTORM',
  FC: 'THUNDERSTORM',
};

const OBSCURATIONS = new Set(['BR', 'HZ', 'FU', 'DU', 'SA', 'VA', 'PY', 'DS', 'SS', 'PO']);

function weatherConditions(weather: WeatherPhenomenon): Condition[] {
  const thunder = weather.descriptor === 'TS';
  if (weather.in_vicinity) return thunder ? ['THUNDERSTORM'] : [];
  const result: Condition[] = thunder ? ['THUNDERSTORM'] : [];
  for (const phenomenon of weather.phenomena) {
    const precipitation = PRECIPITATION_CONDITIONS[phenomenon];
    if (precipitation !== undefined) {
      const freezing = weather.descriptor === 'FZ' && (phenomenon === 'RA' || phenomenon === 'DZ' || phenomenon === 'UP');
      result.push(freezing ? 'FREEZING' : precipitation);
    } else if (phenomenon === 'FG') {
      const partial = weather.descriptor === 'MI' || weather.descriptor === 'BC' || weather.descriptor === 'PR';
      result.push(partial ? 'MIST_HAZE' : 'FOG');
    } else if (OBSCURATIONS.has(phenomenon)) {
      result.push('MIST_HAZE');
    }
  }
  return result;
}

export type WindShearRiskLevel = 'LOW' | 'MODERATE' | 'HIGH' | 'SEVERE';

const RISK_ORDER: readonly WindShearRiskLevel[] = ['LOW', 'MODERATE', 'HIGH', 'SEVERE'];

export interface WindShearReason {
  rule: WindShearRule;
  level: WindShearRiskLevel;
  detail: string;
}

export interface WindShearRisk {
  level: WindShearRiskLevel;
  reasons: WindShearReason[];
  /**
   * Inputs that were unknown, so the level may understate the risk: "wind" (no usable wind
   * group), "taf" (a TAF was given but is not valid at the observation time).
   */
  unknown_inputs: Array<'wind' | 'taf'>;
}

export type WindShearRule =
  | 'reported_wind_shear_all_runways'
  | 'reported_wind_shear_runway_in_use'
  | 'reported_wind_shear_other_runway'
  | 'reported_wind_shear_aloft'
  | 'llws_remark'
  | 'severe_convection'
  | 'thunderstorm'
  | 'squall'
  | 'convection_nearby'
  | 'gust_spread'
  | 'peak_wind'
  | 'wind_shift'
  | 'taf_wind_shear'
  | 'taf_wind_shear_possible'
  | 'taf_llws';

/** The rules windShearRisk applies, with the level each gives; published in RULES.md. */
export const WIND_SHEAR_RULES: Readonly<Record<WindShearRule, string>> = {
  reported_wind_shear_all_runways: 'SEVERE: METAR WS ALL RWY',
  reported_wind_shear_runway_in_use: 'SEVERE: METAR WS group for the runway in use',
  reported_wind_shear_other_runway: 'HIGH: METAR WS group for a runway (not known to be the one in use)',
  reported_wind_shear_aloft: 'HIGH: METAR WShhh/dddffKT group',
  llws_remark: 'HIGH: LLWS in the METAR remarks',
  severe_convection: 'SEVERE: heavy thunderstorm (+TS..), hail (GR) or funnel cloud (FC) at the aerodrome',
  thunderstorm: 'HIGH: thunderstorm (TS) at the aerodrome',
  squall: 'HIGH: squall (SQ)',
  convection_nearby: 'MODERATE: CB or TCU cloud, or thunderstorm in the vicinity (VCTS)',
  gust_spread: 'MODERATE when gust - mean >= 15 kt, HIGH when >= 25 kt',
  peak_wind: 'MODERATE when the PK WND remark exceeds the mean by >= 15 kt, HIGH when by >= 25 kt',
  wind_shift: 'MODERATE: WSHFT remark (wind shift in the last hour)',
  taf_wind_shear: 'HIGH: TAF WS group in the prevailing forecast at the observation time (at the ETA, for a forecast)',
  taf_wind_shear_possible: 'MODERATE: TAF WS group in a TEMPO/PROB/BECMG group in force at the observation time (at the ETA, for a forecast)',
  taf_llws: 'HIGH: LLWS in the TAF remarks while the TAF is valid',
};

export interface WindShearOptions {
  taf?: Taf;
  /** Runway in use ("25L"); a WS group for it is SEVERE. */
  runway?: string;
  /** The METAR's trend groups that count (at an ETA: completed or possible), judged by the weather rules as a forecast's groups are. */
  trend?: ReadonlyArray<Pick<SkyConditions, 'wind' | 'weather' | 'clouds'>>;
}

const GUST_SPREAD_MODERATE_KT = 15;
const GUST_SPREAD_HIGH_KT = 25;

type AddReason = (rule: WindShearRule, level: WindShearRiskLevel, detail: string) => void;

export function windShearRisk(metar: Metar, options: WindShearOptions = {}): WindShearRisk {
  const reasons: WindShearReason[] = [];
  const add: AddReason = (rule, level, detail) => {
    if (!reasons.some((reason) => reason.rule === rule && reason.detail === detail)) reasons.push({ rule, level, detail });
  };

  for (const shear of metar.wind_shear) {
    if (shear.all_runways) add('reported_wind_shear_all_runways', 'SEVERE', shear.raw);
    else if (shear.runway === null) add('reported_wind_shear_aloft', 'HIGH', shear.raw);
    else if (options.runway !== undefined && sameRunway(shear.runway, options.runway)) {
      add('reported_wind_shear_runway_in_use', 'SEVERE', shear.raw);
    } else add('reported_wind_shear_other_runway', 'HIGH', shear.raw);
  }
  if (metar.remarks.low_level_wind_shear !== null) add('llws_remark', 'HIGH', metar.remarks.low_level_wind_shear);

  addWeatherReasons(metar, add);
  for (const group of options.trend ?? []) addWeatherReasons(group, add);
  const wind = metar.wind;
  const peak = metar.remarks.peak_wind;
  if (peak !== null && wind !== null) {
    const excess = peak.speed_kt - wind.speed_kt;
    if (excess >= GUST_SPREAD_HIGH_KT) add('peak_wind', 'HIGH', peak.raw);
    else if (excess >= GUST_SPREAD_MODERATE_KT) add('peak_wind', 'MODERATE', peak.raw);
  }
  if (metar.remarks.wind_shift !== null) add('wind_shift', 'MODERATE', metar.remarks.wind_shift.raw);

  const unknownInputs: WindShearRisk['unknown_inputs'] = wind === null ? ['wind'] : [];
  if (options.taf !== undefined && !addTafReasons(options.taf, metar.observed_at, add)) unknownInputs.push('taf');
  return settled(reasons, unknownInputs);
}

/**
 * The risk at a time the TAF covers, from what it forecasts then: the weather, cloud and wind of
 * each group in force (`groups`: the prevailing state and each group that may replace it, read
 * one by one so that a gust is compared with its own group's mean) and the TAF's WS groups and
 * LLWS remark in force at `at`. A METAR's own groups (WS, PK WND, WSHFT) have no forecast
 * counterpart.
 */
export function forecastWindShearRisk(groups: ReadonlyArray<Pick<SkyConditions, 'wind' | 'weather' | 'clouds'>>, taf: Taf, at: string): WindShearRisk {
  const reasons: WindShearReason[] = [];
  const add: AddReason = (rule, level, detail) => {
    if (!reasons.some((reason) => reason.rule === rule && reason.detail === detail)) reasons.push({ rule, level, detail });
  };
  for (const group of groups) addWeatherReasons(group, add);
  const unknownInputs: WindShearRisk['unknown_inputs'] = groups.every((group) => group.wind === null) ? ['wind'] : [];
  if (!addTafReasons(taf, at, add)) unknownInputs.push('taf');
  return settled(reasons, unknownInputs);
}

/** Convection, squalls and gusts: the rules an observation and a forecast share. */
function addWeatherReasons(sky: Pick<SkyConditions, 'wind' | 'weather' | 'clouds'>, add: AddReason): void {
  for (const weather of sky.weather) {
    const thunder = weather.descriptor === 'TS';
    if (weather.in_vicinity) {
      if (thunder) add('convection_nearby', 'MODERATE', weather.raw);
      continue;
    }
    const severe = (thunder && weather.intensity === 'heavy') || weather.phenomena.includes('GR') || weather.phenomena.includes('FC');
    if (severe) add('severe_convection', 'SEVERE', weather.raw);
    else if (thunder) add('thunderstorm', 'HIGH', weather.raw);
    if (weather.phenomena.includes('SQ')) add('squall', 'HIGH', weather.raw);
  }
  for (const cloud of sky.clouds) {
    if (cloud.type !== null) add('convection_nearby', 'MODERATE', cloud.raw);
  }
  const wind = sky.wind;
  if (wind !== null && wind.gust_kt !== null) {
    const spread = wind.gust_kt - wind.speed_kt;
    if (spread >= GUST_SPREAD_HIGH_KT) add('gust_spread', 'HIGH', `gusts ${spread} kt above the mean`);
    else if (spread >= GUST_SPREAD_MODERATE_KT) add('gust_spread', 'MODERATE', `gusts ${spread} kt above the mean`);
  }
}

function settled(reasons: WindShearReason[], unknownInputs: WindShearRisk['unknown_inputs']): WindShearRisk {
  const level = reasons.reduce<WindShearRiskLevel>(
    (highest, reason) => (RISK_ORDER.indexOf(reason.level) > RISK_ORDER.indexOf(highest) ? reason.level : highest),
    'LOW',
  );
  return { level, reasons, unknown_inputs: unknownInputs };
}

/** Adds the TAF's reasons at `at` (the observation time, or the ETA of a forecast); false when the TAF is not valid then. */
function addTafReasons(taf: Taf, at: string, add: AddReason): boolean {
  const inForce = tafConditionsAt(taf, new Date(at));
  if (!inForce.ok) return false;
  for (const shear of inForce.conditions.prevailing.wind_shear) add('taf_wind_shear', 'HIGH', shear.raw);
  for (const change of inForce.conditions.changes) {
    for (const shear of change.wind_shear) add('taf_wind_shear_possible', 'MODERATE', `${change.change} ${shear.raw}`);
  }
  if (taf.low_level_wind_shear !== null) add('taf_llws', 'HIGH', taf.low_level_wind_shear);
  return true;
}

/** "25L" matches "RWY25L", "R25L" and "25l"; "25" matches only a runway without suffix. */
function sameRunway(reported: string, inUse: string): boolean {
  const designator = (text: string): string => text.toUpperCase().replace(/^(RWY|R)/, '').trim();
  return designator(reported) === designator(inUse);
}

export interface WindComponents {
  /** Mean wind along the runway; negative is a tailwind. Null for VRB wind. */
  headwind_kt: number | null;
  /** Mean wind across the runway: positive from the right, negative from the left. Null for VRB. */
  crosswind_kt: number | null;
  crosswind_from: 'left' | 'right' | null;
  /** Lowest headwind (most tailwind) at gust speed over the reported direction range. */
  worst_headwind_kt: number;
  /** Largest crosswind magnitude at gust speed over the reported direction range. */
  worst_crosswind_kt: number;
}

/**
 * Components for a runway of the given true heading. The worst case uses the gust (or the mean
 * speed without gusts) from every direction the wind was reported to take: the dddVddd range,
 * all directions for VRB without a range, else the mean direction.
 */
export function windComponents(wind: Wind | null, runwayTrueHeadingDeg: number): WindComponents | null {
  if (wind === null || !Number.isFinite(runwayTrueHeadingDeg)) return null;
  const peakSpeed = wind.gust_kt ?? wind.speed_kt;
  const directions = worstCaseDirections(wind, runwayTrueHeadingDeg);
  let worstHeadwind = Infinity;
  let worstCrosswind = 0;
  for (const direction of directions) {
    const { headwind, crosswind } = components(direction, peakSpeed, runwayTrueHeadingDeg);
    worstHeadwind = Math.min(worstHeadwind, headwind);
    worstCrosswind = Math.max(worstCrosswind, Math.abs(crosswind));
  }
  const mean = wind.direction_deg === null ? null : components(wind.direction_deg, wind.speed_kt, runwayTrueHeadingDeg);
  return {
    headwind_kt: mean === null ? null : tidy(mean.headwind),
    crosswind_kt: mean === null ? null : tidy(mean.crosswind),
    crosswind_from: mean === null || tidy(mean.crosswind) === 0 ? null : mean.crosswind > 0 ? 'right' : 'left',
    worst_headwind_kt: tidy(worstHeadwind),
    worst_crosswind_kt: tidy(worstCrosswind),
  };
}

function components(directionDeg: number, speedKt: number, runwayDeg: number): { headwind: number; crosswind: number } {
  const angle = ((directionDeg - runwayDeg) * Math.PI) / 180;
  return { headwind: speedKt * Math.cos(angle), crosswind: speedKt * Math.sin(angle) };
}

/** The range end points plus the directions of full crosswind and full tailwind inside it. */
function worstCaseDirections(wind: Wind, runwayDeg: number): number[] {
  const from = wind.variable_from_deg;
  const to = wind.variable_to_deg;
  const critical = [runwayDeg + 90, runwayDeg + 180, runwayDeg + 270].map(normalise);
  if (from !== null && to !== null) {
    const span = normalise(to - from);
    const inside = critical.filter((direction) => normalise(direction - from) <= span);
    return [from, to, ...inside];
  }
  if (wind.direction_deg === null) return critical;
  return [wind.direction_deg];
}

function normalise(degrees: number): number {
  return ((degrees % 360) + 360) % 360;
}

/** One decimal, and no negative zero. */
function tidy(value: number): number {
  return roundTo(value, 1) + 0;
}

export interface DerivedWeather {
  flight_category: FlightCategory | null;
  /** Equals flight_category, except with no sky group: the visibility's category, the best the ceiling may allow. */
  flight_category_at_best: FlightCategory | null;
  visibility_nm: NauticalVisibility | null;
  conditions: Condition[];
  wind_shear_risk: WindShearRisk;
  wind_components: WindComponents | null;
}

export interface DeriveOptions {
  taf?: Taf;
  runway?: { designator: string; true_heading_deg: number };
}

/** Every derived value for one METAR, for the landing endpoint. */
export function deriveWeather(metar: Metar, options: DeriveOptions = {}): DerivedWeather {
  return {
    flight_category: flightCategory(metar),
    flight_category_at_best: flightCategoryAtBest(metar),
    visibility_nm: visibilityNm(metar.visibility),
    conditions: conditions(metar),
    wind_shear_risk: windShearRisk(metar, { taf: options.taf, runway: options.runway?.designator }),
    wind_components: options.runway === undefined ? null : windComponents(metar.wind, options.runway.true_heading_deg),
  };
}
