// `events`: what the rules raise, one row per event, kept while it is open and after it clears.
// The subject's type and id are columns to filter on, the whole subject and the rule's inputs JSON
// text. `dedupe_key` is the kind and the subject's identity: the partial unique index lets one open
// event per key and organisation exist, so instances evaluating the same input open it once, and a
// cleared event makes room for the next one. Kinds are not constrained: new rules add kinds without
// a migration. Times are ISO 8601 UTC text with milliseconds.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const eventsMigration: Migration = {
  name: '0015_events',
  async up(db) {
    await db.schema
      .createTable('events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('open', 'cleared')`))
      .addColumn('severity', 'text', (c) => c.notNull().check(sql`severity in ('info', 'warning', 'critical')`))
      .addColumn('subject_type', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('dedupe_key', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('opened_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('cleared_at', 'text')
      .addColumn('acknowledged_at', 'text')
      .execute();
    await db.schema.createIndex('events_open').on('events').columns(['org_id', 'dedupe_key']).unique()
      .where(sql.ref('state'), '=', sql.lit('open')).execute();
    await db.schema.createIndex('events_org_opened').on('events').columns(['org_id', 'opened_at', 'id']).execute();
    await db.schema.createIndex('events_subject').on('events').columns(['org_id', 'subject_type', 'subject_id', 'opened_at']).execute();
  },
};
