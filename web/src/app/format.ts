// How times and numbers read on the dashboard. Every time reads one way: UTC, 24 hours, labelled
// (`26 Nov 2026 14:20 UTC`), through formatUtc; a port's own time may follow, labelled with its zone.
const number = new Intl.NumberFormat();
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export interface TimeFormat {
  /** `datetime` (default) `26 Nov 2026 14:20 UTC`; `time` `14:20 UTC`; `date` `26 Nov 2026`. */
  show?: 'datetime' | 'time' | 'date';
  /** Leave out the year where the dates are days apart (tides, arrivals): `26 Nov 14:20 UTC`. */
  year?: boolean;
  /** An IANA zone to read the time in, named by its abbreviation: `26 Nov 15:20 CET`. */
  zone?: string | null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
      timeZone: zone, timeZoneName: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The one time formatter: `26 Nov 2026 14:20 UTC` (see TimeFormat); `–` for none. An unknown zone reads as UTC. */
export function formatUtc(iso: string | null | undefined, { show = 'datetime', year = true, zone }: TimeFormat = {}): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '–';
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = partsIn(zone || 'UTC');
  } catch {
    formatter = partsIn('UTC');
  }
  const part = Object.fromEntries(formatter.formatToParts(date).map(({ type, value }) => [type, value]));
  const day = year ? `${part.day} ${part.month} ${part.year}` : `${part.day} ${part.month}`;
  const label = formatter.resolvedOptions().timeZone === 'UTC' ? 'UTC' : part.timeZoneName;
  const time = `${part.hour}:${part.minute} ${label}`;
  return show === 'date' ? day : show === 'time' ? time : `${day} ${time}`;
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
