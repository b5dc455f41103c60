// Codes and names every port source shares: ISO 3166-1 alpha-2 countries (from the English region
// names Node's ICU data carries, plus the WPI's own spellings ICU does not use) and UN/LOCODEs.
import { fold, words } from '../../platform/text.ts';

/** WPI country names that differ from ICU's English names by more than punctuation and "St."/"The". */
const WPI_COUNTRY_NAMES: Readonly<Record<string, string>> = {
  'burma': 'MM',
  'cabo verde': 'CV',
  'falkland islands islas malvinas': 'FK',
  'federated states of micronesia': 'FM',
  'hong kong': 'HK',
  'johnson atoll': 'UM',
  'macau': 'MO',
  'midway islands': 'UM',
  'saint vincent and the grenadines windward islands': 'VC',
  'saint helena ascension and tristan da cunha': 'SH',
  'svalbard': 'SJ',
  'turkey': 'TR',
  'wake island': 'UM',
};

/** Codes ICU names that are not ISO 3166-1 countries (unions, pseudo-regions, reserved codes). */
const NOT_COUNTRIES = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'XA', 'XB', 'ZZ']);

let regionNames: ReadonlyMap<string, string> | undefined;

/** Folded English region name → alpha-2, for every current two-letter country code ICU names. */
function regionsByName(): ReadonlyMap<string, string> {
  if (regionNames !== undefined) return regionNames;
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const byName = new Map<string, string>();
  for (let first = 65; first <= 90; first++) {
    for (let second = 65; second <= 90; second++) {
      const code = String.fromCharCode(first, second);
      // Withdrawn codes ICU still names ("UK", "SU", "BU") canonicalise to their successors.
      const current = Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;
      const name = display.of(code);
      if (current && !NOT_COUNTRIES.has(code) && name !== undefined && name !== code) byName.set(countryKey(name), code);
    }
  }
  for (const [name, code] of Object.entries(WPI_COUNTRY_NAMES)) byName.set(name, code);
  regionNames = byName;
  return byName;
}

let regionCodes: ReadonlySet<string> | undefined;

/** Whether `code` is a two-letter region code ICU knows ("NL", "XK"). */
export function isCountryCode(code: string): boolean {
  regionCodes ??= new Set(regionsByName().values());
  return regionCodes.has(code);
}

/** The alpha-2 code of an English country name ("The Bahamas", "Cote D'Ivoire"); null if unknown. */
export function countryCode(name: string): string | null {
  return regionsByName().get(countryKey(name)) ?? null;
}

function countryKey(name: string): string {
  return words(fold(name).replace(/&/g, ' and '))
    .replace(/^the /, '')
    .replace(/\bst\b/g, 'saint');
}

/** "NL RTM", " nlrtm" → "NLRTM"; null unless two letters of a known country and three of [A-Z2-9]. */
export function normaliseUnlocode(text: string): string | null {
  const code = text.replace(/\s+/g, '').toUpperCase();
  return /^[A-Z]{2}[A-Z2-9]{3}$/.test(code) && isCountryCode(code.slice(0, 2)) ? code : null;
}
