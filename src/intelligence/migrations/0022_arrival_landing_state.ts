// `arrival_landing_state`: what the landing rules last saw for each watched arrival (the
// recommended runway and approach, null while no METAR decided them; the destination's status),
// so that a change is told from a restart, and until when the arrival is watched, so that its
// events clear once it is archived.
// One row per arrival; times are ISO 8601 UTC text with milliseconds.
import type { Migration } from '../../platform/db/migrate.ts';

export const arrivalLandingStateMigration: Migration = {
  name: '0022_arrival_landing_state',
  async up(db) {
    await db.schema
      .createTable('arrival_landing_state')
      .addColumn('arrival_id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('vehicle_id', 'text', (c) => c.notNull())
      .addColumn('runway', 'text')
      .addColumn('approach', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('watched_until', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('arrival_landing_state_until').on('arrival_landing_state').column('watched_until').execute();
    await db.schema.createIndex('arrival_landing_state_vehicle').on('arrival_landing_state').columns(['org_id', 'vehicle_id']).execute();
  },
};
