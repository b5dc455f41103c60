// `event_changes`: the log of every real transition of an event, one row each, written in the
// transition's transaction. `seq` rises with every change on the storage (SQLite AUTOINCREMENT never
// reuses a number; PostgreSQL's identity does not either) and, because transitions take the log's
// lock before they write, changes commit in the order of their numbers: a stream resumes exactly
// after the change a client saw last. `change` is what the transition did (`opened`, `escalated`,
// `updated`, `cleared`, `acknowledged`); `changed_at` ISO 8601 UTC text with milliseconds.
import type { Migration } from '../../platform/db/migrate.ts';

export const eventChangesMigration: Migration = {
  name: '0024_event_changes',
  async up(db, dialect) {
    await db.schema
      .createTable('event_changes')
      .addColumn('seq', dialect === 'postgres' ? 'bigint' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement()))
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('change', 'text', (c) => c.notNull())
      .addColumn('changed_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('event_changes_org').on('event_changes').columns(['org_id', 'seq']).execute();
    // The id form of a resume: an event's latest change.
    await db.schema.createIndex('event_changes_event').on('event_changes').columns(['event_id', 'seq']).execute();
  },
};
