// The watch list of each organisation: the airports and ports it watches, each once.
import type { Migration } from '../../platform/db/migrate.ts';

export const watchListMigration: Migration = {
  name: '0023_watch_list',
  async up(db) {
    await db.schema
      .createTable('watch_list')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('watch_list_org_target').on('watch_list').columns(['org_id', 'type', 'target']).unique().execute();
    await db.schema.createIndex('watch_list_org_created').on('watch_list').columns(['org_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('watch_list_target').on('watch_list').columns(['type', 'target']).execute();
  },
};
