// METARs for tests that push them as an operator: a report for EGLL observed a few minutes ago,
// with the wind group a test needs.

/** A METAR observed `minutesAgo` before now, in EGLL's form, e.g. `egllMetar('27015G25KT', 5)`. */
export function egllMetar(wind: string, minutesAgo: number): string {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  const stamp = [at.getUTCDate(), at.getUTCHours(), at.getUTCMinutes()].map((n) => String(n).padStart(2, '0')).join('');
  return `EGLL ${stamp}Z ${wind} 9999 FEW030 12/05 Q1013`;
}
