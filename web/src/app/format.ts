// How times and numbers read on the dashboard: UTC is named wherever a time is operational, and
// people's own times (sign-ins, key use) read in the browser's time zone.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const number = new Intl.NumberFormat();
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** `12 Mar 2026, 14:20` in the browser's time zone; `–` for none. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '–';
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? dateOnly.format(new Date(iso)) : '–';
}

/** `14:20Z`-style UTC time with the date: `2026-03-12 14:20 UTC`. */
export function formatUtc(iso: string | null | undefined): string {
  return iso ? `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '–';
}

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : number.format(value);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['week', 7 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/** `5 minutes ago`, `in 2 hours`, `now`; `never` for none. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

/** A message from the API as a sentence: its first letter in capitals. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
