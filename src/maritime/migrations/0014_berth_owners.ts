// Berth names become unique per port and owner instead of per port, so that organisations' own
// records do not collide with (or reveal) each other's. SQLite cannot drop a table constraint, so
// there the table is built again under the same name with the same rows.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const berthOwnersMigration: Migration = {
  name: '0014_berth_owners',
  async up(db, dialect) {
    if (dialect === 'postgres') {
      await db.schema.alterTable('berths').dropConstraint('berths_port_name').execute();
    } else {
      await db.schema
        .createTable('berths_rebuilt')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('port_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('length_m', 'double precision')
        .addColumn('depth_m', 'double precision')
        .addColumn('cargo_types', 'text', (c) => c.notNull())
        .addColumn('lat', 'double precision')
        .addColumn('lon', 'double precision')
        .addColumn('organisation_id', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('idempotency_fingerprint', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('berths_idempotency', ['created_by', 'idempotency_key'])
        .execute();
      await sql`insert into berths_rebuilt select * from berths`.execute(db);
      await db.schema.dropTable('berths').execute();
      await db.schema.alterTable('berths_rebuilt').renameTo('berths').execute();
    }
    // NULL never equals NULL in a unique index: shared records are compared under ''.
    await db.schema.createIndex('berths_port_owner_name').on('berths').unique().expression(sql`port_id, coalesce(organisation_id, ''), name_key`).execute();
    // A port's list runs by name.
    await db.schema.createIndex('berths_port_name_key').on('berths').columns(['port_id', 'name_key', 'id']).execute();
  },
};
