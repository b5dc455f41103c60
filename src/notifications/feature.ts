// The notifications feature: members' choices of how events reach them by e-mail, the mails of
// each change for those who want them at once, the hourly digest for the others, and the
// unsubscribe links of every mail. It listens to `events.changes`; the mails go through the
// platform mailer (SMTP_URL, or the local outbox). What was mailed is kept for the events' retention.
import type { MemberDirectory, MemberGuard } from '../accounts/index.ts';
import { eventChanges, type EventsSettings } from '../events/index.ts';
import type { Feature } from '../platform/feature.ts';
import { publicUrlOf } from '../platform/http/public-url.ts';
import { mailerFor } from '../platform/mail/index.ts';
import { keepFor } from '../platform/retention.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { DigestSender } from './digest.ts';
import type { MailLinks } from './mails.ts';
import { EventNotifier } from './notifier.ts';
import { registerNotificationRoutes } from './notifications.routes.ts';
import { pruneMailed } from './retention.ts';
import { PreferenceStore } from './preferences.ts';
import { UnsubscribeTokens } from './unsubscribe.ts';

/** `directory`: whom to mail in an organisation; `guard`: the accounts' guard of the organisation's path. */
export const notifications = (directory: MemberDirectory, guard: MemberGuard): Feature<PlatformSettings & EventsSettings> => async ({ app, config, database, bus, logger, masterKey }) => {
  const preferences = new PreferenceStore(database);
  const tokens = new UnsubscribeTokens(masterKey.key);
  const publicUrl = publicUrlOf(app, config);
  const links: MailLinks = {
    // The dashboard's page of the event.
    event: (eventId) => `${publicUrl()}/events/${encodeURIComponent(eventId)}`,
    unsubscribe: (userId, orgId, scope) => `${publicUrl()}/v3/notifications/unsubscribe?token=${tokens.issue({ userId, orgId, scope })}`,
  };
  const mail = { database, directory, preferences, mailer: mailerFor(config, database, { logger }), links, logger };
  registerNotificationRoutes(app, { guard, preferences, tokens });
  const notifier = new EventNotifier(mail);
  const digests = new DigestSender(mail);
  const unsubscribe = await bus.subscribe(eventChanges, (change) => notifier.receive(change));
  digests.start();
  const retention = keepFor(config.eventRetentionDays, 'notification lines and digests', (before) => pruneMailed(database, before), logger.child({ feature: 'notifications' }));
  app.addHook('onClose', async () => {
    await unsubscribe();
    await Promise.all([notifier.idle(), digests.close(), retention.stop()]);
  });
};
