// The mails about events: one for a change a member wants at once, one digest of an hour's changes
// for a member who wants them hourly. Each carries the summary a person reads, a link to the event
// in the dashboard, and unsubscribe links, also as `List-Unsubscribe` headers with one-click
// unsubscribing (RFC 8058), so a mail client can offer it without opening a page.
import type { FastifyBaseLogger } from 'fastify';
import type { MemberAddress, MemberDirectory } from '../accounts/index.ts';
import type { LamisEvent, Severity } from '../events/index.ts';
import type { Database } from '../platform/db/database.ts';
import type { Mailer, OutgoingMail } from '../platform/mail/index.ts';
import type { PreferenceStore } from './preferences.ts';
import type { UnsubscribeScope } from './unsubscribe.ts';

/** The changes members hear of: an event that opened, rose in severity, or cleared after they heard of it. */
export const MAILED_CHANGES = ['opened', 'escalated', 'cleared'] as const;
export type MailedChange = (typeof MAILED_CHANGES)[number];

/** Where a mail's links point. */
export interface MailLinks {
  event(eventId: string): string;
  unsubscribe(userId: string, orgId: string, scope: UnsubscribeScope): string;
}

/** What sending the mails about events takes: whom to mail, what they chose, how, and the clock. */
export interface MailingOptions {
  database: Database;
  directory: MemberDirectory;
  preferences: PreferenceStore;
  mailer: Mailer;
  links: MailLinks;
  logger: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => Date;
}

/** One change as a digest lists it. */
export interface DigestLine {
  event_id: string;
  change: MailedChange;
  severity: Severity;
  summary: string;
  recorded_at: string;
}

const WHAT_HAPPENED: Record<MailedChange, (severity: Severity) => string> = {
  opened: (severity) => `New ${severity} event`,
  escalated: (severity) => `Escalated to ${severity}`,
  cleared: () => 'Cleared',
};

/** `2026-11-26 14:05 UTC` */
const minuteOf = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function unsubscribeHeaders(link: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

export function changeMail(member: MemberAddress, orgId: string, change: MailedChange, event: LamisEvent, at: string, links: MailLinks): OutgoingMail {
  const organisation = member.organisation_name;
  const stopSeverity = links.unsubscribe(member.user_id, orgId, event.severity);
  const headline = WHAT_HAPPENED[change](event.severity);
  return {
    to: member.email,
    purpose: 'event_notification',
    subject: `LAMIS ${organisation}: ${headline}: ${event.summary}`,
    text: [
      `Hello ${member.full_name},`,
      '',
      `${headline} for ${organisation} at ${minuteOf(at)}:`,
      '',
      `  ${event.summary}`,
      '',
      `Kind: ${event.kind}. Subject: ${event.subject.type} ${event.subject.id}.`,
      `See it in the LAMIS dashboard: ${links.event(event.id)}`,
      '',
      `You get ${event.severity} events of ${organisation} by e-mail as they happen. Change that in the dashboard's notification settings, or stop these mails:`,
      `  ${event.severity} events: ${stopSeverity}`,
      `  all events of ${organisation}: ${links.unsubscribe(member.user_id, orgId, 'all')}`,
    ].join('\n'),
    headers: unsubscribeHeaders(stopSeverity),
  };
}

export function digestMail(member: MemberAddress, orgId: string, hour: string, lines: readonly DigestLine[], links: MailLinks): OutgoingMail {
  const organisation = member.organisation_name;
  const stopAll = links.unsubscribe(member.user_id, orgId, 'all');
  const end = new Date(Date.parse(hour) + 3_600_000).toISOString();
  const count = lines.length === 1 ? '1 event change' : `${lines.length} event changes`;
  return {
    to: member.email,
    purpose: 'event_digest',
    subject: `LAMIS ${organisation}: ${count} from ${minuteOf(hour)} to ${end.slice(11, 16)} UTC`,
    text: [
      `Hello ${member.full_name},`,
      '',
      `What happened to the events of ${organisation} from ${minuteOf(hour)} to ${end.slice(11, 16)} UTC:`,
      '',
      ...lines.flatMap((line) => [
        `${line.recorded_at.slice(11, 16)}  ${WHAT_HAPPENED[line.change](line.severity)}: ${line.summary}`,
        `       ${links.event(line.event_id)}`,
      ]),
      '',
      `You get this digest once an hour when something happened. Change which severities it covers in the dashboard's notification settings, or stop all event mails of ${organisation}:`,
      `  ${stopAll}`,
    ].join('\n'),
    headers: unsubscribeHeaders(stopAll),
  };
}
