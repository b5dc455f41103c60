// Reports carry only day-of-month, hour and minute; the month and year come from a reference time.

/** A report may be stamped this far ahead of the reference clock and still count as current. */
const FUTURE_SLACK_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Reports are assumed to be at most this old... */
const MAX_AGE_MS = 25 * DAY_MS;
/** ...else this far ahead of a reference clock that is behind (a file's date, a slow clock). */
const MAX_AHEAD_MS = 6 * DAY_MS;

/**
 * The instant with this day-of-month, hour and minute that the report most plausibly means:
 * 1. the one from the last 25 days (up to one hour after `now` counts as now);
 * 2. else the one in the next 6 days (the reference clock is behind the report);
 * 3. else the latest one in the past (a stale report, 25 to ~60 days old).
 * Months without the day (31 April) are skipped. Hour 24 (TAF validity ends) is midnight at
 * the end of that day. Returns null for an impossible day, hour or minute.
 */
export function resolveDayTime(day: number, hour: number, minute: number, now: Date): Date | null {
  if (day < 1 || day > 31 || hour < 0 || hour > 24 || minute < 0 || minute > 59) return null;
  if (hour === 24 && minute !== 0) return null;
  const candidates: number[] = [];
  for (let monthOffset = -2; monthOffset <= 1; monthOffset += 1) {
    const year = now.getUTCFullYear();
    const month = now.getUTCMonth() + monthOffset;
    const dayStart = new Date(Date.UTC(year, month, day));
    // Date.UTC rolls day 31 of a 30-day month into the next month: that month has no such day.
    if (dayStart.getUTCMonth() !== new Date(Date.UTC(year, month, 1)).getUTCMonth()) continue;
    candidates.push(dayStart.getTime() + (hour * 60 + minute) * 60_000);
  }
  const reference = now.getTime();
  const latestCurrent = reference + FUTURE_SLACK_MS;
  const recent = candidates.find((time) => time >= reference - MAX_AGE_MS && time <= latestCurrent);
  const ahead = candidates.find((time) => time > latestCurrent && time <= reference + MAX_AHEAD_MS);
  const stale = candidates.filter((time) => time <= latestCurrent).at(-1);
  const chosen = recent ?? ahead ?? stale;
  return chosen === undefined ? null : new Date(chosen);
}

/** The latest instant at this hour and minute no more than one hour after `now`. */
export function resolveTimeOfDay(hour: number, minute: number, now: Date): Date | null {
  if (hour > 23 || minute > 59) return null;
  const latestCurrent = now.getTime() + FUTURE_SLACK_MS;
  const sameDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour, minute);
  const chosen = [sameDay + DAY_MS, sameDay, sameDay - DAY_MS].find((time) => time <= latestCurrent);
  return chosen === undefined ? null : new Date(chosen);
}

/** The reference time as a valid Date, or null when the caller passed something unusable. */
export function referenceTime(now: Date | undefined): Date | null {
  if (now === undefined) return new Date();
  return now instanceof Date && Number.isFinite(now.getTime()) ? now : null;
}

/** ISO 8601 UTC without the milliseconds reports never have: 2025-01-27T22:25:00Z. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z');
}
