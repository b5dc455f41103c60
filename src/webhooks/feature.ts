// The webhooks feature: endpoints over REST under /v3/webhooks, the outbox of deliveries written
// with every real event change (the events' transition hook), and the delivery of due attempts:
// by this instance from the table, or shared between instances through a Redis stream with
// REDIS_URL. Endpoints that keep failing are disabled and their organisation's owners and admins
// with a verified address told by mail. Finished deliveries are kept for their retention.
import type { MemberDirectory } from '../accounts/index.ts';
import { eventChanges, onEventTransition } from '../events/index.ts';
import { Envelope } from '../platform/crypto/index.ts';
import { storageName } from '../platform/db/database.ts';
import type { Feature } from '../platform/feature.ts';
import { mailerFor } from '../platform/mail/index.ts';
import { keepFor } from '../platform/retention.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { dueStream, streamDispatcher, tableDispatcher } from './dispatch.ts';
import { disabledMail } from './mails.ts';
import { WebhookSender } from './sender.ts';
import type { WebhooksSettings } from './settings.ts';
import { registerWebhookRoutes } from './webhooks.routes.ts';
import { WebhookStore } from './webhooks.ts';
import { DeliveryWorker } from './worker.ts';

/** `members`: whom to mail when an endpoint is disabled. */
export const webhooks = (members: MemberDirectory): Feature<PlatformSettings & WebhooksSettings> => async ({ app, config, database, bus, masterKey, logger }) => {
  const log = logger.child({ feature: 'webhooks' });
  const store = new WebhookStore(database, new Envelope(masterKey.key));
  const removeHook = onEventTransition(database, (trx, change) => store.enqueue(trx, change));
  const mailer = mailerFor(config, database, { logger: log });
  const sender = new WebhookSender(store, { allowPrivate: config.webhookAllowPrivate, timeoutMs: config.webhookTimeoutMs, logger: log });
  const worker = new DeliveryWorker({
    store, sender, retryDelaysSec: config.webhookRetryDelaysSec, logger: log,
    async onDisabled(webhook, reason) {
      // An API key outside any organisation has nobody to mail: the log line is all.
      for (const { email } of await members.withVerifiedEmail(webhook.org_id, ['owner', 'admin'])) {
        await mailer.send(disabledMail(email, webhook, reason, config.publicUrl)).catch((error: unknown) => log.warn({ err: error }, 'webhook mail not sent'));
      }
    },
  });
  const reclaimMs = config.webhookReclaimSec * 1000;
  // Long enough that an attempt handed out on the stream is taken over there before the table hands it out again.
  const leaseMs = config.webhookTimeoutMs + 2 * reclaimMs;
  const dispatcher = config.redisUrl
    ? await streamDispatcher({ store, worker, leaseMs, logger: log, redisUrl: config.redisUrl, reclaimMs, stream: dueStream(storageName(config)) })
    : tableDispatcher({ store, worker, leaseMs, logger: log });
  const unsubscribe = await bus.subscribe(eventChanges, () => dispatcher.kick());
  registerWebhookRoutes(app, { store, worker, allowPrivate: config.webhookAllowPrivate, secretOverlapSec: config.webhookSecretOverlapSec });
  const retention = keepFor(config.webhookDeliveryRetentionDays, 'webhook deliveries', (before) => store.prune(before), log);
  app.addHook('onClose', async () => {
    removeHook();
    await unsubscribe();
    await dispatcher.close();
    await retention.stop();
  });
};
