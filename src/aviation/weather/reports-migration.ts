// The table of METAR and TAF reports LAMIS holds: the newest per airport and kind is the one it
// serves, whatever source it came from.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export type ReportKind = 'metar' | 'taf';
export type ReportSource = 'live' | 'simulated' | 'operator';

export interface WeatherReportsTable {
  icao: string;
  kind: ReportKind;
  source: ReportSource;
  /** ISO 8601 UTC with milliseconds, so text order is time order: observation (METAR) or issue (TAF) time. */
  observed_at: string;
  /** When this report last came in from its source (the same report again moves it on). */
  received_at: string;
  raw: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    weather_reports: WeatherReportsTable;
  }
}

export const weatherReportsMigration: Migration = {
  name: '0002_weather_reports',
  async up(db) {
    await db.schema
      .createTable('weather_reports')
      .addColumn('icao', 'text', (column) => column.notNull())
      .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('metar', 'taf')`))
      .addColumn('source', 'text', (column) => column.notNull().check(sql`source in ('live', 'simulated', 'operator')`))
      .addColumn('observed_at', 'text', (column) => column.notNull())
      .addColumn('received_at', 'text', (column) => column.notNull())
      .addColumn('raw', 'text', (column) => column.notNull())
      // One row per report and source: a report seen again updates its row.
      .addPrimaryKeyConstraint('weather_reports_pkey', ['icao', 'kind', 'source', 'observed_at'])
      .execute();
    await db.schema
      .createIndex('weather_reports_newest')
      .on('weather_reports')
      .columns(['icao', 'kind', 'observed_at'])
      .execute();
  },
};
