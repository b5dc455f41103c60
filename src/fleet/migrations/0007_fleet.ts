// Fleet storage: each organisation's vehicles and its notification settings. The registration is
// kept only sealed (an envelope token bound to the organisation and the vehicle) and as a blind
// index for equality search, so a copied database does not reveal whose aircraft are whose.
// Times are ISO 8601 UTC text with milliseconds; lists are JSON text on both back ends.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const fleetMigration: Migration = {
  name: '0007_fleet',
  async up(db) {
    await db.schema
      .createTable('fleet_vehicles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('vehicle_type', 'text', (c) => c.notNull().check(sql`vehicle_type in ('aircraft', 'helicopter', 'vessel')`))
      .addColumn('registration_sealed', 'text')
      .addColumn('registration_index', 'text')
      .addColumn('icao_type', 'text')
      .addColumn('home_base_icao', 'text')
      .addColumn('operational_regions', 'text', (c) => c.notNull())
      .addColumn('mmsi', 'integer')
      .addColumn('imo', 'integer')
      .addColumn('crosswind_limit_kt', 'real')
      .addColumn('min_runway_m', 'integer')
      .addColumn('idempotency_key', 'text')
      .addColumn('idempotency_fingerprint', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      // Unique constraints let many NULLs through on both back ends: vessels without a
      // registration and creations without a key do not collide.
      .addUniqueConstraint('fleet_vehicles_registration', ['org_id', 'registration_index'])
      .addUniqueConstraint('fleet_vehicles_idempotency', ['org_id', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('fleet_vehicles_org_created').on('fleet_vehicles').columns(['org_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('notification_settings')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('vehicle_id', 'text', (c) => c.references('fleet_vehicles.id').onDelete('cascade'))
      .addColumn('thresholds', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // One row per organisation and vehicle, and one organisation-wide row: a plain unique
    // constraint would let any number of NULL vehicle ids in.
    await db.schema.createIndex('notification_settings_org').on('notification_settings').column('org_id').unique()
      .where(sql.ref('vehicle_id'), 'is', null).execute();
    await db.schema.createIndex('notification_settings_vehicle').on('notification_settings').columns(['org_id', 'vehicle_id']).unique()
      .where(sql.ref('vehicle_id'), 'is not', null).execute();
  },
};
