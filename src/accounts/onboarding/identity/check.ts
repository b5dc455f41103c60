// The decision of the automated identity check, from MRZ text, the account's full name and the
// time of the check. RULES.md states the rules; keep the two together.

import type { Details, ParseResult } from 'mrz';
import { locateMrz, parseBlock } from './mrz-text.ts';
import type { MrzBlock, MrzFormat } from './mrz-text.ts';
import { compareNames } from './name-match.ts';
import type { NameMatchLevel } from './name-match.ts';

export type IdentityOutcome = 'verified' | 'rejected' | 'manual_review';

export type ReasonCode =
  // rejected
  | 'unsupported_document'
  | 'check_digit_invalid'
  | 'expired'
  | 'name_mismatch'
  // manual review
  | 'mrz_not_found'
  | 'no_text_layer'
  | 'unreadable_document'
  | 'ocr_failed'
  | 'ocr_timeout'
  | 'unsupported_format'
  | 'mrz_field_invalid'
  | 'name_close'
  | 'name_not_comparable';

export interface Reason {
  code: ReasonCode;
  /** The MRZ field concerned, for `check_digit_invalid` and `mrz_field_invalid`. */
  field?: string;
  message: string;
}

export interface DocumentSummary {
  format: MrzFormat;
  /** P (passport), or A, C, I (identity cards); a second letter when the state uses one. */
  document_code: string | null;
  issuing_state: string;
  nationality: string;
  /** Only when the document number's check digit holds. */
  number_last4: string | null;
  /** ISO date, only when the expiry date and its check digit are valid. */
  expiry: string | null;
}

export interface IdentityCheck {
  outcome: IdentityOutcome;
  reasons: Reason[];
  document: DocumentSummary | null;
  name_match: NameMatchLevel | null;
}

const REJECTING: ReadonlySet<ReasonCode> = new Set([
  'unsupported_document',
  'check_digit_invalid',
  'expired',
  'name_mismatch',
]);

/** The outcome the reasons lead to: any rejecting reason rejects, any other asks for a human. */
export function isRejecting(reason: Reason): boolean {
  return REJECTING.has(reason.code);
}

export function outcomeOf(reasons: readonly Reason[]): IdentityOutcome {
  if (reasons.some(isRejecting)) return 'rejected';
  return reasons.length > 0 ? 'manual_review' : 'verified';
}

const CHECK_DIGITS: Readonly<Record<string, string>> = {
  documentNumberCheckDigit: 'document_number',
  birthDateCheckDigit: 'birth_date',
  expirationDateCheckDigit: 'expiry_date',
  personalNumberCheckDigit: 'personal_number',
  compositeCheckDigit: 'composite',
};

const FIELDS: Readonly<Record<string, string>> = {
  documentCode: 'document_code',
  issuingState: 'issuing_state',
  documentNumber: 'document_number',
  nationality: 'nationality',
  birthDate: 'birth_date',
  sex: 'sex',
  expirationDate: 'expiry_date',
  lastName: 'name',
  firstName: 'name',
  personalNumber: 'optional_data',
  optional1: 'optional_data',
  optional2: 'optional_data',
};

/** Where the name field lies, 0-based [line, start, end). */
const NAME_FIELD: Readonly<Record<MrzFormat, readonly [number, number, number]>> = {
  TD3: [0, 5, 44],
  TD2: [0, 5, 36],
  TD1: [2, 0, 30],
};

function detailOf(result: ParseResult, field: string): Details | undefined {
  return result.details.find((detail) => detail.field === field);
}

function rawOf(block: MrzBlock, detail: Details | undefined): string {
  return detail ? block.lines[detail.line]!.slice(detail.ranges[0]!.start, detail.ranges[0]!.end) : '';
}

/**
 * The expiry date of a valid YYMMDD field. Two-digit years are read as 20YY unless that is more
 * than 50 years after `now` (then 19YY). Null for a day that does not exist (e.g. 310231).
 */
export function expiryDate(yymmdd: string, now: Date): Date | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  const year = 2000 + yy > now.getUTCFullYear() + 50 ? 1900 + yy : 2000 + yy;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

/** Which of the library's verdicts hold; see RULES.md ("What the mrz package is trusted with"). */
function fieldReasons(block: MrzBlock, result: ParseResult): Reason[] {
  const reasons: Reason[] = [];
  const seen = new Set<string>();
  for (const detail of result.details) {
    if (detail.valid || detail.field === null) continue;
    const checkDigit = CHECK_DIGITS[detail.field];
    if (checkDigit !== undefined) {
      reasons.push({
        code: 'check_digit_invalid',
        field: checkDigit,
        message: `the ${checkDigit.replace('_', ' ')} check digit does not match (${detail.error ?? 'invalid'})`,
      });
      continue;
    }
    // ICAO 9303 writes an unspecified sex as `<`; several states print X, which the library refuses.
    if (detail.field === 'sex' && rawOf(block, detail) === 'X') continue;
    const field = FIELDS[detail.field] ?? detail.field;
    if (seen.has(field)) continue;
    seen.add(field);
    reasons.push({ code: 'mrz_field_invalid', field, message: `${detail.label}: ${detail.error ?? 'invalid'}` });
  }
  return reasons;
}

function summary(block: MrzBlock, result: ParseResult, expiry: Date | null): DocumentSummary {
  const clean = (field: string) => rawOf(block, detailOf(result, field)).replace(/<+$/, '').replace(/</g, ' ');
  const number = result.documentNumber;
  return {
    format: block.format,
    document_code: detailOf(result, 'documentCode')?.valid ? clean('documentCode') : null,
    issuing_state: clean('issuingState'),
    nationality: clean('nationality'),
    number_last4: number && detailOf(result, 'documentNumberCheckDigit')?.valid ? number.slice(-4) : null,
    expiry: expiry ? expiry.toISOString().slice(0, 10) : null,
  };
}

export interface CheckIdentityInput {
  /** Text holding the MRZ (its lines, or a whole OCR or text-layer reading); null when none was read. */
  mrzText: string | null;
  /** The account holder's full name as registered. */
  accountName: string;
  /** When the check runs: the document must not be expired on this UTC date. */
  now: Date;
}

/** Decides the automated identity check. Never throws. */
export function checkIdentity(input: CheckIdentityInput): IdentityCheck {
  const found = input.mrzText === null ? null : locateMrz(input.mrzText, { correct: false });
  if (found === null) {
    const reasons: Reason[] = [{ code: 'mrz_not_found', message: 'no machine-readable zone was found on the document' }];
    return { outcome: outcomeOf(reasons), reasons, document: null, name_match: null };
  }
  const { block } = found;
  const result = parseBlock(block);
  if (result === null || result.format !== block.format) {
    const reasons: Reason[] = [
      { code: 'unsupported_format', message: `the ${block.format}-shaped zone is not an ICAO 9303 ${block.format} MRZ` },
    ];
    return { outcome: outcomeOf(reasons), reasons, document: null, name_match: null };
  }

  const reasons = fieldReasons(block, result);

  let expiry: Date | null = null;
  const expiryDetail = detailOf(result, 'expirationDate');
  if (expiryDetail?.valid && detailOf(result, 'expirationDateCheckDigit')?.valid) {
    expiry = expiryDate(rawOf(block, expiryDetail), input.now);
    if (expiry === null) {
      reasons.push({ code: 'mrz_field_invalid', field: 'expiry_date', message: 'the expiry date is not a calendar date' });
    } else if (expiry.toISOString().slice(0, 10) < input.now.toISOString().slice(0, 10)) {
      reasons.push({ code: 'expired', message: `the document expired on ${expiry.toISOString().slice(0, 10)}` });
    }
  }

  const [line, start, end] = NAME_FIELD[block.format];
  const name = compareNames(block.lines[line]!.slice(start, end), input.accountName);
  if (name.level === 'different') reasons.push({ code: 'name_mismatch', message: name.detail });
  if (name.level === 'close') reasons.push({ code: 'name_close', message: name.detail });
  if (name.level === 'not_comparable') reasons.push({ code: 'name_not_comparable', message: name.detail });

  return { outcome: outcomeOf(reasons), reasons, document: summary(block, result, expiry), name_match: name.level };
}
