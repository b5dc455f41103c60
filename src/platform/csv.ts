// CSV reading shared by the reference data importers: text decoding, and rows with their line
// numbers, where a row the parser cannot read (a stray quote, a wrong number of fields) is reported
// instead of thrown.
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';

export type CsvRow = { readonly line: number; readonly fields: readonly string[] };

/** A row left out, by its line number (0 when the parser could not tell), and why. */
export type RejectedRow = { readonly line: number; readonly reason: string };

/** UTF-8 when the bytes are valid UTF-8, else ISO 8859-1 (older UN/LOCODE releases use it). */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

/** Every row, the header too; every row has as many fields as the first. */
export function readCsvRows(text: string): { rows: CsvRow[]; rejected: RejectedRow[] } {
  const rows: CsvRow[] = [];
  const rejected: RejectedRow[] = [];
  try {
    parse(text, {
      bom: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        rejected.push({ line: lineOf(error), reason: error?.message ?? 'unreadable row' });
        return undefined;
      },
      on_record: (fields: string[], context) => {
        rows.push({ line: context.lines, fields });
        return null;
      },
    });
  } catch (error) {
    // Errors the parser cannot skip past (an unclosed quote at the end) end the file there.
    if (!(error instanceof CsvError)) throw error;
    rejected.push({ line: lineOf(error), reason: error.message });
  }
  return { rows, rejected };
}

function lineOf(error: CsvError | undefined): number {
  return typeof error?.lines === 'number' ? error.lines : 0;
}
