// Fleet storage: each organisation's vehicles and its notification settings. The registration is
// kept only sealed (an envelope token bound to the organisation and the vehicle) and as a blind
// index for equality search, so a copied database does not reveal whose aircraft are whose.
// Times are ISO 8601 UTC text with milliseconds; lists are JSON text on both back ends.
import { sql } from 'kysely';
import type { Migration } from '../platform/db/migrate.ts';

export interface FleetVehicleRow {
  /** `veh_` and 16 base62 characters. */
  id: string;
  /** The organisation, or the API key for keys outside any organisation. No foreign key: keys have no row. */
  org_id: string;
  vehicle_type: string;
  /** Envelope token of the registration, context `fleet.registration:<org>:<id>`; null when there is none. */
  registration_sealed: string | null;
  /** Blind index of the normalised registration; unique per organisation. */
  registration_index: string | null;
  icao_type: string | null;
  home_base_icao: string | null;
  /** JSON array of ICAO region and FIR codes. */
  operational_regions: string;
  mmsi: number | null;
  imo: number | null;
  /** The operator's own figures, replacing the aircraft type's. */
  crosswind_limit_kt: number | null;
  min_runway_m: number | null;
  /** The Idempotency-Key of the request that created it, unique per organisation. */
  idempotency_key: string | null;
  /** Digest of that request's fields, to tell a retry from a key reused for another vehicle. */
  idempotency_fingerprint: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationSettingsRow {
  org_id: string;
  /** null: the organisation-wide settings. */
  vehicle_id: string | null;
  /** JSON object of alert thresholds. */
  thresholds: string;
  updated_at: string;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    fleet_vehicles: FleetVehicleRow;
    notification_settings: NotificationSettingsRow;
  }
}

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
