// `event_log_horizons`: per organisation, the number of the last change that retention took out of
// the change log with its event (an event cleared longer ago than the retention). A stream that
// resumes after an earlier number could miss such an event's clearing, so it is refused and told to
// list the events instead; other organisations' resumes are untouched.
import type { Migration } from '../../platform/db/migrate.ts';

export const eventLogHorizonsMigration: Migration = {
  name: '0027_event_log_horizons',
  async up(db, dialect) {
    await db.schema
      .createTable('event_log_horizons')
      .addColumn('org_id', 'text', (c) => c.primaryKey())
      .addColumn('pruned_through', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
      .execute();
  },
};
