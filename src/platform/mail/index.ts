// Outgoing mail: through SMTP when a server is configured, otherwise into the local outbox that
// `lamis mail list` / `lamis mail show` print. Either way every message has an outbox row.
import type { Database } from '../db/database.ts';
import type { Mailer, MailerOptions } from './mailer.ts';
import { OutboxMailer } from './outbox.ts';
import { SmtpMailer } from './smtp.ts';

export {
  MailError,
  MessageRejectedError,
  RecipientRejectedError,
  SmtpAuthError,
  SmtpUnreachableError,
} from './mailer.ts';
export type { Mailer, MailerOptions, MailErrorCode, MailLogger, OutgoingMail, SentMail } from './mailer.ts';
export { DEFAULT_LIST_LIMIT, Outbox, OutboxMailer } from './outbox.ts';
export type { OutboxMessage, OutboxSummary } from './outbox.ts';
export { outboxMigration } from './outbox-migration.ts';
export type { MailStatus, MailTransport, OutboxMessagesTable } from './outbox-migration.ts';
export { SmtpMailer } from './smtp.ts';
export { DEFAULT_MAIL_FROM, DEFAULT_SMTP_TIMEOUT_MS } from './mailer.ts';
export type { SmtpMailerOptions } from './smtp.ts';

/** The mail settings, named as the service config names them. */
export interface MailSettings {
  /** `smtp://` or `smtps://` URL, credentials in it; unset: the local outbox. */
  smtpUrl: string | undefined;
  /** The From header; default `LAMIS <no-reply@localhost>`. */
  mailFrom?: string | undefined;
  smtpTimeoutMs?: number | undefined;
}

export function mailerFor(settings: MailSettings, database: Database, options: MailerOptions = {}): Mailer {
  if (!settings.smtpUrl) return new OutboxMailer(database, options);
  return new SmtpMailer(database, { ...options, url: settings.smtpUrl, from: settings.mailFrom, timeoutMs: settings.smtpTimeoutMs });
}
