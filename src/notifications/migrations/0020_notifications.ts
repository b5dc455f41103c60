// E-mail about events: what each member chose per severity, every change recorded for a member
// (mailed at once or kept for the hourly digest), and the digests. A change is recorded once per
// member however many instances receive it: the unique key is the member, the event, the change
// and the severity it reached, so the instance that inserts the line is the one that mails it.
// A digest row is claimed by setting `sent_at` where it is null, so one instance sends it. Times
// are ISO 8601 UTC text with milliseconds; an hour is the text of its first instant.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const notificationsMigration: Migration = {
  name: '0020_notifications',
  async up(db) {
    await db.schema
      .createTable('notification_preferences')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull().check(sql`severity in ('info', 'warning', 'critical')`))
      .addColumn('delivery', 'text', (c) => c.notNull().check(sql`delivery in ('immediately', 'hourly', 'off')`))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_preferences_pk', ['org_id', 'user_id', 'severity'])
      .execute();
    await db.schema
      .createTable('notification_lines')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('change', 'text', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('delivery', 'text', (c) => c.notNull().check(sql`delivery in ('immediately', 'hourly')`))
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_lines_pk', ['org_id', 'user_id', 'event_id', 'change', 'severity'])
      .execute();
    await db.schema.createIndex('notification_lines_digest').on('notification_lines').columns(['org_id', 'user_id', 'hour', 'recorded_at']).execute();
    await db.schema
      .createTable('notification_digests')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .addPrimaryKeyConstraint('notification_digests_pk', ['org_id', 'user_id', 'hour'])
      .execute();
    await db.schema.createIndex('notification_digests_due').on('notification_digests').columns(['sent_at', 'hour']).execute();
  },
};
