// The `notams` table: every NOTAM the service holds, from the live feed, the simulator or an
// operator's own submissions, one row per source, location and NOTAM number.
import type { Migration } from '../../platform/db/migrate.ts';

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
