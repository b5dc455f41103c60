// Storage for port calls detected from AIS and for berth records, on SQLite and PostgreSQL alike.
// Times are ISO 8601 UTC text with milliseconds (they sort as they read); flags are 0/1 integers so
// both back ends give back the same row.
//
// `port_calls`: one row per call. The index (port_id, arrived_at, id) serves a port's calls newest
// first, (mmsi, arrived_at, id) a vessel's; the partial index on open calls serves the restart.
// `berths`: berth records of ports: shared ones (made by operators, `organisation_id` null) and
// organisations' own. A name, as folded (`name_key`), is unique within its port and owner (since
// `0014_berth_owners`; the rules across owners are the store's); an Idempotency-Key is unique per
// creator (organisation, or operator key).
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export interface PortCallsTable {
  id: string;
  mmsi: number;
  port_id: string;
  vessel_name: string | null;
  imo: number | null;
  ship_type: number | null;
  arrived_at: string;
  /** 0 or 1. */
  arrival_observed: number;
  arrival_status: string;
  arrival_lat: number;
  arrival_lon: number;
  berthed_at: string | null;
  berth_lat: number | null;
  berth_lon: number | null;
  departed_at: string | null;
  /** 0 or 1; null while the vessel is in port. */
  departure_observed: number | null;
  draught_arrival_m: number | null;
  draught_departure_m: number | null;
  source: string;
}

export interface BerthsTable {
  /** `brt_` and 16 base62 characters. */
  id: string;
  port_id: string;
  name: string;
  /** The name folded for comparison; unique per port and owner. */
  name_key: string;
  length_m: number | null;
  depth_m: number | null;
  /** JSON array of cargo types. */
  cargo_types: string;
  lat: number | null;
  lon: number | null;
  /** The organisation that made the record, which alone sees it; null for the instance's operators (shared). */
  organisation_id: string | null;
  /** The organisation, or the operator key's id: who may repeat an Idempotency-Key. */
  created_by: string;
  idempotency_key: string | null;
  /** Digest of the creating request's fields, to tell a retry from a key reused for another berth. */
  idempotency_fingerprint: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    port_calls: PortCallsTable;
    berths: BerthsTable;
  }
}

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

/**
 * Berth names become unique per port and owner instead of per port, so that organisations' own
 * records do not collide with (or reveal) each other's. SQLite cannot drop a table constraint, so
 * there the table is built again under the same name with the same rows.
 */
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
