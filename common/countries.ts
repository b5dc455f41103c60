// ISO 3166-1 alpha-2 country codes, checked against the region names the runtime's ICU data
// (CLDR) knows: a code is a country when it has a name. CLDR also names codes ISO keeps out of
// the list of countries, which are refused here by ISO's own rules: the user-assigned ranges
// (AA, QM–QZ, XA–XZ, ZZ), the exceptionally reserved codes (EU, UN, UK, AC, ...) and codes
// withdrawn from the standard (YU, CS, AN, ...).

const USER_ASSIGNED = /^(?:AA|Q[M-Z]|X[A-Z]|ZZ)$/;
const EXCEPTIONALLY_RESERVED = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'FX', 'IC', 'SU', 'TA', 'UK', 'UN']);
const WITHDRAWN = new Set(['AN', 'BU', 'CS', 'DD', 'DY', 'HV', 'NH', 'RH', 'TP', 'VD', 'YD', 'YU', 'ZR']);

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** The country's English name for an upper-case ISO 3166-1 alpha-2 code, or null. */
export function countryName(code: string): string | null {
  if (!/^[A-Z]{2}$/.test(code) || USER_ASSIGNED.test(code) || EXCEPTIONALLY_RESERVED.has(code) || WITHDRAWN.has(code)) return null;
  return regionNames.of(code) ?? null;
}
