// The outbox: one row for every message LAMIS sends, whichever transport carried it, so an
// operator can see what went out (`lamis mail list`). Bodies hold single-use links, so a row keeps
// them only while it is the one copy: always for the local outbox transport, and for SMTP only
// when sending failed. Times are ISO 8601 UTC text with milliseconds, so text order is time order.
import { sql } from 'kysely';
import type { Migration } from '../db/migrate.ts';

export type MailTransport = 'smtp' | 'outbox';
/** `queued`: not (yet) handed to a server; `sent`: the SMTP server accepted it; `failed`: it did not. */
export type MailStatus = 'queued' | 'sent' | 'failed';

export interface OutboxMessagesTable {
  /** Random UUID. */
  id: string;
  to: string;
  subject: string;
  /** null once the message went out over SMTP. */
  text: string | null;
  html: string | null;
  /** What the sending feature calls this kind of mail, e.g. `email_verification`. */
  purpose: string;
  transport: MailTransport;
  status: MailStatus;
  /** Why sending failed, for `failed`. */
  error: string | null;
  created_at: string;
  /** When the SMTP server accepted it. */
  sent_at: string | null;
}

declare module '../db/database.ts' {
  interface Tables {
    outbox_messages: OutboxMessagesTable;
  }
}

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
