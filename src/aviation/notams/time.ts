// Date-time groups as NOTAMs write them (YYMMDDHHMM, UTC) and the ISO strings the API returns.

export const MS_PER_MINUTE = 60_000;
export const MS_PER_DAY = 86_400_000;

/** "2306281216" → epoch milliseconds of 2023-06-28 12:16 UTC; null for anything that is not a real time. */
export function parseDateTimeGroup(group: string): number | null {
  const match = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(group);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null;
  const ms = Date.UTC(2000 + year, month - 1, day, hour, minute);
  // Date.UTC rolls 31 April over to 1 May: a round trip catches days the month does not have.
  if (new Date(ms).getUTCDate() !== day) return null;
  return ms;
}

/** Epoch milliseconds → "2023-06-28T12:16:00Z" (no fractional seconds). */
export function toIsoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
