// The `notams` table: every NOTAM the service holds, from the live feed, the simulator or an
// operator's own submissions, one row per source, location and NOTAM number.
import type { Migration } from '../../platform/db/migrate.ts';

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

export const notamsMigration: Migration = {
  name: '0003_notams',
  async up(db) {
    await db.schema
      .createTable('notams')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('location', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('notam_key', 'text', (c) => c.notNull())
      .addColumn('series', 'text')
      .addColumn('number', 'integer')
      .addColumn('year', 'integer')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('replaces', 'text')
      .addColumn('raw', 'text', (c) => c.notNull())
      .addColumn('parsed', 'text', (c) => c.notNull())
      .addColumn('valid_from', 'text')
      .addColumn('valid_to', 'text')
      .addColumn('estimated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('ended_by', 'text')
      .addColumn('received_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('notams_source_location_key').on('notams').columns(['source', 'location', 'notam_key']).unique().execute();
    await db.schema.createIndex('notams_location_valid_to').on('notams').columns(['location', 'valid_to']).execute();
  },
};
