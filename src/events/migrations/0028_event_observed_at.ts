// `events.observed_at`: the time of the observation behind the event's latest opening or clearing
// (a vessel's position report), where a rule knows it. An instance that comes late to an opening
// another instance has already opened and cleared on a later observation finds it so, and does not
// open the event a second time.
import type { Migration } from '../../platform/db/migrate.ts';

export const eventObservedAtMigration: Migration = {
  name: '0028_event_observed_at',
  async up(db) {
    await db.schema.alterTable('events').addColumn('observed_at', 'text').execute();
  },
};
