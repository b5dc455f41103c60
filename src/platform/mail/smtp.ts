// Sending through an SMTP server (nodemailer). Every message gets an outbox row first; once the
// server accepts it the row keeps only its metadata, since the bodies now sit in the recipient's
// mailbox and a copy here would be one more place to steal a single-use link from. When sending
// fails the row keeps the bodies, marked `failed` with the reason: it is then the only copy.
import type { NodemailerError, SMTPTransportOptions, Transporter } from 'nodemailer';
import type { Database } from '../db/database.ts';
import { DEFAULT_MAIL_FROM, DEFAULT_SMTP_TIMEOUT_MS } from '../settings.ts';
import {
  MessageRejectedError,
  RecipientRejectedError,
  SmtpAuthError,
  SmtpUnreachableError,
  type MailError,
  type Mailer,
  type MailerOptions,
  type MailLogger,
  type OutgoingMail,
  type SentMail,
} from './mailer.ts';
import { queueMessage } from './outbox.ts';


export interface SmtpMailerOptions extends MailerOptions {
  /** `smtp://[user:password@]host[:port]` (STARTTLS when offered) or `smtps://...` (TLS from the start). */
  url: string;
  /** The From header, e.g. `LAMIS <no-reply@example.com>`. */
  from?: string;
  /** Longest wait for the connection, the greeting and each reply (milliseconds). */
  timeoutMs?: number;
}

/** Nodemailer codes for failures before or outside an SMTP reply. */
const UNREACHABLE_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EPROXY']);

function classify(error: NodemailerError, outboxId: string, recipient: string): MailError {
  const reply = error.response ?? error.message;
  const options = { cause: error };
  // 530: the server wants authentication and the URL gave no credentials (RFC 4954).
  if (error.code === 'EAUTH' || error.code === 'ENOAUTH' || error.responseCode === 530) {
    return new SmtpAuthError(outboxId, `SMTP authentication failed: ${reply}`, options);
  }
  if (error.code === 'EENVELOPE' && error.command === 'RCPT TO') {
    return new RecipientRejectedError(outboxId, recipient, error.responseCode, `recipient rejected: ${reply}`, options);
  }
  if (error.code !== undefined && UNREACHABLE_CODES.has(error.code)) {
    return new SmtpUnreachableError(outboxId, `SMTP server unreachable: ${error.message}`, options);
  }
  return new MessageRejectedError(outboxId, `SMTP server refused the message: ${reply}`, options);
}

/** Transport options from the URL; throws without echoing the URL, which may hold a password. */
function transportOptions(url: string, timeoutMs: number): SMTPTransportOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('the SMTP URL is not a URL');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new TypeError('the SMTP URL must start with smtp:// or smtps://');
  }
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    // Without a port nodemailer picks 587 for smtp and 465 for smtps.
    port: parsed.port ? Number(parsed.port) : undefined,
    secure: parsed.protocol === 'smtps:',
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // Nodemailer's logger with `debug` would print the DATA, bodies included.
    logger: false,
    debug: false,
  };
}

/** The domain of the From address, for Message-IDs. */
function fromDomain(from: string): string {
  return /@([^@>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

export class SmtpMailer implements Mailer {
  readonly transport = 'smtp';
  readonly #database: Database;
  readonly #transportOptions: SMTPTransportOptions;
  readonly #from: string;
  /** Made on the first message: nodemailer is loaded only by an instance that sends through SMTP. */
  #transporter: Promise<Transporter> | undefined;
  readonly #domain: string;
  readonly #logger: MailLogger | undefined;
  readonly #clock: () => number;

  constructor(database: Database, options: SmtpMailerOptions) {
    const from = options.from ?? DEFAULT_MAIL_FROM;
    this.#database = database;
    this.#transportOptions = transportOptions(options.url, options.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS);
    this.#from = from;
    this.#domain = fromDomain(from);
    this.#logger = options.logger;
    this.#clock = options.clock ?? Date.now;
  }

  async send(message: OutgoingMail): Promise<SentMail> {
    const db = this.#database.db;
    const id = await queueMessage(this.#database, message, 'smtp', new Date(this.#clock()).toISOString(), false);
    const detail = { mail_id: id, purpose: message.purpose, transport: 'smtp' };
    this.#transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(this.#transportOptions, { from: this.#from }));
    try {
      await (await this.#transporter).sendMail({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        // The outbox id in the Message-ID lets an operator find the message in the server's logs.
        messageId: `<${id}@${this.#domain}>`,
        // RFC 3834: keeps vacation responders from answering a no-reply address.
        headers: { ...message.headers, 'Auto-Submitted': 'auto-generated' },
      });
    } catch (error) {
      const failure = classify(error as NodemailerError, id, message.to);
      await db
        .updateTable('outbox_messages')
        .set({ status: 'failed', error: failure.message, text: message.text, html: message.html ?? null })
        .where('id', '=', id)
        .execute();
      this.#logger?.warn({ ...detail, code: failure.code, error: failure.message }, 'mail not sent; kept in the outbox as failed');
      throw failure;
    }
    const sentAt = new Date(this.#clock()).toISOString();
    await db.updateTable('outbox_messages').set({ status: 'sent', sent_at: sentAt }).where('id', '=', id).execute();
    this.#logger?.info(detail, 'mail sent');
    return { id, transport: 'smtp', accepted_at: sentAt };
  }
}
