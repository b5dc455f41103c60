// Storage for port calls detected from AIS and for berth records, on SQLite and PostgreSQL alike.
// Times are ISO 8601 UTC text with milliseconds (they sort as they read); flags are 0/1 integers so
// both back ends give back the same row.
//
// `port_calls`: one row per call. The index (port_id, arrived_at, id) serves a port's calls newest
// first, (mmsi, arrived_at, id) a vessel's; the partial index on open calls serves the restart.
// `berths`: berth records of ports: shared ones (made by operators, `organisation_id` null) and
// organisations' own. A name, as folded (`name_key`), is unique within its port (per port and
// owner since `0014_berth_owners`); an Idempotency-Key is unique per creator (organisation, or
// operator key).
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const portCallsMigration: Migration = {
  name: '0011_port_calls',
  async up(db) {
    await db.schema
      .createTable('port_calls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('mmsi', 'integer', (c) => c.notNull())
      .addColumn('port_id', 'text', (c) => c.notNull())
      .addColumn('vessel_name', 'text')
      .addColumn('imo', 'integer')
      .addColumn('ship_type', 'integer')
      .addColumn('arrived_at', 'text', (c) => c.notNull())
      .addColumn('arrival_observed', 'smallint', (c) => c.notNull())
      .addColumn('arrival_status', 'text', (c) => c.notNull().check(sql`arrival_status in ('moored', 'anchored', 'stopped')`))
      .addColumn('arrival_lat', 'double precision', (c) => c.notNull())
      .addColumn('arrival_lon', 'double precision', (c) => c.notNull())
      .addColumn('berthed_at', 'text')
      .addColumn('berth_lat', 'double precision')
      .addColumn('berth_lon', 'double precision')
      .addColumn('departed_at', 'text')
      .addColumn('departure_observed', 'smallint')
      .addColumn('draught_arrival_m', 'double precision')
      .addColumn('draught_departure_m', 'double precision')
      .addColumn('source', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('port_calls_port').on('port_calls').columns(['port_id', 'arrived_at', 'id']).execute();
    await db.schema.createIndex('port_calls_vessel').on('port_calls').columns(['mmsi', 'arrived_at', 'id']).execute();
    await db.schema.createIndex('port_calls_open').on('port_calls').column('mmsi').where(sql.ref('departed_at'), 'is', null).execute();

    await db.schema
      .createTable('berths')
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
      .addUniqueConstraint('berths_port_name', ['port_id', 'name_key'])
      // Unique constraints let many NULLs through on both back ends: berths made without a key do not collide.
      .addUniqueConstraint('berths_idempotency', ['created_by', 'idempotency_key'])
      .execute();
  },
};
