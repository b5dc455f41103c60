// Planned arrivals of fleet aircraft and helicopters: a destination and an ETA each, removed with
// their vehicle. Listed per vehicle by ETA.
import type { Migration } from '../../platform/db/migrate.ts';

export const plannedArrivalsMigration: Migration = {
  name: '0016_planned_arrivals',
  async up(db) {
    await db.schema
      .createTable('planned_arrivals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('vehicle_id', 'text', (c) => c.notNull().references('fleet_vehicles.id').onDelete('cascade'))
      .addColumn('destination_icao', 'text', (c) => c.notNull())
      .addColumn('eta_utc', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('planned_arrivals_vehicle_eta').on('planned_arrivals').columns(['org_id', 'vehicle_id', 'eta_utc', 'id']).execute();
    // What the watcher reads: every arrival still watched, across owners, by ETA.
    await db.schema.createIndex('planned_arrivals_eta').on('planned_arrivals').column('eta_utc').execute();
  },
};
