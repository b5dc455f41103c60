// parseMetar: metar-taf-parser wrapped so that nothing throws, nothing malformed is accepted
// and nothing it drops is lost. The library decodes the remarks; the body groups are checked and
// decoded by groups.ts (see RULES.md for why); the trend groups are kept as written and decoded as
// forecast groups where they can be, each group of the report in exactly one place.
import { parseMetar as libraryParseMetar } from 'metar-taf-parser';
import type { IMetar } from 'metar-taf-parser';
import { weatherError } from './groups.ts';
import { remarksOfInterest } from './remarks.ts';
import { decodeSection, skyReported } from './section.ts';
import { isoSeconds, referenceTime, resolveDayTime, resolveTimeOfDay } from './time.ts';
import type { Metar, MetarResult, MetarTrend, TafForecast, WeatherError, WeatherErrorCode } from './types.ts';

export interface ParseOptions {
  /** Reference clock that supplies the month and year (default: the current time). */
  now?: Date;
  /**
   * Skip malformed groups that cannot change the visibility or ceiling (wind, temperature,
   * pressure, runway groups, wind shear) instead of rejecting the report; they are listed in
   * `invalid_groups` and read as unknown. Default false: any malformed group rejects the report.
   */
  lenient?: boolean;
}

/** Longer than any real report: refuse before doing any work on it. */
const MAX_REPORT_LENGTH = 4096;

const TREND_KEYWORDS: ReadonlySet<string> = new Set<MetarTrend['type']>(['NOSIG', 'BECMG', 'TEMPO', 'INTER']);
/** A METAR's trend forecast covers the two hours after the observation (ICAO Annex 3). */
export const TREND_VALID_MIN = 120;
const MODIFIERS = new Set(['AUTO', 'COR', 'RTD', 'CCA', 'CCB', 'CCC']);

export function parseMetar(raw: unknown, options: ParseOptions = {}): MetarResult {
  if (typeof raw !== 'string') return fail('not_text', null, 'a METAR must be a string');
  const header = readHeader(raw, options);
  if (!header.ok) return header;
  const { text, tokens, bodyStart, type, station, observedAt, auto, corrected } = header;

  const remarksAt = tokens.indexOf('RMK', bodyStart);
  const beforeRemarks = remarksAt === -1 ? tokens.length : remarksAt;
  const trendAt = tokens.slice(bodyStart, beforeRemarks).findIndex((token) => TREND_KEYWORDS.has(token));
  const bodyEnd = trendAt === -1 ? beforeRemarks : bodyStart + trendAt;

  const decoded = decodeSection(tokens.slice(bodyStart, bodyEnd), { mode: 'metar', lenient: options.lenient === true });
  if (!decoded.ok) return decoded;
  const { section } = decoded;
  if (section.group_count === 0) {
    return fail('no_observation', null, 'no weather groups after the station and time');
  }

  let library: IMetar;
  try {
    library = libraryParseMetar(text);
  } catch (error) {
    return fail('parser_error', null, `metar-taf-parser failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (library.station !== station) return fail('parser_error', null, 'metar-taf-parser read a different station');

  const remarksText = remarksAt === -1 ? null : tokens.slice(remarksAt + 1).join(' ') || null;
  const trend = readTrends(tokens.slice(bodyEnd, beforeRemarks), observedAt);
  const metar: Metar = {
    raw,
    type,
    station,
    observed_at: isoSeconds(observedAt),
    auto,
    corrected,
    ...section.conditions,
    visibility_minimum: section.visibility_minimum,
    runway_visual_ranges: section.runway_visual_ranges,
    recent_weather: section.recent_weather,
    temperature_c: section.temperature_c,
    dewpoint_c: section.dewpoint_c,
    altimeter: section.altimeter,
    runway_states: section.runway_states,
    sky_reported: skyReported(section.conditions),
    remarks: remarksOfInterest(remarksText, library.remarks, observedAt.getUTCHours()),
    trends: trend.trends,
    missing_groups: section.missing_groups,
    unparsed_groups: [...section.unparsed_groups, ...trend.unparsed],
    invalid_groups: section.invalid_groups,
  };
  return { ok: true, metar };
}

type Header =
  | {
      ok: true;
      text: string;
      tokens: string[];
      bodyStart: number;
      type: Metar['type'];
      station: string;
      observedAt: Date;
      auto: boolean;
      corrected: boolean;
    }
  | { ok: false; error: WeatherError };

function readHeader(raw: string, options: ParseOptions): Header {
  if (raw.length > MAX_REPORT_LENGTH) return fail('too_long', null, `longer than ${MAX_REPORT_LENGTH} characters`);
  const now = referenceTime(options.now);
  if (now === null) return fail('bad_time_argument', null, 'options.now is not a valid Date');
  const text = normaliseReport(raw);
  if (text === '') return fail('empty', null, 'no text');
  const tokens = text.split(' ');

  let index = 0;
  let type: Metar['type'] = 'METAR';
  if (tokens[0] === 'METAR' || tokens[0] === 'SPECI') {
    type = tokens[0];
    index += 1;
  }
  let corrected = false;
  if (tokens[index] === 'COR') {
    corrected = true;
    index += 1;
  }
  const station = tokens[index];
  if (station === undefined || /^\d{6}Z$/.test(station)) return fail('missing_station', station ?? null, 'expected a four-character ICAO station');
  if (!/^[A-Z][A-Z0-9]{3}$/.test(station)) return fail('bad_station', station, 'expected a four-character ICAO station');
  index += 1;

  // 272200Z32004KT: the time glued to the next group.
  const glued = /^(\d{6}Z)(\S+)$/.exec(tokens[index] ?? '');
  if (glued !== null) tokens.splice(index, 1, glued[1] ?? '', glued[2] ?? '');
  const timeGroup = tokens[index];
  const observedAt = timeGroup === undefined ? null : observationTime(timeGroup, now);
  if (observedAt === null || timeGroup === undefined) {
    const looksLikeTime = timeGroup !== undefined && /^\d+Z$/.test(timeGroup);
    return fail(looksLikeTime ? 'bad_time' : 'missing_time', timeGroup ?? null, 'expected day, hour and minute as DDHHMMZ');
  }
  index += 1;

  let auto = false;
  for (; index < tokens.length; index += 1) {
    const token = tokens[index] ?? '';
    if (token === 'NIL') return fail('nil_report', token, 'the station sent no observation');
    if (!MODIFIERS.has(token)) break;
    if (token === 'AUTO') auto = true;
    else corrected = true;
  }
  return { ok: true, text: tokens.join(' '), tokens, bodyStart: index, type, station, observedAt, auto, corrected };
}

/** DDHHMMZ, or HHMMZ (sent by a few stations) taken as the latest such time of day. */
function observationTime(group: string, now: Date): Date | null {
  const full = /^(\d{2})(\d{2})(\d{2})Z$/.exec(group);
  if (full !== null) {
    const [day, hour, minute] = [Number(full[1]), Number(full[2]), Number(full[3])];
    return hour > 23 ? null : resolveDayTime(day, hour, minute, now);
  }
  const timeOfDay = /^(\d{2})(\d{2})Z$/.exec(group);
  return timeOfDay === null ? null : resolveTimeOfDay(Number(timeOfDay[1]), Number(timeOfDay[2]), now);
}

/** Upper case, single spaces, no control characters and no trailing "=" end-of-message mark. */
export function normaliseReport(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*=+$/, '')
    .trim();
}

/**
 * The groups from the first trend keyword to RMK: each keyword starts a trend that runs to the
 * next. NOSIG forecasts no change, so groups after it belong to no trend and are returned as
 * unparsed rather than dropped.
 */
function readTrends(tokens: readonly string[], observedAt: Date): { trends: MetarTrend[]; unparsed: string[] } {
  const trends: { type: MetarTrend['type']; groups: string[] }[] = [];
  const unparsed: string[] = [];
  for (const token of tokens) {
    const current = trends.at(-1);
    if (TREND_KEYWORDS.has(token)) trends.push({ type: token as MetarTrend['type'], groups: [token] });
    else if (current === undefined || current.type === 'NOSIG') unparsed.push(token);
    else current.groups.push(token);
  }
  return {
    trends: trends.map(({ type, groups }) => {
      const raw = groups.join(' ');
      return { type, raw, forecast: type === 'NOSIG' ? null : trendForecast(type, groups.slice(1), raw, observedAt) };
    }),
    unparsed,
  };
}

/**
 * How far past the trend's two hours a `TLhhmm` may name its end and still be read, the period then
 * ending with the two hours: observers write the day's end (`TL2400` from 21:50). A time further on
 * has most likely wrapped around the day (`TL2130` from 21:50), and the trend is not read.
 */
const TREND_UNTIL_GRACE_MIN = 60;

/**
 * A BECMG, TEMPO or INTER trend as a forecast group, or null when it cannot be read. Its period:
 * from the observation to two hours after it, narrowed by its time groups (`FMhhmm` from, `TLhhmm`
 * until, `AThhmm` at: a BECMG complete then; each the first such time from the observation on, and
 * within the two hours, a `TL` up to TREND_UNTIL_GRACE_MIN past them read as their end). Its groups
 * are decoded as a TAF change group's; a trend with none, with one that does not decode, or with
 * one a trend does not forecast (temperature, pressure, RVR), is not read.
 */
function trendForecast(change: Exclude<MetarTrend['type'], 'NOSIG'>, tokens: readonly string[], raw: string, observedAt: Date): TafForecast | null {
  const start = observedAt.getTime();
  const end = start + TREND_VALID_MIN * 60_000;
  let from = start;
  let to = end;
  let at = 0;
  for (; at < tokens.length; at++) {
    const time = /^(FM|TL|AT)(\d{2})(\d{2})$/.exec(tokens[at]!);
    if (time === null) break;
    const ms = trendTime(Number(time[2]), Number(time[3]), observedAt);
    if (ms === null) return null;
    if (time[1] === 'TL') {
      if (ms > end + TREND_UNTIL_GRACE_MIN * 60_000) return null;
      to = Math.min(ms, end);
    } else if (ms > end) return null;
    else if (time[1] === 'FM') from = ms;
    else if (change === 'BECMG') from = to = ms;
    else return null;
  }
  if (from > to) return null;
  const decoded = decodeSection(tokens.slice(at), { mode: 'taf', lenient: false });
  if (!decoded.ok || decoded.section.group_count === 0) return null;
  const { section } = decoded;
  // A trend forecasts the wind, visibility, weather and cloud only.
  const beyond = section.unparsed_groups.length > 0 || section.missing_groups.length > 0 || section.runway_visual_ranges.length > 0 ||
    section.runway_states.length > 0 || section.recent_weather.length > 0 || section.visibility_minimum !== null ||
    section.temperature_c !== null || section.dewpoint_c !== null || section.altimeter !== null;
  if (beyond) return null;
  return {
    change, probability: null, from: isoSeconds(new Date(from)), to: isoSeconds(new Date(to)),
    ...section.conditions, no_significant_weather: section.no_significant_weather, raw,
  };
}

/** A trend's hhmm as the first such time from the observation on (2400: the next midnight); null when not a time. */
function trendTime(hour: number, minute: number, observedAt: Date): number | null {
  if (hour > 24 || minute > 59 || (hour === 24 && minute !== 0)) return null;
  const sameDay = Date.UTC(observedAt.getUTCFullYear(), observedAt.getUTCMonth(), observedAt.getUTCDate(), hour, minute);
  return sameDay >= observedAt.getTime() ? sameDay : sameDay + 24 * 3_600_000;
}

function fail(code: WeatherErrorCode, group: string | null, why: string): { ok: false; error: WeatherError } {
  return { ok: false, error: weatherError(code, group, why) };
}
