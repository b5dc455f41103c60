// The outbox's rows (the platform's migration 0005_outbox makes the table): one for every message
// LAMIS sends, whichever transport carried it, so an operator can see what went out (`lamis mail
// list`). Bodies hold single-use links, so a row keeps them only while it is the one copy: always
// for the local outbox transport, and for SMTP only when sending failed. Times are ISO 8601 UTC
// text with milliseconds, so text order is time order.
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
