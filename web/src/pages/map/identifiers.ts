// Reading the map's "MMSI or IMO" and flag fields. Numbers can be mixed, separated by commas or
// spaces: 9 digits are an MMSI, 7 digits with a valid IMO check digit an IMO number; "IMO" or
// "MMSI" before a number says which it is.

export interface Identifiers {
  mmsi: number[];
  imo: number[];
  /** Tokens that are neither, with why. */
  errors: string[];
}

/** IMO ship numbers: the seventh digit is the sum of the first six times 7, 6, 5, 4, 3, 2, mod 10. */
export function isValidImo(imo: number): boolean {
  if (!Number.isInteger(imo) || imo < 1_000_000 || imo > 9_999_999) return false;
  const digits = String(imo).split('').map(Number);
  const sum = digits.slice(0, 6).reduce((total, digit, index) => total + digit * (7 - index), 0);
  return sum % 10 === digits[6];
}

export function parseIdentifiers(text: string): Identifiers {
  const result: Identifiers = { mmsi: [], imo: [], errors: [] };
  const tokens = text.toUpperCase().replace(/(IMO|MMSI)[\s:]*(?=\d)/g, '$1').split(/[\s,;]+/).filter(Boolean);
  for (const token of tokens) {
    const match = /^(IMO|MMSI)?(\d+)$/.exec(token);
    if (!match) {
      result.errors.push(`"${token}" is not a number`);
      continue;
    }
    const [, kind, digits] = match;
    const value = Number(digits);
    if (kind === 'IMO' || (!kind && digits!.length === 7 && isValidImo(value))) {
      if (isValidImo(value)) result.imo.push(value);
      else result.errors.push(`${digits} is not an IMO number (7 digits with a valid check digit)`);
    } else if (value >= 1 && value <= 999_999_999 && (kind === 'MMSI' || digits!.length === 9)) {
      result.mmsi.push(value);
    } else {
      result.errors.push(`${digits} is neither an MMSI (9 digits) nor an IMO number (7 digits)`);
    }
  }
  result.mmsi = [...new Set(result.mmsi)];
  result.imo = [...new Set(result.imo)];
  return result;
}

/** ISO 3166-1 alpha-2 codes, upper case; anything else is reported. */
export function parseFlags(text: string): { flags: string[]; errors: string[] } {
  const flags: string[] = [];
  const errors: string[] = [];
  for (const token of text.toUpperCase().split(/[\s,;]+/).filter(Boolean)) {
    if (/^[A-Z]{2}$/.test(token)) flags.push(token);
    else errors.push(`"${token}" is not a two-letter country code`);
  }
  return { flags: [...new Set(flags)], errors };
}
