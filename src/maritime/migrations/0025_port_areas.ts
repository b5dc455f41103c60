// The clusters of stopped vessels that shape port areas: berths (moored) and anchorages (at anchor)
// learned from AIS, one row each, kept across restarts. Times are ISO 8601 UTC text with
// milliseconds. The index on port_id serves loading a port's clusters; last_seen serves forgetting.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const portAreasMigration: Migration = {
  name: '0025_port_areas',
  async up(db) {
    await db.schema
      .createTable('port_stop_clusters')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('port_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('anchorage', 'berth')`))
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lon', 'double precision', (c) => c.notNull())
      .addColumn('radius_nm', 'double precision', (c) => c.notNull())
      .addColumn('stops', 'integer', (c) => c.notNull())
      .addColumn('first_seen', 'text', (c) => c.notNull())
      .addColumn('last_seen', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('port_stop_clusters_port').on('port_stop_clusters').column('port_id').execute();
    await db.schema.createIndex('port_stop_clusters_seen').on('port_stop_clusters').column('last_seen').execute();
  },
};
