// Finding an ICAO 9303 machine-readable zone in text (OCR output or a PDF text layer) by its
// shape, and undoing the usual OCR confusions in the fields whose character class is fixed.
// Parsing and check digits are the mrz package's; this file only decides which lines to give it.

import { parse } from 'mrz';
import type { ParseResult } from 'mrz';

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export interface MrzBlock {
  format: MrzFormat;
  lines: string[];
}

export interface OcrCorrection {
  /** 1-based line and column in the MRZ. */
  line: number;
  column: number;
  from: string;
  to: string;
  /**
   * `field_class`: a letter in a digits-only field or the reverse; `check_digit`: O and 0 swapped
   * in the document number, the only swap that makes its check digits hold.
   */
  rule: 'field_class' | 'check_digit';
}

/** Passport (TD3): 2 × 44; ID-2 card (TD2): 2 × 36; ID-1 card (TD1): 3 × 30. */
const SHAPES: readonly { format: MrzFormat; count: number; length: number }[] = [
  { format: 'TD3', count: 2, length: 44 },
  { format: 'TD2', count: 2, length: 36 },
  { format: 'TD1', count: 3, length: 30 },
];

const MRZ_LINE = /^[A-Z0-9<]+$/;

/**
 * Text lines that could be MRZ lines: whitespace removed (OCR splits long filler runs, PDF text
 * layers space characters out), only A-Z, 0-9 and `<`, at least one `<`. A line holding a whole
 * zone (2 × 44 = 88, 2 × 36 = 72 or 3 × 30 = 90 characters, as a text layer without line ends
 * gives it) is cut into its lines.
 */
function candidateLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/\s+/g, '');
    if (!MRZ_LINE.test(line) || !line.includes('<')) continue;
    const whole = SHAPES.find((shape) => line.length === shape.count * shape.length);
    if (whole) {
      for (let i = 0; i < whole.count; i++) lines.push(line.slice(i * whole.length, (i + 1) * whole.length));
    } else {
      lines.push(line);
    }
  }
  return lines;
}

/** Every run of consecutive candidate lines with an MRZ shape, top to bottom. */
export function findMrzBlocks(text: string): MrzBlock[] {
  const lines = candidateLines(text);
  const blocks: MrzBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    for (const shape of SHAPES) {
      const group = lines.slice(i, i + shape.count);
      if (group.length === shape.count && group.every((line) => line.length === shape.length)) {
        blocks.push({ format: shape.format, lines: group });
      }
    }
  }
  return blocks;
}

type Span = readonly [line: number, start: number, end: number];

/**
 * Fields that may hold only digits (dates, check digits) or only letters (document code, states,
 * sex, names), 0-based [line, start, end). Document numbers and optional data mix both; only
 * the document number gets a correction (O/0, below). The TD1 document number check digit and
 * the TD3 personal number check digit may be `<`, which no rule changes.
 */
const DIGIT_FIELDS: Readonly<Record<MrzFormat, readonly Span[]>> = {
  TD3: [[1, 9, 10], [1, 13, 20], [1, 21, 28], [1, 42, 44]],
  TD2: [[1, 9, 10], [1, 13, 20], [1, 21, 28], [1, 35, 36]],
  TD1: [[0, 14, 15], [1, 0, 7], [1, 8, 15], [1, 29, 30]],
};

const LETTER_FIELDS: Readonly<Record<MrzFormat, readonly Span[]>> = {
  TD3: [[0, 0, 44], [1, 10, 13], [1, 20, 21]],
  TD2: [[0, 0, 36], [1, 10, 13], [1, 20, 21]],
  TD1: [[0, 0, 5], [1, 7, 8], [1, 15, 18], [2, 0, 30]],
};

/** Letters OCR gives for digits in OCR-B-like fonts, and the reverse. */
const AS_DIGIT: Readonly<Record<string, string>> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', G: '6', B: '8' };
const AS_LETTER: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B' };

/** Letters in digits-only fields and digits in letters-only fields, replaced by their look-alike. */
function correctFieldClasses(lines: string[][], format: MrzFormat, corrections: OcrCorrection[]): void {
  const apply = (spans: readonly Span[], table: Readonly<Record<string, string>>) => {
    for (const [line, start, end] of spans) {
      const chars = lines[line]!;
      for (let column = start; column < end; column++) {
        const to = table[chars[column]!];
        if (to === undefined) continue;
        corrections.push({ line: line + 1, column: column + 1, from: chars[column]!, to, rule: 'field_class' });
        chars[column] = to;
      }
    }
  };
  apply(DIGIT_FIELDS[format], AS_DIGIT);
  apply(LETTER_FIELDS[format], AS_LETTER);
}

/** The document number, 0-based [line, start, end); its check digit follows it. */
const DOCUMENT_NUMBER: Readonly<Record<MrzFormat, Span>> = { TD3: [1, 0, 9], TD2: [1, 0, 9], TD1: [0, 5, 14] };

function holds(lines: string[][], format: MrzFormat, fields: readonly string[]): boolean {
  const result = parseBlock({ format, lines: lines.map((chars) => chars.join('')) });
  return result !== null && fields.every((field) => result.details.find((detail) => detail.field === field)?.valid);
}

/**
 * A document number mixes letters and digits, so its field's class cannot say whether O or 0 was
 * printed, and the English model confuses the two more than any other pair. When the number's
 * check digit fails as read, each O or 0 in it is swapped in turn; a swap is kept only when it is
 * the only one that makes both the number's and the composite check digit hold (a chance fit of
 * two independent digits is about 1 in 100 per swap tried). Other look-alikes (I/1, B/8, ...) were
 * measured to fix few numbers and to make wrong numbers pass now and then, so they stay as read.
 */
function correctDocumentNumber(lines: string[][], format: MrzFormat, corrections: OcrCorrection[]): void {
  const [line, start, end] = DOCUMENT_NUMBER[format];
  const chars = lines[line]!;
  // A TD1 number longer than 9 characters continues in the optional data, marked by `<` here.
  if (!/\d/.test(chars[end]!) || holds(lines, format, ['documentNumberCheckDigit'])) return;
  const fitting: number[] = [];
  for (let column = start; column < end; column++) {
    if (chars[column] !== 'O' && chars[column] !== '0') continue;
    const variant = lines.map((row) => [...row]);
    variant[line]![column] = chars[column] === 'O' ? '0' : 'O';
    if (holds(variant, format, ['documentNumberCheckDigit', 'compositeCheckDigit'])) fitting.push(column);
  }
  if (fitting.length !== 1) return;
  const column = fitting[0]!;
  const to = chars[column] === 'O' ? '0' : 'O';
  corrections.push({ line: line + 1, column: column + 1, from: chars[column]!, to, rule: 'check_digit' });
  chars[column] = to;
}

/**
 * Undoes the usual OCR confusions and lists every change. In digits-only fields, letters become
 * the digit they resemble (O/Q/D → 0, I/L → 1, Z → 2, S → 5, G → 6, B → 8); in letters-only fields
 * digits become letters (0 → O, 1 → I, 2 → Z, 5 → S, 6 → G, 8 → B): such a character can never
 * be valid where it stands. Then O/0 in the document number, by its check digits (see above).
 * The check digits still decide whether the result holds.
 */
export function correctOcrConfusions(block: MrzBlock): { block: MrzBlock; corrections: OcrCorrection[] } {
  const lines = block.lines.map((line) => [...line]);
  const corrections: OcrCorrection[] = [];
  correctFieldClasses(lines, block.format, corrections);
  correctDocumentNumber(lines, block.format, corrections);
  corrections.sort((a, b) => a.line - b.line || a.column - b.column);
  return { block: { format: block.format, lines: lines.map((chars) => chars.join('')) }, corrections };
}

/** The mrz package's reading of a block; null when it refuses the block outright. */
export function parseBlock(block: MrzBlock): ParseResult | null {
  try {
    return parse(block.lines);
  } catch {
    return null;
  }
}

function score(block: MrzBlock): [checkDigits: number, fields: number] {
  const result = parseBlock(block);
  if (result === null) return [-1, -1];
  const valid = result.details.filter((detail) => detail.valid);
  return [valid.filter((detail) => detail.field?.endsWith('CheckDigit')).length, valid.length];
}

export interface FoundMrz {
  block: MrzBlock;
  corrections: OcrCorrection[];
}

/**
 * The MRZ in a text: among the blocks found, the one with the most valid check digits, then the
 * most valid fields; on a tie the lowest on the page, where the zone sits. With `correct`, OCR
 * confusions are undone first. Null when the text has no MRZ-shaped block.
 */
export function locateMrz(text: string, options: { correct: boolean }): FoundMrz | null {
  let best: { found: FoundMrz; score: [number, number] } | null = null;
  for (const block of findMrzBlocks(text)) {
    const found = options.correct ? correctOcrConfusions(block) : { block, corrections: [] };
    const [digits, fields] = score(found.block);
    if (best === null || digits > best.score[0] || (digits === best.score[0] && fields >= best.score[1])) {
      best = { found, score: [digits, fields] };
    }
  }
  return best?.found ?? null;
}
