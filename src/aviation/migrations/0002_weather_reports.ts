// The table of METAR and TAF reports LAMIS holds: the newest per airport and kind is the one it
// serves, whatever source it came from.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

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
