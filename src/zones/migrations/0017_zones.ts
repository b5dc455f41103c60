// Zones (geofences) of each organisation: a name, a geometry and which vessels they watch.
import type { Migration } from '../../platform/db/migrate.ts';

export const zonesMigration: Migration = {
  name: '0017_zones',
  async up(db) {
    await db.schema
      .createTable('zones')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('geometry', 'text', (c) => c.notNull())
      .addColumn('applies_to', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('zones_org_created').on('zones').columns(['org_id', 'created_at', 'id']).execute();
  },
};
