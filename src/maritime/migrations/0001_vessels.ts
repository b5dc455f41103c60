// Storage for live vessel state and vessel tracks, on SQLite and PostgreSQL alike.
//
// `vessels` holds one row per MMSI: the fields a query may filter on are columns (mmsi, imo, name,
// category, flag, source, position_time, last_update); the rest of the Vessel (identity details,
// static and voyage data, the last position) is one JSON text column, `data`, so the row rebuilds
// the exact Vessel that VesselStore holds. Timestamps are ISO 8601 UTC text, as in the Vessel.
//
// `vessel_positions` holds track points. Its `time` is Unix milliseconds (bigint): compact, the
// same on both back ends, and what range queries and pruning compare. The primary key
// (mmsi, time) serves "one vessel between two times" and makes a repeated insert a no-op; the
// index on time serves pruning. On SQLite the table is WITHOUT ROWID, so a vessel's points lie
// together in primary-key order.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const vesselsMigration: Migration = {
  name: '0001_vessels',
  async up(db, dialect) {
    await db.schema
      .createTable('vessels')
      .addColumn('mmsi', 'integer', (c) => c.primaryKey())
      .addColumn('imo', 'integer')
      .addColumn('name', 'text')
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('flag', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('position_time', 'text')
      .addColumn('last_update', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('vessels_imo').on('vessels').column('imo').execute();

    // double precision, not real: PostgreSQL's real is 4 bytes and would not give back 51.95.
    await db.schema
      .createTable('vessel_positions')
      .addColumn('mmsi', 'integer', (c) => c.notNull())
      .addColumn('time', 'bigint', (c) => c.notNull())
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lon', 'double precision', (c) => c.notNull())
      .addColumn('sog', 'double precision')
      .addColumn('cog', 'double precision')
      .addColumn('heading', 'smallint')
      .addColumn('nav_status', 'smallint')
      .addColumn('source', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('vessel_positions_pkey', ['mmsi', 'time'])
      .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
      .execute();
    await db.schema.createIndex('vessel_positions_time').on('vessel_positions').column('time').execute();
  },
};
