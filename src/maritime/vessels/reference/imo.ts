// IMO ship identification numbers: seven digits, the last a check digit. The first six digits are
// weighted 7,6,5,4,3,2 from the left and the sum's last digit must equal the seventh digit.

const WEIGHTS = [7, 6, 5, 4, 3, 2] as const;

/** The check digit for six leading digits given as an integer 0..999999 (zero-padded). */
export function imoCheckDigit(first6: number): number {
  if (!Number.isInteger(first6) || first6 < 0 || first6 > 999_999) {
    throw new RangeError(`IMO prefix must be an integer 0..999999, got ${first6}`);
  }
  let sum = 0;
  let rest = first6;
  // Walk from the rightmost digit, whose weight is 2, leftwards.
  for (let i = WEIGHTS.length - 1; i >= 0; i--) {
    sum += (rest % 10) * WEIGHTS[i]!;
    rest = Math.floor(rest / 10);
  }
  return sum % 10;
}

/** The full seven-digit IMO number for six leading digits 100000..999999 (for simulators). */
export function imoFromPrefix(first6: number): number {
  if (!Number.isInteger(first6) || first6 < 100_000 || first6 > 999_999) {
    throw new RangeError(`IMO prefix must be an integer 100000..999999, got ${first6}`);
  }
  return first6 * 10 + imoCheckDigit(first6);
}

/**
 * True for a seven-digit IMO number with a correct check digit: an integer 1000000..9999999, or
 * the same as text, optionally written "IMO 9074729". AIS sends 0 for "not available": invalid.
 */
export function isValidImo(value: unknown): boolean {
  let n: number;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'string') {
    const match = /^\s*(?:IMO\s*)?([1-9]\d{6})\s*$/i.exec(value);
    if (!match) return false;
    n = Number(match[1]);
  } else {
    return false;
  }
  if (!Number.isInteger(n) || n < 1_000_000 || n > 9_999_999) return false;
  return imoCheckDigit(Math.floor(n / 10)) === n % 10;
}
