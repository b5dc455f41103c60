// Comparing the name in an MRZ with the full name on the account. The MRZ holds the primary
// identifier (surname), `<<`, then the secondary identifiers (given names), each name part
// separated by `<`, in A-Z only, cut at the end of the field when too long (ICAO 9303 part 3).
// An account holds one free-text full name, in any order, with diacritics and punctuation.

export type NameMatchLevel = 'exact' | 'close' | 'different' | 'not_comparable';

export interface NameMatch {
  level: NameMatchLevel;
  /** Why, in a sentence, for the reasons list. */
  detail: string;
}

export interface MrzName {
  surnames: string[];
  givenNames: string[];
  /** The field is full (its last character is not `<`), so its last name part may be cut short. */
  truncated: boolean;
}

/** The name parts of a raw MRZ name field, e.g. `DE<BRUIJN<<WILLEKE<LISELOTTE<<<<`. */
export function splitMrzName(field: string): MrzName {
  const separator = field.indexOf('<<');
  const primary = separator === -1 ? field : field.slice(0, separator);
  const secondary = separator === -1 ? '' : field.slice(separator + 2);
  const parts = (text: string) => text.split('<').filter((part) => part !== '');
  return { surnames: parts(primary), givenNames: parts(secondary), truncated: !field.endsWith('<') };
}

/**
 * Letters the ICAO 9303 transliteration table writes as several A-Z letters; accents on other
 * Latin letters are dropped. Ä, Ö, Ü and Å may be written either way (AE or A), so both spellings
 * of a name are tried.
 */
const LIGATURES: Readonly<Record<string, string>> = {
  ß: 'SS', ẞ: 'SS', Æ: 'AE', Œ: 'OE', Ø: 'OE', Þ: 'TH', Ð: 'D', Đ: 'D', Ł: 'L', Ħ: 'H', Ŧ: 'T', Ŋ: 'N', Ĳ: 'IJ',
};
const EXPANDED_UMLAUTS: Readonly<Record<string, string>> = { Ä: 'AE', Ö: 'OE', Ü: 'UE', Å: 'AA' };

function transliterate(name: string, expandUmlauts: boolean): string {
  let out = '';
  for (const char of name.toLocaleUpperCase('en-US')) {
    const expanded = (expandUmlauts ? EXPANDED_UMLAUTS[char] : undefined) ?? LIGATURES[char];
    out += expanded ?? char.normalize('NFD').replace(/\p{M}/gu, '');
  }
  return out;
}

/**
 * The name parts of an account's full name, each with its one or two ICAO spellings: apostrophes
 * dropped (O'Brien → OBRIEN, as in passports), every other character outside A-Z separates parts
 * (hyphens, commas, dots, spaces), as `<` does in the MRZ.
 */
export function accountNameParts(fullName: string): string[][] {
  const spell = (expand: boolean) =>
    transliterate(fullName.replace(/['’ʼ`]/g, ''), expand)
      .split(/[^A-Z]+/)
      .filter((part) => part !== '');
  const plain = spell(false);
  const expanded = spell(true);
  // Both spellings split into the same parts: only letters change, never separators.
  return plain.map((part, i) => (expanded[i] === part ? [part] : [part, expanded[i]!]));
}

/** Optimal string alignment distance, capped: only "0, 1 or more" matters here. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let row2: number[] = [];
  let row1 = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(row1[j]! + 1, row[j - 1]! + 1, row1[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, row2[j - 2]! + 1);
      row.push(best);
    }
    row2 = row1;
    row1 = row;
  }
  return row1[b.length]! <= 1;
}

function same(part: string[], mrzPart: string, mayBeCut: boolean): boolean {
  return part.some((spelling) => spelling === mrzPart || (mayBeCut && spelling.startsWith(mrzPart)));
}

/**
 * Exact: the account's parts, in the order given names then surnames or surnames then given names,
 * are the MRZ's parts. When the field is full, its last part may be the start of the account's,
 * and the account may have given names after it that did not fit.
 */
function exactMatch(mrz: MrzName, account: string[][]): boolean {
  const fieldOrder = [...mrz.surnames, ...mrz.givenNames];
  const lastIndex = fieldOrder.length - 1;
  const matches = (surnames: string[][], givenNames: string[][]): boolean => {
    const accountInFieldOrder = [...surnames, ...givenNames];
    if (accountInFieldOrder.length < fieldOrder.length) return false;
    if (accountInFieldOrder.length > fieldOrder.length && !(mrz.truncated && mrz.givenNames.length > 0)) return false;
    if (surnames.length !== mrz.surnames.length) return false;
    return fieldOrder.every((mrzPart, i) => same(accountInFieldOrder[i]!, mrzPart, mrz.truncated && i === lastIndex));
  };
  for (let split = 1; split <= account.length; split++) {
    // Given names first ("Anna Maria Eriksson"), or surnames first ("Eriksson Anna Maria").
    if (matches(account.slice(account.length - split), account.slice(0, account.length - split))) return true;
    if (matches(account.slice(0, split), account.slice(split))) return true;
  }
  return false;
}

/**
 * Close: the same person is likely but a human should look. Parts are paired regardless of order:
 * equal parts first, then initials with the parts they start ("A." and ANNA), then at most one
 * pair one letter apart (a typo or a transposition; four letters or more). Close when at least one
 * surname and, if the MRZ has given names, at least one given name are paired, and the parts left
 * over are all on one side: names missing, not names differing.
 */
function closeMatch(mrz: MrzName, account: string[][]): string | null {
  const fieldOrder = [...mrz.surnames, ...mrz.givenNames];
  const lastIndex = fieldOrder.length - 1;
  const pairedMrz = new Set<number>();
  const pairedAccount = new Set<number>();
  const notes: string[] = [];
  const pairAll = (rule: (mrzPart: string, mrzIndex: number, part: string[]) => boolean, limit: number): number => {
    let paired = 0;
    fieldOrder.forEach((mrzPart, m) => {
      if (pairedMrz.has(m) || paired >= limit) return;
      const a = account.findIndex((part, i) => !pairedAccount.has(i) && rule(mrzPart, m, part));
      if (a === -1) return;
      pairedMrz.add(m);
      pairedAccount.add(a);
      paired += 1;
    });
    return paired;
  };
  pairAll((mrzPart, m, part) => same(part, mrzPart, mrz.truncated && m === lastIndex), Infinity);
  const initials = pairAll(
    (mrzPart, _m, part) =>
      part.some(
        (spelling) =>
          (spelling.length === 1 && mrzPart.startsWith(spelling)) || (mrzPart.length === 1 && spelling.startsWith(mrzPart)),
      ),
    Infinity,
  );
  if (initials > 0) notes.push('initials instead of names');
  const near = pairAll(
    (mrzPart, _m, part) =>
      part.some((spelling) => Math.max(spelling.length, mrzPart.length) >= 4 && withinOneEdit(spelling, mrzPart)),
    1,
  );
  if (near > 0) notes.push('a name spelt one letter differently');
  const surnamePaired = mrz.surnames.some((_, m) => pairedMrz.has(m));
  const givenPaired =
    mrz.givenNames.length === 0 || mrz.givenNames.some((_, g) => pairedMrz.has(mrz.surnames.length + g));
  const leftMrz = fieldOrder.length - pairedMrz.size;
  const leftAccount = account.length - pairedAccount.size;
  if (!surnamePaired || !givenPaired || (leftMrz > 0 && leftAccount > 0)) return null;
  if (leftMrz > 0) notes.push(`${leftMrz} name part(s) on the document but not in the account name`);
  if (leftAccount > 0) notes.push(`${leftAccount} name part(s) in the account name but not on the document`);
  if (notes.length === 0) notes.push('the same names in another order');
  return notes.join('; ');
}

/** How the account's full name compares with the MRZ name field. */
export function compareNames(mrzNameField: string, accountFullName: string): NameMatch {
  const mrz = splitMrzName(mrzNameField);
  const account = accountNameParts(accountFullName);
  if (mrz.surnames.length === 0) return { level: 'not_comparable', detail: 'the document has no surname in its MRZ' };
  if (account.length === 0) {
    return { level: 'not_comparable', detail: 'the account name has no letters that can be written in A-Z' };
  }
  if (exactMatch(mrz, account)) return { level: 'exact', detail: 'the account name matches the document' };
  const close = closeMatch(mrz, account);
  if (close !== null) return { level: 'close', detail: `the account name nearly matches the document: ${close}` };
  return { level: 'different', detail: 'the account name does not match the name on the document' };
}
