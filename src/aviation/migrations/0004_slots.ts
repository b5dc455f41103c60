// Slot storage. `slot_hours` holds one row per airport and hour with the number of active
// bookings: every booking or cancellation writes it first, which serialises them per airport-hour
// (a row lock on PostgreSQL, the database write lock on SQLite). Times are ISO 8601 UTC text with
// milliseconds ("2025-06-21T14:00:00.000Z"), so equal hours compare equal on both back ends.
import type { Migration } from '../../platform/db/migrate.ts';

export const slotsMigration: Migration = {
  name: '0004_slots',
  async up(db) {
    await db.schema
      .createTable('slot_capacity_overrides')
      .addColumn('icao', 'text', (c) => c.primaryKey())
      .addColumn('arrivals_per_hour', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('slot_hours')
      .addColumn('icao', 'text', (c) => c.notNull())
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('booked', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('slot_hours_pk', ['icao', 'hour'])
      .execute();
    await db.schema
      .createTable('slot_bookings')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('icao', 'text', (c) => c.notNull())
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('registration', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('cancelled_at', 'text')
      .addUniqueConstraint('slot_bookings_idempotency', ['org_id', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('slot_bookings_icao_hour').on('slot_bookings').columns(['icao', 'hour']).execute();
  },
};
