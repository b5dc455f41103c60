// The outbox table: the local transport, which keeps each message there for an operator to read
// (`lamis mail show`), and the reading side shared by both transports.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { Mailer, MailerOptions, MailLogger, OutgoingMail, SentMail } from './mailer.ts';
import type { MailTransport, OutboxMessagesTable } from './outbox.table.ts';

export type OutboxMessage = OutboxMessagesTable;
/** A row without its bodies, as lists show it. */
export type OutboxSummary = Omit<OutboxMessage, 'text' | 'html'>;

export const DEFAULT_LIST_LIMIT = 50;

export class Outbox {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Newest first. */
  list(limit = DEFAULT_LIST_LIMIT): Promise<OutboxSummary[]> {
    return this.#database.db
      .selectFrom('outbox_messages')
      .select(['id', 'to', 'subject', 'purpose', 'transport', 'status', 'error', 'created_at', 'sent_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  get(id: string): Promise<OutboxMessage | undefined> {
    return this.#database.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }
}

/** Records a message as `queued` and returns its id; bodies only when this row is to keep them. */
export async function queueMessage(
  database: Database,
  message: OutgoingMail,
  transport: MailTransport,
  createdAt: string,
  keepBodies: boolean,
): Promise<string> {
  const id = randomUUID();
  await database.db
    .insertInto('outbox_messages')
    .values({
      id,
      to: message.to,
      subject: message.subject,
      text: keepBodies ? message.text : null,
      html: keepBodies ? (message.html ?? null) : null,
      purpose: message.purpose,
      transport,
      status: 'queued',
      error: null,
      created_at: createdAt,
      sent_at: null,
    })
    .execute();
  return id;
}

/** Used when no SMTP server is configured: the message stays `queued` in the outbox, bodies and all. */
export class OutboxMailer implements Mailer {
  readonly transport = 'outbox';
  readonly #database: Database;
  readonly #logger: MailLogger | undefined;
  readonly #clock: () => number;

  constructor(database: Database, options: MailerOptions = {}) {
    this.#database = database;
    this.#logger = options.logger;
    this.#clock = options.clock ?? Date.now;
  }

  async send(message: OutgoingMail): Promise<SentMail> {
    const createdAt = new Date(this.#clock()).toISOString();
    const id = await queueMessage(this.#database, message, 'outbox', createdAt, true);
    this.#logger?.info({ mail_id: id, purpose: message.purpose, transport: 'outbox' }, 'mail kept in the local outbox (no SMTP server configured)');
    return { id, transport: 'outbox', accepted_at: createdAt };
  }
}
