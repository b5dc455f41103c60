// When a NOTAM is in force: its B)–C) validity, narrowed by the item D) schedule.
//
// Understood schedules (UTC, groups separated by commas or just written one after another):
//   H24                              DAILY 0600-1800 / DLY 0600-1800 / 0700-1700
//   MON-FRI 0800-1600, SAT 0900-1200 DAILY EXC SAT SUN 0800-1600
//   SR-SS, SS-SR, SR MINUS30-SS PLUS30, HJ (= SR-SS), HN (= SS-SR), SR-1800
//   JAN 02 05 0800-1200              OCT 03-28 1200-2259, OCT 29-NOV 07 1300-2359
//   02-05 09-13 2130-0330, 06 27 2130-0430   (days of the month B) starts in; see below)
//   15 1200-1500 1730-2030           (several periods a day)
// A period whose end is not after its start runs past midnight (2130-0330 ends the next day).
// Days written without a month take the month of B), moving to the next month when that would put
// them before B); an explicit month carries on to the days after it. Anything else is
// "unparsed": the NOTAM then counts as active throughout B)–C) and the parser flags
// `schedule_unparsed`.
//
// Sunrise and sunset come from an injected SunTimesProvider, by default the NOAA approximation in
// sun.ts, at `options.position` or else the Q-line centre. Where they cannot be had (no position,
// as for FAA NOTAMs, or a polar day/night) a period using SR or SS covers the whole UTC day, so the
// NOTAM is shown rather than hidden.

import { approximateSunTimes } from './sun.ts';
import type { SunTimesProvider } from './sun.ts';
import { MS_PER_DAY, MS_PER_MINUTE, toIsoUtc } from './time.ts';
import type { LatLon, Notam } from './types.ts';

export type TimeOfDay = { kind: 'clock'; minutes: number } | { kind: 'sunrise' | 'sunset'; offset_minutes: number };

export interface DailyPeriod {
  start: TimeOfDay;
  end: TimeOfDay;
}

export type DaySelection =
  | { kind: 'every_day' }
  /** Days of the week, 0 = Sunday … 6 = Saturday. */
  | { kind: 'weekdays'; days: number[] }
  /** Calendar days, "YYYY-MM-DD". */
  | { kind: 'dates'; dates: string[] };

export interface ScheduleRule {
  days: DaySelection;
  periods: DailyPeriod[];
}

export interface Schedule {
  rules: ScheduleRule[];
}

export type ScheduleParse = { ok: true; schedule: Schedule } | { ok: false; reason: string };

export interface ActivityOptions {
  /** Sunrise/sunset source for SR/SS; defaults to `approximateSunTimes`. */
  sunTimes?: SunTimesProvider;
  /** Where SR/SS are taken; defaults to the NOTAM's Q-line centre. */
  position?: LatLon;
}

export interface ActiveInterval {
  start: string;
  end: string;
}

export type ScheduleInput = Pick<Notam, 'type' | 'start_time' | 'end_time' | 'schedule' | 'center'>;

/** Instants accepted by the activity functions: a Date, an ISO string or epoch milliseconds. */
export type Instant = Date | string | number;

const WEEKDAYS: Readonly<Record<string, number>> = { SUN: 0, MON: 1, TUE: 2, WED: 3, THU: 4, FRI: 5, SAT: 6 };
const MONTHS: Readonly<Record<string, number>> = {
  JAN: 0, FEB: 1, MAR: 2, APR: 3, MAY: 4, JUN: 5, JUL: 6, AUG: 7, SEP: 8, OCT: 9, NOV: 10, DEC: 11,
};
const FULL_DAY: DailyPeriod = { start: { kind: 'clock', minutes: 0 }, end: { kind: 'clock', minutes: 1440 } };
const DAYLIGHT: DailyPeriod = { start: { kind: 'sunrise', offset_minutes: 0 }, end: { kind: 'sunset', offset_minutes: 0 } };
const NIGHT: DailyPeriod = { start: { kind: 'sunset', offset_minutes: 0 }, end: { kind: 'sunrise', offset_minutes: 0 } };
/** A date range longer than this is not a NOTAM schedule. */
const MAX_RANGE_DAYS = 366;
/** activeIntervals looks at most this far past `from`. */
const MAX_WINDOW_DAYS = 3660;

type Token = { kind: 'number' | 'word'; text: string } | { kind: 'dash' } | { kind: 'separator' };

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  for (const match of text.toUpperCase().matchAll(/(\d+)|(H24|[A-Z]+)|(-)|([,;.])|(\S)/g)) {
    if (match[1] !== undefined) tokens.push({ kind: 'number', text: match[1] });
    else if (match[2] !== undefined) tokens.push({ kind: 'word', text: match[2] });
    else if (match[3] !== undefined) tokens.push({ kind: 'dash' });
    else if (match[4] !== undefined) tokens.push({ kind: 'separator' });
    else return null;
  }
  return tokens;
}

class ScheduleSyntaxError extends Error {}

/**
 * Reads an item D) schedule. `reference` (the start of validity) anchors day lists without a
 * month or year; without it such lists are unparsed.
 */
export function parseSchedule(text: string, reference: Date | null): ScheduleParse {
  const tokens = tokenize(text);
  if (tokens === null) return { ok: false, reason: 'unexpected character' };
  try {
    return { ok: true, schedule: new ScheduleReader(tokens, reference).read() };
  } catch (error) {
    if (error instanceof ScheduleSyntaxError) return { ok: false, reason: error.message };
    throw error;
  }
}

type PendingDays = { kind: 'every_day' } | { kind: 'weekdays'; days: Set<number> } | { kind: 'dates'; days: Set<number> };

/** Recursive-descent reader over the tokens; throws ScheduleSyntaxError, caught by parseSchedule. */
class ScheduleReader {
  private position = 0;
  private readonly tokens: Token[];
  private readonly referenceDay: number | null;
  private month: { year: number; month: number } | null;
  private explicitMonth = false;

  constructor(tokens: Token[], reference: Date | null) {
    this.tokens = tokens;
    const referenceMs = reference?.getTime() ?? Number.NaN;
    this.referenceDay = Number.isFinite(referenceMs) ? Math.floor(referenceMs / MS_PER_DAY) : null;
    this.month = this.referenceDay === null ? null : yearMonthOf(this.referenceDay);
  }

  read(): Schedule {
    const rules: ScheduleRule[] = [];
    let pending: PendingDays | null = null;
    while (this.position < this.tokens.length) {
      const token = this.tokens[this.position]!;
      if (token.kind === 'separator' || isWord(token, 'AND')) {
        this.position++;
      } else if (this.atPeriodStart()) {
        rules.push({ days: toSelection(pending), periods: this.readPeriods() });
        pending = null;
      } else if (isWord(token, 'DAILY') || isWord(token, 'DLY')) {
        this.position++;
        pending = mergeDays(pending, { kind: 'every_day' });
      } else if (isWord(token, 'EXC')) {
        this.position++;
        pending = excludeWeekdays(pending, this.readWeekdays());
      } else if (token.kind === 'word' && WEEKDAYS[token.text] !== undefined) {
        pending = mergeDays(pending, { kind: 'weekdays', days: this.readWeekdays() });
      } else if ((token.kind === 'word' && MONTHS[token.text] !== undefined) || (token.kind === 'number' && token.text.length <= 2)) {
        pending = mergeDays(pending, { kind: 'dates', days: this.readDates() });
      } else {
        throw new ScheduleSyntaxError(`unexpected "${describe(token)}"`);
      }
    }
    if (pending !== null) throw new ScheduleSyntaxError('days given without hours');
    if (rules.length === 0) throw new ScheduleSyntaxError('no hours');
    return { rules };
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }

  private atPeriodStart(): boolean {
    const token = this.peek();
    if (token === undefined) return false;
    if (token.kind === 'number') return token.text.length === 4;
    return token.kind === 'word' && ['SR', 'SS', 'H24', 'HJ', 'HN'].includes(token.text);
  }

  private readPeriods(): DailyPeriod[] {
    const periods: DailyPeriod[] = [];
    while (this.atPeriodStart()) {
      const token = this.peek()!;
      if (isWord(token, 'H24') || isWord(token, 'HJ') || isWord(token, 'HN')) {
        this.position++;
        periods.push(isWord(token, 'H24') ? FULL_DAY : isWord(token, 'HJ') ? DAYLIGHT : NIGHT);
        continue;
      }
      const start = this.readTimeOfDay();
      if (this.peek()?.kind !== 'dash') throw new ScheduleSyntaxError('expected "-" between the start and end of a period');
      this.position++;
      const end = this.readTimeOfDay();
      periods.push({ start, end });
    }
    return periods;
  }

  private readTimeOfDay(): TimeOfDay {
    const token = this.peek();
    if (token?.kind === 'number' && token.text.length === 4) {
      this.position++;
      const hours = Number(token.text.slice(0, 2));
      const minutes = Number(token.text.slice(2));
      if (minutes > 59 || hours * 60 + minutes > 1440) throw new ScheduleSyntaxError(`"${token.text}" is not a time of day`);
      return { kind: 'clock', minutes: hours * 60 + minutes };
    }
    if (token !== undefined && (isWord(token, 'SR') || isWord(token, 'SS'))) {
      this.position++;
      let offset = 0;
      const sign = this.peek();
      if (sign !== undefined && (isWord(sign, 'PLUS') || isWord(sign, 'MINUS'))) {
        const amount = this.peek(1);
        if (amount?.kind !== 'number' || amount.text.length > 3) throw new ScheduleSyntaxError('expected minutes after PLUS/MINUS');
        offset = (isWord(sign, 'PLUS') ? 1 : -1) * Number(amount.text);
        this.position += 2;
      }
      return { kind: isWord(token, 'SR') ? 'sunrise' : 'sunset', offset_minutes: offset };
    }
    throw new ScheduleSyntaxError(`expected a time, got "${token === undefined ? 'end' : describe(token)}"`);
  }

  /** MON, MON-FRI, FRI-MON (wrapping), repeated: "MON WED-FRI". */
  private readWeekdays(): Set<number> {
    const days = new Set<number>();
    for (let token = this.peek(); token?.kind === 'word' && WEEKDAYS[token.text] !== undefined; token = this.peek()) {
      const first = WEEKDAYS[token.text]!;
      this.position++;
      let last = first;
      const after = this.peek(1);
      if (this.peek()?.kind === 'dash' && after?.kind === 'word' && WEEKDAYS[after.text] !== undefined) {
        last = WEEKDAYS[after.text]!;
        this.position += 2;
      }
      for (let day = first; ; day = (day + 1) % 7) {
        days.add(day);
        if (day === last) break;
      }
    }
    if (days.size === 0) throw new ScheduleSyntaxError('expected a day of the week');
    return days;
  }

  /** One day or day range, optionally preceded by a month: "05", "02-05", "OCT 29-NOV 07". */
  private readDates(): Set<number> {
    const first = this.readDay();
    const days = new Set<number>([first]);
    if (this.peek()?.kind === 'dash' && this.startsDay(1)) {
      this.position++;
      let last = this.readDay();
      // "30-02": the range runs into the next month.
      if (last < first && !this.explicitMonth) last = this.shiftMonth(last);
      if (last < first || last - first > MAX_RANGE_DAYS) throw new ScheduleSyntaxError('date range runs backwards or is too long');
      for (let day = first + 1; day <= last; day++) days.add(day);
    }
    return days;
  }

  private startsDay(offset: number): boolean {
    const token = this.peek(offset);
    return (token?.kind === 'word' && MONTHS[token.text] !== undefined) || (token?.kind === 'number' && token.text.length <= 2);
  }

  /** [MONTH] DD as an epoch day number. */
  private readDay(): number {
    if (this.month === null || this.referenceDay === null) throw new ScheduleSyntaxError('day lists need the start of validity');
    let token = this.peek();
    if (token?.kind === 'word' && MONTHS[token.text] !== undefined) {
      const reference = yearMonthOf(this.referenceDay);
      const month = MONTHS[token.text]!;
      // A month earlier in the year than B) belongs to the following year (DEC 30 31 JAN 02).
      this.month = { year: month < reference.month ? reference.year + 1 : reference.year, month };
      this.explicitMonth = true;
      this.position++;
      token = this.peek();
    }
    if (token?.kind !== 'number' || token.text.length > 2) throw new ScheduleSyntaxError('expected a day of the month');
    this.position++;
    const dayOfMonth = Number(token.text);
    let day = epochDay(this.month.year, this.month.month, dayOfMonth);
    if (day === null) throw new ScheduleSyntaxError(`day ${token.text} does not exist in that month`);
    if (!this.explicitMonth && day < this.referenceDay) day = this.shiftMonth(day);
    return day;
  }

  /** The same day of the month, one month later. */
  private shiftMonth(day: number): number {
    const { year, month } = yearMonthOf(day);
    const dayOfMonth = new Date(day * MS_PER_DAY).getUTCDate();
    const shifted = epochDay(month === 11 ? year + 1 : year, (month + 1) % 12, dayOfMonth);
    if (shifted === null) throw new ScheduleSyntaxError(`day ${dayOfMonth} does not exist in the following month`);
    return shifted;
  }
}

function isWord(token: Token, word: string): boolean {
  return token.kind === 'word' && token.text === word;
}

function describe(token: Token): string {
  return token.kind === 'dash' ? '-' : token.kind === 'separator' ? ',' : token.text;
}

function yearMonthOf(day: number): { year: number; month: number } {
  const date = new Date(day * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() };
}

function epochDay(year: number, month: number, dayOfMonth: number): number | null {
  const ms = Date.UTC(year, month, dayOfMonth);
  if (dayOfMonth < 1 || new Date(ms).getUTCDate() !== dayOfMonth) return null;
  return ms / MS_PER_DAY;
}

function mergeDays(pending: PendingDays | null, next: PendingDays): PendingDays {
  if (pending === null || pending.kind === 'every_day') return next;
  if (next.kind === 'every_day') return pending;
  if (pending.kind !== next.kind) throw new ScheduleSyntaxError('weekdays and dates mixed in one group');
  return { kind: pending.kind, days: new Set([...pending.days, ...next.days]) };
}

function excludeWeekdays(pending: PendingDays | null, excluded: Set<number>): PendingDays {
  if (pending?.kind === 'dates') throw new ScheduleSyntaxError('EXC after dates');
  const base = pending?.kind === 'weekdays' ? pending.days : new Set([0, 1, 2, 3, 4, 5, 6]);
  return { kind: 'weekdays', days: new Set([...base].filter((day) => !excluded.has(day))) };
}

function toSelection(pending: PendingDays | null): DaySelection {
  if (pending === null || pending.kind === 'every_day') return { kind: 'every_day' };
  const sorted = [...pending.days].sort((a, b) => a - b);
  if (pending.kind === 'weekdays') return { kind: 'weekdays', days: sorted };
  return { kind: 'dates', dates: sorted.map((day) => toIsoUtc(day * MS_PER_DAY).slice(0, 10)) };
}

/** Day lists without a month or year ("02-05 2130-0330") are read relative to the start of validity. */
export function scheduleReference(notam: Pick<Notam, 'start_time'>): Date | null {
  return notam.start_time === null ? null : new Date(notam.start_time);
}

function toMs(instant: Instant): number {
  return instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
}

/**
 * The stretches of [from, to) during which the NOTAM is in force, merged and in order. A
 * cancellation (NOTAMC) is never in force; PERM or a missing C) leaves the end open; an EST end is
 * still the end. Windows longer than ten years are cut to ten years.
 */
export function activeIntervals(notam: ScheduleInput, from: Instant, to: Instant, options: ActivityOptions = {}): ActiveInterval[] {
  const intervals: ActiveInterval[] = [];
  for (const [start, end] of mergedIntervals(notam, toMs(from), toMs(to), options)) {
    intervals.push({ start: toIsoUtc(start), end: toIsoUtc(end) });
  }
  return intervals;
}

/** Whether the NOTAM is in force at `time`. Invalid times give false. */
export function isActiveAt(notam: ScheduleInput, time: Instant, options: ActivityOptions = {}): boolean {
  const ms = toMs(time);
  return !mergedIntervals(notam, ms, ms + 1, options).next().done;
}

/** Whether the NOTAM is in force at any moment of [from, to). */
export function activeInWindow(notam: ScheduleInput, from: Instant, to: Instant, options: ActivityOptions = {}): boolean {
  return !mergedIntervals(notam, toMs(from), toMs(to), options).next().done;
}

type Span = [start: number, end: number];

/** Yields merged spans in time order, lazily, so existence checks stop at the first one. */
function* mergedIntervals(notam: ScheduleInput, fromMs: number, toMs: number, options: ActivityOptions): Generator<Span> {
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || notam.type === 'CANCEL') return;
  const validFrom = Math.max(fromMs, notam.start_time === null ? -Infinity : Date.parse(notam.start_time));
  const validTo = Math.min(toMs, fromMs + MAX_WINDOW_DAYS * MS_PER_DAY, notam.end_time === null ? Infinity : Date.parse(notam.end_time));
  if (!(validTo > validFrom)) return;
  const parsed = notam.schedule === null ? null : parseSchedule(notam.schedule, scheduleReference(notam));
  if (parsed === null || !parsed.ok) {
    yield [validFrom, validTo];
    return;
  }
  let current: Span | null = null;
  for (const span of scheduledSpans(parsed.schedule, validFrom, validTo, sunLookup(notam, options))) {
    if (current !== null && span[0] <= current[1] && span[1] >= current[0]) {
      current[0] = Math.min(current[0], span[0]);
      current[1] = Math.max(current[1], span[1]);
      continue;
    }
    if (current !== null) yield current;
    current = span;
  }
  if (current !== null) yield current;
}

type SunLookup = (day: number) => { sunrise: number; sunset: number } | null;

function sunLookup(notam: ScheduleInput, options: ActivityOptions): SunLookup {
  const position = options.position ?? notam.center;
  const provider = options.sunTimes ?? approximateSunTimes;
  const cache = new Map<number, { sunrise: number; sunset: number } | null>();
  return (day) => {
    if (position === null) return null;
    if (!cache.has(day)) {
      const times = provider(new Date(day * MS_PER_DAY), position);
      cache.set(day, times === null ? null : { sunrise: times.sunrise.getTime(), sunset: times.sunset.getTime() });
    }
    return cache.get(day)!;
  };
}

/** Clipped spans day by day, sorted by start (periods from the previous day come first). */
function* scheduledSpans(schedule: Schedule, validFrom: number, validTo: number, sun: SunLookup): Generator<Span> {
  const dateSets = schedule.rules.map((rule) =>
    rule.days.kind === 'dates' ? new Set(rule.days.dates.map((date) => Date.parse(date) / MS_PER_DAY)) : null,
  );
  let firstDay = Math.floor(validFrom / MS_PER_DAY) - 1;
  let lastDay = Math.floor((validTo - 1) / MS_PER_DAY);
  // Date-only schedules: skip the days before the first and after the last listed date.
  if (dateSets.every((set) => set !== null)) {
    const all = dateSets.flatMap((set) => [...set!]);
    firstDay = Math.max(firstDay, Math.min(...all));
    lastDay = Math.min(lastDay, Math.max(...all));
  }
  for (let day = firstDay; day <= lastDay; day++) {
    const spans: Span[] = [];
    schedule.rules.forEach((rule, index) => {
      if (!selects(rule.days, dateSets[index]!, day)) return;
      for (const period of rule.periods) {
        const span = periodSpan(day, period, sun);
        if (span === null) continue;
        const start = Math.max(span[0], validFrom);
        const end = Math.min(span[1], validTo);
        if (end > start) spans.push([start, end]);
      }
    });
    spans.sort((a, b) => a[0] - b[0]);
    yield* spans;
  }
}

function selects(days: DaySelection, dates: Set<number> | null, day: number): boolean {
  if (days.kind === 'every_day') return true;
  if (days.kind === 'weekdays') return days.days.includes(new Date(day * MS_PER_DAY).getUTCDay());
  return dates!.has(day);
}

/** The instants a period starting on `day` covers; the whole day when SR/SS are unknown. */
function periodSpan(day: number, period: DailyPeriod, sun: SunLookup): Span | null {
  const start = instantOf(day, period.start, sun);
  let end = instantOf(day, period.end, sun);
  if (start === null || end === null) return [day * MS_PER_DAY, (day + 1) * MS_PER_DAY];
  if (end <= start) end = instantOf(day + 1, period.end, sun);
  if (end === null) return [day * MS_PER_DAY, (day + 1) * MS_PER_DAY];
  return end > start ? [start, end] : null;
}

function instantOf(day: number, time: TimeOfDay, sun: SunLookup): number | null {
  if (time.kind === 'clock') return day * MS_PER_DAY + time.minutes * MS_PER_MINUTE;
  const times = sun(day);
  if (times === null) return null;
  return (time.kind === 'sunrise' ? times.sunrise : times.sunset) + time.offset_minutes * MS_PER_MINUTE;
}
