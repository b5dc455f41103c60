// Outgoing mail: through SMTP when a server is configured, otherwise into the local outbox that
// `lamis mail list` / `lamis mail show` print. Either way every message has an outbox row.
import type { Database } from '../db/database.ts';
import type { PlatformSettings } from '../settings.ts';
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
export type { MailStatus, MailTransport, OutboxMessagesTable } from './outbox.table.ts';
export { SmtpMailer } from './smtp.ts';
export type { SmtpMailerOptions } from './smtp.ts';

/** The mail settings; without a From address or a timeout, their defaults apply. */
export type MailSettings = Pick<PlatformSettings, 'smtpUrl'> & Partial<Pick<PlatformSettings, 'mailFrom' | 'smtpTimeoutMs'>>;

export function mailerFor(settings: MailSettings, database: Database, options: MailerOptions = {}): Mailer {
  if (!settings.smtpUrl) return new OutboxMailer(database, options);
  return new SmtpMailer(database, { ...options, url: settings.smtpUrl, from: settings.mailFrom, timeoutMs: settings.smtpTimeoutMs });
}
