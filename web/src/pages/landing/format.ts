// Ages of the briefing's inputs, and the ETA field: a `datetime-local` input read and written in
// UTC, since aviation works in UTC (times are shown with app/format.ts's formatUtc).

const two = (n: number): string => String(n).padStart(2, '0');

/** "45 s", "28 min", "3 h 5 min", "2 d 4 h". */
export function age(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** The value a `datetime-local` input shows for a UTC instant, read as UTC ("2026-11-21T22:18"). */
export function utcInputValue(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** A `datetime-local` value read as UTC, as ISO 8601 ("2026-11-21T22:18:00Z"); null when it is not one. */
export function utcFromInput(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  const back = new Date(ms);
  // Date.UTC rolls 31 Feb over into March: refuse what is not a real date.
  if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d)) return null;
  return `${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}Z`;
}
