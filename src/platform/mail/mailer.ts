// What a feature sees of outgoing mail: one `send`, a record of every message in the outbox table,
// and typed errors that say whether the server was out of reach or refused the message. Message
// bodies carry single-use links: nothing here logs them or puts them in an error.
import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from './outbox.table.ts';

export interface OutgoingMail {
  /** One recipient address. */
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What kind of mail this is, e.g. `email_verification`; shown by `lamis mail list`. */
  purpose: string;
  /** More headers, e.g. `List-Unsubscribe`; sent over SMTP, not kept in the outbox. */
  headers?: Record<string, string>;
}

export interface SentMail {
  /** The message's row in the outbox (`lamis mail show ID`). */
  id: string;
  transport: MailTransport;
  /** When the SMTP server accepted the message, or when the local outbox stored it. */
  accepted_at: string;
}

export interface Mailer {
  readonly transport: MailTransport;
  /** Rejects with a MailError when the message did not go out; its outbox row then says why. */
  send(message: OutgoingMail): Promise<SentMail>;
}

/** Logs carry the message id, purpose and transport; never the recipient or the bodies. */
export type MailLogger = Pick<FastifyBaseLogger, 'info' | 'warn'>;

export interface MailerOptions {
  logger?: MailLogger;
  clock?: () => number;
}

export type MailErrorCode = 'smtp_unreachable' | 'smtp_auth_failed' | 'recipient_rejected' | 'message_rejected';

/** Sending failed; the message stays in the outbox, marked `failed` with this error's message. */
export class MailError extends Error {
  readonly code: MailErrorCode;
  /** The message's outbox row. */
  readonly outboxId: string;

  constructor(code: MailErrorCode, outboxId: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.outboxId = outboxId;
  }
}

/** No SMTP conversation: connection refused or cut, DNS or TLS failure, or a timeout. */
export class SmtpUnreachableError extends MailError {
  constructor(outboxId: string, message: string, options?: ErrorOptions) {
    super('smtp_unreachable', outboxId, message, options);
  }
}

/** The server refused the credentials from the SMTP URL (or wanted some and got none). */
export class SmtpAuthError extends MailError {
  constructor(outboxId: string, message: string, options?: ErrorOptions) {
    super('smtp_auth_failed', outboxId, message, options);
  }
}

export class RecipientRejectedError extends MailError {
  readonly recipient: string;
  /** The server's reply code, e.g. 550. */
  readonly responseCode: number | undefined;

  constructor(outboxId: string, recipient: string, responseCode: number | undefined, message: string, options?: ErrorOptions) {
    super('recipient_rejected', outboxId, message, options);
    this.recipient = recipient;
    this.responseCode = responseCode;
  }
}

/** The server answered but refused the message (sender, content, or a protocol error). */
export class MessageRejectedError extends MailError {
  constructor(outboxId: string, message: string, options?: ErrorOptions) {
    super('message_rejected', outboxId, message, options);
  }
}
