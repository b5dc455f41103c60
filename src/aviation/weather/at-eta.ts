// The weather at an ETA: one shape whichever report describes it, so the landing rules read the
// same fields for an arrival in ten minutes and one tomorrow. The rules, repeated in RULES.md:
//
// - observation: the METAR, while the ETA is at most 60 min after its observation (the next
//   routine report is due within the hour), 120 min when it has a trend forecast every group of
//   which was read (NOSIG: no significant change for the two hours after the observation, ICAO
//   Annex 3; BECMG, TEMPO, INTER: the changes those two hours hold, applied as a TAF's are, below).
//   An ETA before the observation takes it as it is: it is the nearest report there is.
// - forecast: past that, the TAF when its validity covers the ETA. The state in force (BASE or FM,
//   with every completed BECMG applied) plus every TEMPO, INTER, PROB30/40 group in force and
//   any BECMG still in transition, taken at their worst: the strongest wind and gust over every
//   direction forecast, the lowest visibility, the lowest ceiling, every weather phenomenon and
//   cloud layer (a TEMPO TSRA brings the thunderstorm and its CB).
// - none: past the TAF's end, before its start, or with no TAF: nothing is known of the weather.
import {
  conditions,
  flightCategory,
  flightCategoryAtBest,
  forecastWindShearRisk,
  visibilityNm,
  windShearRisk,
  type Condition,
  type FlightCategory,
  type NauticalVisibility,
  type WindShearRisk,
} from './derive.ts';
import { ceilingFt, ceilingUncertain, skyReported } from './section.ts';
import { TREND_VALID_MIN } from './metar.ts';
import { becomes, tafConditionsAt, type TafConditions } from './taf.ts';
import { isoSeconds } from './time.ts';
import type { Metar, RunwayVisualRange, SkyConditions, Taf, TafChange, TafForecast, Wind } from './types.ts';

export type WeatherBasis = 'observation' | 'forecast' | 'none';

/** How long after its observation a METAR describes the weather: the next routine report is due within the hour. */
export const OBSERVATION_VALID_MIN = 60;

/** One TAF group the forecast at the ETA is made of. */
export interface ForecastPeriod {
  kind: TafChange;
  /** 30 or 40 for PROB groups; null otherwise. */
  probability: number | null;
  from: string;
  to: string;
  /** prevailing: the BASE/FM group in force, or a completed BECMG; possible: TEMPO, INTER, PROB or a BECMG in transition, taken at its worst. */
  role: 'prevailing' | 'possible';
  /** The group as written, change indicator and period included. */
  raw: string;
}

export interface WeatherAtEta extends SkyConditions {
  basis: WeatherBasis;
  eta: string;
  /** One line naming the basis: "Observed 14:20Z", "Forecast: TAF TEMPO 1412/1416 TSRA", "No forecast reaches the ETA". */
  summary: string;
  /** Why this basis, sentence by sentence. */
  reasoning: string[];
  /** The METAR's observation time (basis observation); null otherwise. */
  observed_at: string | null;
  /** Until when the basis describes the weather: the observation's validity, or the TAF's end; null for none. */
  valid_until: string | null;
  /** The groups of the TAF used (basis forecast), or of the METAR's trend (basis observation). */
  periods: ForecastPeriod[];
  /** The METAR's trend groups at the ETA, completed or possible (basis observation); empty otherwise. */
  trend: TafForecast[];
  /** false when nothing says anything of the sky: the ceiling is then unknown. */
  sky_reported: boolean;
  /** The METAR's RVR (basis observation); a TAF forecasts none. */
  runway_visual_ranges: RunwayVisualRange[];
  flight_category: FlightCategory | null;
  flight_category_at_best: FlightCategory | null;
  visibility_nm: NauticalVisibility | null;
  conditions: Condition[];
  /** The METAR used (basis observation); null otherwise. */
  metar: Metar | null;
  /** The TAF held, whatever the basis (its wind shear groups and LLWS count for an observation too). */
  taf: Taf | null;
  /** What the TAF says is in force at the ETA, each group apart (basis forecast); null otherwise. */
  in_force: TafConditions | null;
}

export interface WeatherAtEtaInput {
  metar: Metar | null;
  taf: Taf | null | undefined;
  etaMs: number;
}

export function weatherAtEta({ metar, taf = null, etaMs }: WeatherAtEtaInput): WeatherAtEta {
  const eta = isoSeconds(new Date(etaMs));
  const reasoning: string[] = [];
  if (metar !== null) {
    const trend = trendCover(metar);
    const validMin = trend.read ? TREND_VALID_MIN : OBSERVATION_VALID_MIN;
    const observedMs = Date.parse(metar.observed_at);
    const validUntil = isoSeconds(new Date(observedMs + validMin * 60_000));
    const minutes = Math.round((etaMs - observedMs) / 60_000);
    if (etaMs <= Date.parse(validUntil)) {
      reasoning.push(
        minutes >= 0
          ? `The ETA is ${minutes} min after the METAR observed at ${clock(metar.observed_at)}, within the ${validMin} min ${trend.read ? `its ${trend.name} covers` : 'before the next routine report'}: the observation describes it.`
          : `The ETA is before the METAR observed at ${clock(metar.observed_at)}, the nearest report: the observation describes it.`,
      );
      if (trend.unread.length > 0) reasoning.push(`Its trend ${trend.unread.map((raw) => `"${raw}"`).join(', ')} could not be read: nothing of it is assumed.`);
      return observed(metar, taf, eta, validUntil, reasoning, minutes >= 0 ? trendAt(metar, etaMs) : { completed: [], possible: [] });
    }
    reasoning.push(`The METAR observed at ${clock(metar.observed_at)} describes the weather until ${clock(validUntil)}; the ETA is ${minutes} min after it.`);
    if (trend.unread.length > 0) reasoning.push(`Its trend ${trend.unread.map((raw) => `"${raw}"`).join(', ')} could not be read, so it covers no more than the hour.`);
  } else {
    reasoning.push('No METAR is held.');
  }
  if (taf === null) return nothing(eta, 'no TAF is held', reasoning, null);
  const inForce = tafConditionsAt(taf, new Date(etaMs));
  if (!inForce.ok) {
    const when = etaMs < Date.parse(taf.valid_from) ? `starts at ${stamp(taf.valid_from)}` : `ends at ${stamp(taf.valid_to)}`;
    return nothing(eta, `the TAF issued at ${stamp(taf.issued_at)} ${when}`, reasoning, taf);
  }
  return forecast(taf, inForce.conditions, eta, reasoning);
}

/** The wind shear risk at the ETA for the runway in use; null when nothing is known of the weather. */
export function windShearAtEta(weather: WeatherAtEta, runway?: string): WindShearRisk | null {
  if (weather.basis === 'observation' && weather.metar !== null) return windShearRisk(weather.metar, { taf: weather.taf ?? undefined, runway, trend: weather.trend });
  if (weather.basis === 'forecast' && weather.taf !== null && weather.in_force !== null) {
    return forecastWindShearRisk([weather.in_force.prevailing, ...weather.in_force.changes], weather.taf, weather.eta);
  }
  return null;
}

/**
 * What a METAR's trend says of the two hours after it: `read` when it has one and every group was
 * read (NOSIG, or BECMG, TEMPO and INTER groups decoded), named for the reasoning; the groups that
 * could not be read.
 */
function trendCover(metar: Metar): { read: boolean; name: string; unread: string[] } {
  const unread = metar.trends.filter((trend) => trend.type !== 'NOSIG' && trend.forecast === null).map((trend) => trend.raw);
  const changes = metar.trends.some((trend) => trend.forecast !== null);
  return {
    read: metar.trends.length > 0 && unread.length === 0,
    name: changes ? 'trend forecast' : 'NOSIG trend',
    unread,
  };
}

/** The METAR's trend groups at the ETA, as a TAF's are taken: each BECMG complete by then, and the BECMG in transition, TEMPO and INTER in force. */
function trendAt(metar: Metar, etaMs: number): { completed: TafForecast[]; possible: TafForecast[] } {
  const completed: TafForecast[] = [];
  const possible: TafForecast[] = [];
  for (const { forecast } of metar.trends) {
    if (forecast === null) continue;
    const from = Date.parse(forecast.from);
    const to = Date.parse(forecast.to);
    if (forecast.change === 'BECMG' && to <= etaMs) completed.push(forecast);
    else if (from <= etaMs && etaMs < to) possible.push(forecast);
  }
  return { completed, possible };
}

/**
 * The METAR with its trend at the ETA applied: each completed BECMG replaces what it forecasts; the
 * possible groups are taken at their worst.
 */
function observed(metar: Metar, taf: Taf | null, eta: string, validUntil: string, reasoning: string[], { completed, possible }: ReturnType<typeof trendAt>): WeatherAtEta {
  const prevailing = completed.reduce((state, change) => becomes(state, change), { ...skyOf(metar), sources: [] as string[] });
  const sky = possible.length > 0 ? worstCase(prevailing, possible) : prevailing;
  const reported = skyReported(prevailing) || possible.some(skyReported);
  const periods = [...completed.map((group) => period(group, 'prevailing')), ...possible.map((group) => period(group, 'possible'))];
  if (periods.length > 0) {
    const happened = completed.map((group) => `"${group.raw}" has happened`);
    const may = possible.map((group) => `"${group.raw}" may`);
    const worst = possible.length === 0 ? '' : possible.length === 1 ? ', taken at its worst' : ', taken at their worst';
    reasoning.push(`Its trend at the ETA: ${[...happened, ...may].join('; ')}${worst}.`);
  }
  return {
    ...skyOf(sky),
    ...derived(sky, reported),
    basis: 'observation',
    eta,
    summary: `Observed ${clock(metar.observed_at)}${periods.length > 0 ? `, trend ${periods.map((group) => group.raw).join('; ')}` : ''}`,
    reasoning,
    observed_at: metar.observed_at,
    valid_until: validUntil,
    periods,
    trend: [...completed, ...possible],
    sky_reported: reported,
    runway_visual_ranges: metar.runway_visual_ranges,
    metar,
    taf,
    in_force: null,
  };
}

function forecast(taf: Taf, inForce: TafConditions, eta: string, reasoning: string[]): WeatherAtEta {
  const prevailing = inForce.prevailing_groups.map((group) => period(group, 'prevailing'));
  const possible = inForce.changes.map((group) => period(group, 'possible'));
  const periods = [...prevailing, ...possible];
  const sky = worstCase(inForce.prevailing, inForce.changes);
  const reported = skyReported(inForce.prevailing) || inForce.changes.some(skyReported);
  reasoning.push(`The TAF issued at ${stamp(taf.issued_at)} covers the ETA: ${describePeriods(prevailing, possible)}.`);
  if (possible.length > 0) reasoning.push('Each TEMPO, INTER, PROB or transitioning BECMG group in force is taken at its worst: the strongest wind and gust, the lowest visibility and ceiling, its weather.');
  const shown = possible.length > 0 ? possible : prevailing.slice(-1);
  return {
    ...sky,
    ...derived(sky, reported),
    basis: 'forecast',
    eta,
    summary: `Forecast: TAF ${shown.map((group) => group.raw).join('; ')}`,
    reasoning,
    observed_at: null,
    valid_until: taf.valid_to,
    periods,
    trend: [],
    sky_reported: reported,
    runway_visual_ranges: [],
    metar: null,
    taf,
    in_force: inForce,
  };
}

function nothing(eta: string, why: string, reasoning: string[], taf: Taf | null): WeatherAtEta {
  reasoning.push(`No forecast reaches the ETA: ${why}. Wind, visibility and ceiling are unknown.`);
  const sky: SkyConditions = {
    wind: null, visibility: null, weather: [], clouds: [], sky_clear_code: null, vertical_visibility_ft: null,
    sky_obscured: false, ceiling_ft: null, ceiling_uncertain: false, wind_shear: [],
  };
  return {
    ...sky,
    ...derived(sky, false),
    basis: 'none',
    eta,
    summary: 'No forecast reaches the ETA',
    reasoning,
    observed_at: null,
    valid_until: null,
    periods: [],
    trend: [],
    sky_reported: false,
    runway_visual_ranges: [],
    metar: null,
    taf,
    in_force: null,
  };
}

function derived(sky: SkyConditions, reported: boolean): Pick<WeatherAtEta, 'flight_category' | 'flight_category_at_best' | 'visibility_nm' | 'conditions'> {
  const input = { ...sky, sky_reported: reported };
  return {
    flight_category: flightCategory(input),
    flight_category_at_best: flightCategoryAtBest(input),
    visibility_nm: visibilityNm(sky.visibility),
    conditions: conditions(sky),
  };
}

function skyOf(source: SkyConditions): SkyConditions {
  const { wind, visibility, weather, clouds, sky_clear_code, vertical_visibility_ft, sky_obscured, ceiling_ft, ceiling_uncertain, wind_shear } = source;
  return { wind, visibility, weather, clouds, sky_clear_code, vertical_visibility_ft, sky_obscured, ceiling_ft, ceiling_uncertain, wind_shear };
}

function period(group: TafForecast, role: ForecastPeriod['role']): ForecastPeriod {
  return { kind: group.change, probability: group.probability, from: group.from, to: group.to, role, raw: group.raw };
}

/**
 * The worst of the prevailing forecast and the groups that may replace it: every weather and
 * cloud layer of any, the lowest visibility and vertical visibility, and one wind that covers them
 * all (worstWind). An improvement in a TEMPO group (a higher visibility, CAVOK) changes nothing.
 */
function worstCase(prevailing: SkyConditions, possible: readonly SkyConditions[]): SkyConditions {
  const all = [prevailing, ...possible];
  const visibilities = all.map((sky) => sky.visibility).filter((visibility) => visibility !== null);
  const visibility = visibilities.reduce<(typeof visibilities)[number] | null>((lowest, each) => (lowest === null || each.metres < lowest.metres ? each : lowest), null);
  const weather = unique(all.flatMap((sky) => sky.weather));
  const clouds = unique(all.flatMap((sky) => sky.clouds));
  const verticals = all.map((sky) => sky.vertical_visibility_ft).filter((height) => height !== null);
  const vertical = verticals.length === 0 ? null : Math.min(...verticals);
  const obscured = all.some((sky) => sky.sky_obscured);
  const clear = clouds.length === 0 && !obscured ? (all.find((sky) => sky.sky_clear_code !== null)?.sky_clear_code ?? null) : null;
  return {
    wind: worstWind(prevailing.wind, possible.map((sky) => sky.wind).filter((wind) => wind !== null)),
    visibility,
    weather,
    clouds,
    sky_clear_code: clear,
    vertical_visibility_ft: vertical,
    sky_obscured: obscured,
    ceiling_ft: ceilingFt(clouds, vertical),
    ceiling_uncertain: ceilingUncertain(clouds, obscured, vertical),
    wind_shear: unique(all.flatMap((sky) => sky.wind_shear)),
  };
}

function unique<T extends { raw: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.raw) && seen.add(item.raw));
}

/** A wind of this mean speed or more, or gusting, without a direction could blow from anywhere (the landing rules' light-wind limit). */
const DIRECTIONLESS_FROM_KT = 5;

/**
 * One wind for the worst case: the prevailing mean (direction and speed, for the headwind), the
 * highest gust or mean speed of any group as the gust, and as its range the smallest arc that
 * holds every direction forecast (each group's direction and dddVddd range). A VRB group of
 * 5 kt or more, or gusting, makes the direction unknown.
 */
function worstWind(prevailing: Wind | null, others: readonly Wind[]): Wind | null {
  const all = prevailing === null ? [...others] : [prevailing, ...others];
  const base = prevailing ?? strongest(others);
  if (base === null) return null;
  if (others.length === 0) return base;
  const top = Math.max(...all.map(peak));
  const directionless = all.some((wind) => wind.direction_deg === null && (wind.speed_kt >= DIRECTIONLESS_FROM_KT || wind.gust_kt !== null));
  const steady = all.filter((wind) => wind.direction_deg !== null && !wind.calm);
  const direction = directionless ? null : (base.direction_deg ?? strongest(steady)?.direction_deg ?? null);
  const arc = directionless ? null : coveringArc(steady);
  return {
    direction_deg: direction,
    variable: direction === null,
    speed_kt: base.speed_kt,
    gust_kt: top > base.speed_kt ? top : null,
    variable_from_deg: arc?.from ?? null,
    variable_to_deg: arc?.to ?? null,
    calm: all.every((wind) => wind.calm),
    reported: { ...base.reported, group: all.map((wind) => wind.reported.group).join(' / ') },
  };
}

function peak(wind: Wind): number {
  return wind.gust_kt ?? wind.speed_kt;
}

function strongest(winds: readonly Wind[]): Wind | null {
  return winds.reduce<Wind | null>((found, wind) => (found === null || peak(wind) > peak(found) ? wind : found), null);
}

/** The smallest arc (clockwise from → to) holding every direction and range; null when they are one direction. */
function coveringArc(winds: readonly Wind[]): { from: number; to: number } | null {
  const points = new Set<number>();
  for (const wind of winds) {
    if (wind.variable_from_deg !== null && wind.variable_to_deg !== null) {
      const span = normalise(wind.variable_to_deg - wind.variable_from_deg);
      for (let step = 0; step < span; step += 10) points.add(normalise(wind.variable_from_deg + step));
      points.add(wind.variable_to_deg);
    }
    if (wind.direction_deg !== null) points.add(normalise(wind.direction_deg));
  }
  const sorted = [...points].sort((a, b) => a - b);
  if (sorted.length <= 1) return null;
  // The arc is the circle less its widest gap between neighbouring directions.
  let gapAfter = sorted.length - 1;
  let widest = normalise(sorted[0]! - sorted.at(-1)!);
  for (let index = 0; index < sorted.length - 1; index += 1) {
    const gap = sorted[index + 1]! - sorted[index]!;
    if (gap > widest) {
      widest = gap;
      gapAfter = index;
    }
  }
  const from = sorted[(gapAfter + 1) % sorted.length]!;
  const to = sorted[gapAfter]!;
  return { from: from === 0 ? 360 : from, to: to === 0 ? 360 : to };
}

function normalise(degrees: number): number {
  return ((degrees % 360) + 360) % 360;
}

function describePeriods(prevailing: readonly ForecastPeriod[], possible: readonly ForecastPeriod[]): string {
  const named = (group: ForecastPeriod) => (group.kind === 'BASE' ? `the base forecast "${group.raw}"` : `"${group.raw}"`);
  const state = `in force ${prevailing.map(named).join(', then ')}`;
  return possible.length === 0 ? state : `${state}; possible ${possible.map(named).join(', ')}`;
}

/** "14:20Z". */
function clock(iso: string): string {
  return `${iso.slice(11, 16)}Z`;
}

/** "2026-11-26 14:20Z". */
function stamp(iso: string): string {
  return `${iso.slice(0, 10)} ${clock(iso)}`;
}
