// The rows of `notams` (0003_notams): one per source, location and NOTAM number.

export type NotamSource = 'live' | 'simulated' | 'operator';

export interface NotamRow {
  /** Random identifier of the row. */
  id: string;
  /** The aerodrome (or FIR) the row is filed under: one item A) location. */
  location: string;
  source: NotamSource;
  /** The NOTAM number in one canonical spelling ("A0123/24", "6/171", "JFK 1/123"): what NOTAMR and
   * NOTAMC references are matched against. Unique per source and location. */
  notam_key: string;
  series: string | null;
  number: number | null;
  year: number | null;
  /** N, R or C. */
  type: string;
  /** The number a NOTAMR replaces or a NOTAMC cancels, as written. */
  replaces: string | null;
  raw: string;
  /** The parsed `Notam` as JSON. */
  parsed: string;
  /** Item B), ISO 8601 UTC (null only for an FAA `TIL` NOTAM). */
  valid_from: string | null;
  /** When the NOTAM stops being in force: item C), or earlier when a NOTAMR or NOTAMC ended it;
   * null for PERM or no end. */
  valid_to: string | null;
  /** 1 when item C) carried EST. */
  estimated: number;
  /** The number of the NOTAMR or NOTAMC that ended this NOTAM. */
  ended_by: string | null;
  /** When the row was stored; for feed rows, the fetch that last delivered it. */
  received_at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    notams: NotamRow;
  }
}
