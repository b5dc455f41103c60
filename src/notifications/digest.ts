// The hourly digest: once an hour has passed, each member with lines in it gets one mail listing
// them. A timer looks for digests due every minute; instances sharing storage all look, and the
// one whose update sets `sent_at` (where it was still null) sends it, so each digest goes out
// once. A failure to send is recorded in the outbox (`lamis mail list`) and not retried. Lines of
// a severity the member has since turned off are left out; a member who left the organisation or
// whose address is no longer verified gets nothing.
import type { Severity } from '../events/index.ts';
import { digestMail, type DigestLine, type MailedChange, type MailingOptions } from './mails.ts';
import { hourOf } from './notifier.ts';

export const DIGEST_CHECK_MS = 60_000;
/** Digests claimed per look; the next look takes the rest. */
const DUE_BATCH = 100;


export class DigestSender {
  readonly #options: MailingOptions;
  readonly #now: () => Date;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();

  constructor(options: MailingOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  start(): void {
    this.#timer = setInterval(() => {
      this.#running = this.#running.then(() => this.sendDue()).catch((error: unknown) => {
        this.#options.logger.warn({ err: error }, 'digests not sent');
      });
    }, DIGEST_CHECK_MS);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** Sends the digests of the hours that have passed; answers how many this instance sent. */
  async sendDue(): Promise<number> {
    const { database } = this.#options;
    const now = this.#now();
    const due = await database.db.selectFrom('notification_digests').select(['org_id', 'user_id', 'hour'])
      .where('sent_at', 'is', null).where('hour', '<', hourOf(now)).orderBy('hour').limit(DUE_BATCH).execute();
    let sent = 0;
    for (const digest of due) {
      const claimed = await database.db.updateTable('notification_digests').set({ sent_at: now.toISOString() })
        .where('org_id', '=', digest.org_id).where('user_id', '=', digest.user_id).where('hour', '=', digest.hour)
        .where('sent_at', 'is', null).returning('hour').executeTakeFirst();
      if (claimed && (await this.#send(digest.org_id, digest.user_id, digest.hour))) sent += 1;
    }
    return sent;
  }

  async #send(orgId: string, userId: string, hour: string): Promise<boolean> {
    const { database, directory, preferences, mailer, links, logger } = this.#options;
    const member = (await directory.withVerifiedEmail(orgId)).find((candidate) => candidate.user_id === userId);
    if (!member) return false;
    const chosen = await preferences.get(orgId, userId);
    const rows = await database.db.selectFrom('notification_lines').select(['event_id', 'change', 'severity', 'summary', 'recorded_at'])
      .where('org_id', '=', orgId).where('user_id', '=', userId).where('hour', '=', hour).where('delivery', '=', 'hourly')
      .orderBy('recorded_at').orderBy('event_id').execute();
    const lines: DigestLine[] = rows
      .map((row) => ({ ...row, change: row.change as MailedChange, severity: row.severity as Severity }))
      .filter((line) => chosen[line.severity] !== 'off');
    if (lines.length === 0) return false;
    try {
      await mailer.send(digestMail(member, orgId, hour, lines, links));
      return true;
    } catch (error) {
      logger.warn({ err: error }, 'event digest not sent');
      return false;
    }
  }
}
