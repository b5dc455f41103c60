// The mail outbox table (platform/mail/outbox.table.ts has its rows). Frozen: it writes the
// transports and statuses of its day literally, whatever the mail code says today.
import { sql } from 'kysely';
import type { Migration } from '../db/migrate.ts';

export const outboxMigration: Migration = {
  name: '0005_outbox',
  async up(db) {
    await db.schema
      .createTable('outbox_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('to', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text', 'text')
      .addColumn('html', 'text')
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('transport', 'text', (c) => c.notNull().check(sql`transport in ('smtp', 'outbox')`))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'sent', 'failed')`))
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    await db.schema.createIndex('outbox_messages_newest').on('outbox_messages').columns(['created_at', 'id']).execute();
  },
};
