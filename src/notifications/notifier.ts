// From event changes to members' mailboxes. Every instance receives each change of `events.changes`
// (with Redis, all of them do), so each records the change for every member who wants it: one line
// per member, event, change and severity reached, inserted once across instances. The instance
// whose insert went in mails a member who wants changes at once; for a member who wants them
// hourly the line waits in that hour's digest (digest.ts). A cleared event is mailed only to the
// members who heard of the event before, each as they now want its severity. An event owned by an
// API key outside any organisation has no members, so nobody is mailed.
import type { EventChange } from '../events/index.ts';
import { changeMail, MAILED_CHANGES, type MailedChange, type MailingOptions } from './mails.ts';

const HOUR_MS = 3_600_000;

/** The first instant of the hour `at` falls in, as stored. */
export const hourOf = (at: Date): string => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();

const isMailed = (change: string): change is MailedChange => (MAILED_CHANGES as readonly string[]).includes(change);


export class EventNotifier {
  readonly #options: MailingOptions;
  readonly #now: () => Date;
  #handling: Promise<void> = Promise.resolve();

  constructor(options: MailingOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Takes a change from the bus; changes are handled one after another in the order they came,
   * so an event's clearing finds the lines of its opening.
   */
  receive(change: EventChange): void {
    this.#handling = this.#handling.then(() => this.handle(change)).catch((error: unknown) => {
      this.#options.logger.warn({ err: error, event_id: change.event.id }, 'event change not mailed');
    });
  }

  /** Resolves once every change received so far is handled. */
  idle(): Promise<void> {
    return this.#handling;
  }

  async handle({ org_id: orgId, change, event }: EventChange): Promise<void> {
    if (!isMailed(change)) return;
    const { database, directory, preferences, mailer, links, logger } = this.#options;
    const members = await directory.withVerifiedEmail(orgId);
    if (members.length === 0) return;
    const chosen = await preferences.of(orgId, members.map((member) => member.user_id));
    const heardOf = change === 'cleared' ? await this.#heardOf(orgId, event.id) : null;
    const now = this.#now();
    const hour = hourOf(now);
    for (const member of members) {
      if (heardOf && !heardOf.has(member.user_id)) continue;
      const delivery = chosen.get(member.user_id)![event.severity];
      if (delivery === 'off') continue;
      const recorded = await database.db.insertInto('notification_lines').values({
        org_id: orgId, user_id: member.user_id, event_id: event.id, change, severity: event.severity,
        delivery, hour, summary: event.summary, recorded_at: now.toISOString(),
      }).onConflict((oc) => oc.columns(['org_id', 'user_id', 'event_id', 'change', 'severity']).doNothing())
        .returning('user_id').executeTakeFirst();
      // Another instance recorded this change for this member first, and mails it.
      if (!recorded) continue;
      if (delivery === 'hourly') {
        await database.db.insertInto('notification_digests').values({ org_id: orgId, user_id: member.user_id, hour, sent_at: null })
          .onConflict((oc) => oc.columns(['org_id', 'user_id', 'hour']).doNothing()).execute();
        continue;
      }
      // A failure is recorded in the outbox (`lamis mail list`); the other members still get theirs.
      await mailer.send(changeMail(member, orgId, change, event, now.toISOString(), links)).catch((error: unknown) => {
        logger.warn({ err: error, event_id: event.id }, 'event mail not sent');
      });
    }
  }

  /** The members who had a line about the event. */
  async #heardOf(orgId: string, eventId: string): Promise<Set<string>> {
    const rows = await this.#options.database.db.selectFrom('notification_lines').select('user_id').distinct()
      .where('org_id', '=', orgId).where('event_id', '=', eventId).execute();
    return new Set(rows.map((row) => row.user_id));
  }
}
