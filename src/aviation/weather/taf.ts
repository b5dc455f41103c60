// parseTaf: metar-taf-parser splits the TAF into its change groups and dates them; each group's
// weather is then checked and decoded by the same group decoders as a METAR body.
// tafConditionsAt: what the TAF says is in force at one instant.
import { parseTAF as libraryParseTaf } from 'metar-taf-parser';
import type { ITAFDated, TAFTrendDated } from 'metar-taf-parser';
import { weatherError } from './groups.ts';
import { normaliseReport } from './metar.ts';
import { findLowLevelWindShear } from './remarks.ts';
import { ceilingFt, ceilingUncertain, decodeSection, skyReported } from './section.ts';
import { isoSeconds, referenceTime, resolveDayTime } from './time.ts';
import type {
  SkyConditions,
  Taf,
  TafChange,
  TafForecast,
  TafResult,
  WeatherError,
  WeatherErrorCode,
  WindShearGroup,
} from './types.ts';

export interface TafParseOptions {
  /** Reference clock that supplies the month and year of the issue time (default: now). */
  now?: Date;
}

const MAX_TAF_LENGTH = 8192;
/** ICAO TAFs are valid for at most 30 hours; a little slack for national practice. */
const MAX_VALIDITY_MS = 36 * 60 * 60 * 1000;

const CHANGE_INDICATOR = /^(FM\d{6}|BECMG|TEMPO|INTER|PROB\d{2})$/;

export function parseTaf(raw: unknown, options: TafParseOptions = {}): TafResult {
  if (typeof raw !== 'string') return fail('not_text', null, 'a TAF must be a string');
  if (raw.length > MAX_TAF_LENGTH) return fail('too_long', null, `longer than ${MAX_TAF_LENGTH} characters`);
  const now = referenceTime(options.now);
  if (now === null) return fail('bad_time_argument', null, 'options.now is not a valid Date');
  const text = normaliseReport(raw);
  if (text === '') return fail('empty', null, 'no text');
  const tokens = text.split(' ');

  let index = tokens[0] === 'TAF' ? 1 : 0;
  let amended = false;
  let corrected = false;
  for (; tokens[index] === 'AMD' || tokens[index] === 'COR'; index += 1) {
    if (tokens[index] === 'AMD') amended = true;
    else corrected = true;
  }
  const station = tokens[index];
  if (station === undefined || /^\d{6}Z$/.test(station)) return fail('missing_station', station ?? null, 'expected a four-character ICAO station');
  if (!/^[A-Z][A-Z0-9]{3}$/.test(station)) return fail('bad_station', station, 'expected a four-character ICAO station');
  const timeGroup = tokens[index + 1];
  const time = /^(\d{2})(\d{2})(\d{2})Z$/.exec(timeGroup ?? '');
  if (time === null) return fail('missing_time', timeGroup ?? null, 'expected the issue time as DDHHMMZ');
  const issued = Number(time[2]) > 23 ? null : resolveDayTime(Number(time[1]), Number(time[2]), Number(time[3]), now);
  if (issued === null) return fail('bad_time', timeGroup ?? null, 'no such day, hour or minute');
  const validityGroup = tokens[index + 2];
  if (validityGroup === 'NIL') return fail('nil_report', validityGroup, 'no forecast');
  if (validityGroup === undefined || !/^\d{4}\/\d{4}$/.test(validityGroup)) {
    return fail('bad_validity', validityGroup ?? null, 'expected the validity period as DDHH/DDHH');
  }
  if (tokens.includes('CNL')) return fail('cancelled', 'CNL', 'the TAF was cancelled');

  const remarksAt = tokens.indexOf('RMK');
  const forecastTokens = tokens.slice(index + 3, remarksAt === -1 ? tokens.length : remarksAt);

  let library: ITAFDated;
  try {
    library = libraryParseTaf(text, { issued });
  } catch (error) {
    return fail('parser_error', null, `metar-taf-parser failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const validFrom = library.validity.start;
  const validTo = library.validity.end;
  const duration = validTo.getTime() - validFrom.getTime();
  if (!(duration > 0 && duration <= MAX_VALIDITY_MS)) return fail('bad_validity', validityGroup, 'the period is empty or longer than 36 hours');

  const baseEnd = forecastTokens.findIndex((token) => CHANGE_INDICATOR.test(token));
  const baseTokens = forecastTokens.slice(0, baseEnd === -1 ? forecastTokens.length : baseEnd);
  const trendTokens = library.trends.map((trend) => withoutRemarks(trend.raw.split(' ')));
  // The library skips what it cannot place; every group must be in the base or one change group.
  if ([...baseTokens, ...trendTokens.flat()].join(' ') !== forecastTokens.join(' ')) {
    return fail('parser_error', null, 'metar-taf-parser did not account for every change group');
  }

  const forecasts: TafForecast[] = [];
  const base = decodeForecast('BASE', null, baseTokens, baseTokens.join(' '));
  if (!base.ok) return base;
  forecasts.push({ ...base.forecast, from: isoSeconds(validFrom), to: isoSeconds(validTo) });
  const unparsed = [...base.unparsed];
  for (const [position, trend] of library.trends.entries()) {
    const groupTokens = trendTokens[position] ?? [];
    const body = groupTokens.slice(leadingIndicatorCount(groupTokens));
    const change = changeOf(trend);
    if (change === null) return fail('parser_error', null, `unknown change group type ${trend.type}`);
    const decoded = decodeForecast(change, trend.probability ?? null, body, groupTokens.join(' '));
    if (!decoded.ok) return decoded;
    unparsed.push(...decoded.unparsed);
    const period = trendPeriod(trend, validFrom, validTo);
    if (period === null) return fail('bad_validity', groupTokens.slice(0, 3).join(' '), 'change group outside the TAF validity');
    forecasts.push({ ...decoded.forecast, ...period });
  }
  closeFromGroups(forecasts, isoSeconds(validTo));

  const remarks = remarksAt === -1 ? null : tokens.slice(remarksAt + 1).join(' ');
  return {
    ok: true,
    taf: {
      raw,
      station,
      issued_at: isoSeconds(issued),
      valid_from: isoSeconds(validFrom),
      valid_to: isoSeconds(validTo),
      amended: amended || library.amendment === true,
      corrected,
      forecasts,
      low_level_wind_shear: findLowLevelWindShear(remarks),
      unparsed_groups: unparsed,
    },
  };
}

function withoutRemarks(tokens: string[]): string[] {
  const remarksAt = tokens.indexOf('RMK');
  return remarksAt === -1 ? tokens : tokens.slice(0, remarksAt);
}

/** PROB30 TEMPO 2800/2804 -> 3 tokens before the weather; FM272200 -> 1. */
function leadingIndicatorCount(tokens: readonly string[]): number {
  let count = 0;
  while (count < tokens.length && (CHANGE_INDICATOR.test(tokens[count] ?? '') || /^\d{4}\/\d{4}$/.test(tokens[count] ?? ''))) count += 1;
  return count;
}

const CHANGE_TYPES: readonly TafChange[] = ['FM', 'BECMG', 'TEMPO', 'INTER', 'PROB'];

function changeOf(trend: TAFTrendDated): TafChange | null {
  return CHANGE_TYPES.find((change) => change === trend.type) ?? null;
}

/** The group's period, or null when it falls outside the TAF validity. FM ends are set later. */
function trendPeriod(trend: TAFTrendDated, validFrom: Date, validTo: Date): { from: string; to: string } | null {
  const start = trend.validity.start;
  const end = trend.validity.end ?? validTo;
  if (start < validFrom || end > validTo || end <= start) return null;
  return { from: isoSeconds(start), to: isoSeconds(end) };
}

/** BASE and FM forecasts run until the next FM group. */
function closeFromGroups(forecasts: TafForecast[], validTo: string): void {
  const prevailing = forecasts.filter((forecast) => forecast.change === 'BASE' || forecast.change === 'FM');
  prevailing.forEach((forecast, position) => {
    forecast.to = prevailing[position + 1]?.from ?? validTo;
  });
}

type DecodedForecast =
  | { ok: true; forecast: Omit<TafForecast, 'from' | 'to'>; unparsed: string[] }
  | { ok: false; error: WeatherError };

function decodeForecast(change: TafChange, probability: number | null, tokens: string[], raw: string): DecodedForecast {
  const decoded = decodeSection(tokens, { mode: 'taf', lenient: false });
  if (!decoded.ok) return decoded;
  const { section } = decoded;
  return {
    ok: true,
    forecast: { change, probability, ...section.conditions, no_significant_weather: section.no_significant_weather, raw },
    unparsed: section.unparsed_groups,
  };
}

export interface TafConditions {
  at: string;
  /** BASE/FM conditions in force, with every completed BECMG applied. */
  prevailing: SkyConditions & { sources: string[] };
  /** The groups `prevailing` is made of: the BASE or FM group in force, then each completed BECMG applied to it. */
  prevailing_groups: TafForecast[];
  /** TEMPO, INTER and PROB groups in force, and BECMG groups still in transition. */
  changes: TafForecast[];
  /** Every WS group in the prevailing forecast or in the changes. */
  wind_shear: WindShearGroup[];
}

export type TafConditionsResult = { ok: true; conditions: TafConditions } | { ok: false; error: WeatherError };

export function tafConditionsAt(taf: Taf, time: Date): TafConditionsResult {
  if (!(time instanceof Date) || !Number.isFinite(time.getTime())) return fail('bad_time_argument', null, 'time is not a valid Date');
  const at = time.getTime();
  if (at < Date.parse(taf.valid_from) || at >= Date.parse(taf.valid_to)) {
    return fail('outside_validity', null, `${isoSeconds(time)} is outside ${taf.valid_from} to ${taf.valid_to}`);
  }
  let prevailing: SkyConditions & { sources: string[] } = { ...conditionsOf(taf.forecasts[0]), sources: [] };
  let groups: TafForecast[] = [];
  const changes: TafForecast[] = [];
  for (const forecast of taf.forecasts) {
    const from = Date.parse(forecast.from);
    const to = Date.parse(forecast.to);
    if (forecast.change === 'BASE' || forecast.change === 'FM') {
      if (from <= at) {
        prevailing = { ...conditionsOf(forecast), sources: [forecast.raw] };
        groups = [forecast];
      }
    } else if (forecast.change === 'BECMG') {
      if (to <= at) {
        prevailing = becomes(prevailing, forecast);
        groups.push(forecast);
      } else if (from <= at) changes.push(forecast);
    } else if (from <= at && at < to) {
      changes.push(forecast);
    }
  }
  const windShear = [...prevailing.wind_shear, ...changes.flatMap((change) => change.wind_shear)];
  return { ok: true, conditions: { at: isoSeconds(time), prevailing, prevailing_groups: groups, changes, wind_shear: windShear } };
}

function conditionsOf(forecast: TafForecast | undefined): SkyConditions {
  return {
    wind: forecast?.wind ?? null,
    visibility: forecast?.visibility ?? null,
    weather: forecast?.weather ?? [],
    clouds: forecast?.clouds ?? [],
    sky_clear_code: forecast?.sky_clear_code ?? null,
    vertical_visibility_ft: forecast?.vertical_visibility_ft ?? null,
    sky_obscured: forecast?.sky_obscured ?? false,
    ceiling_ft: forecast?.ceiling_ft ?? null,
    ceiling_uncertain: forecast?.ceiling_uncertain ?? false,
    wind_shear: forecast?.wind_shear ?? [],
  };
}

/** A completed BECMG (of a TAF, or of a METAR's trend) replaces the elements it forecasts and keeps the rest. */
export function becomes(
  prevailing: SkyConditions & { sources: string[] },
  change: TafForecast,
): SkyConditions & { sources: string[] } {
  const next = { ...prevailing, sources: [...prevailing.sources, change.raw] };
  if (change.wind !== null) next.wind = change.wind;
  if (change.visibility !== null) next.visibility = change.visibility;
  if (change.weather.length > 0 || change.no_significant_weather || change.sky_clear_code === 'CAVOK') next.weather = change.weather;
  if (skyReported(change)) {
    next.clouds = change.clouds;
    next.sky_clear_code = change.sky_clear_code;
    next.vertical_visibility_ft = change.vertical_visibility_ft;
    next.sky_obscured = change.sky_obscured;
  }
  if (change.wind_shear.length > 0) next.wind_shear = change.wind_shear;
  next.ceiling_ft = ceilingFt(next.clouds, next.vertical_visibility_ft);
  next.ceiling_uncertain = ceilingUncertain(next.clouds, next.sky_obscured, next.vertical_visibility_ft);
  return next;
}

function fail(code: WeatherErrorCode, group: string | null, why: string): { ok: false; error: WeatherError } {
  return { ok: false, error: weatherError(code, group, why) };
}
