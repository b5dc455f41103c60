// The webhooks feature's rows of the configuration table: whether endpoints may be on private
// networks, the retry schedule, the per-request timeout, how long a rotated secret keeps signing,
// how long a delivery may sit with a dead instance before another takes it over, and how long
// finished deliveries are kept. A leaf: the
// settings are read by every command that takes them, without loading the feature.
import { boolean, integer, setting, type Parse, type SettingsOf } from '../platform/config/index.ts';

/** Seconds, comma-separated, each above 0 (fractions allowed). */
const delays: Parse<number[]> = (raw) => {
  const values = raw.split(',').map((part) => part.trim());
  if (values.length > 0 && values.length <= 30 && values.every((value) => /^\d+(\.\d+)?$/.test(value) && Number(value) > 0)) {
    return { value: values.map(Number) };
  }
  return { error: 'must be 1 to 30 comma-separated numbers of seconds above 0' };
};

/** About 27.6 hours from the first attempt to the last, before jitter (which only lengthens it). */
export const DEFAULT_RETRY_DELAYS_SEC = [5, 60, 300, 1800, 7200, 18000, 36000, 36000];

export const WEBHOOKS_SETTINGS = [
  setting({ key: 'webhookAllowPrivate', env: 'LAMIS_WEBHOOK_ALLOW_PRIVATE', flag: 'webhook-allow-private', shown: 'false', defaultValue: false,
    parse: boolean,
    description: 'Let webhook endpoints use http and private, loopback and link-local addresses (on-premises installations and tests); off, only https to public addresses' }),
  setting({ key: 'webhookRetryDelaysSec', env: 'LAMIS_WEBHOOK_RETRY_DELAYS_SEC', flag: 'webhook-retry-delays-sec', shown: DEFAULT_RETRY_DELAYS_SEC.join(','),
    defaultValue: DEFAULT_RETRY_DELAYS_SEC, parse: delays,
    description: 'Seconds before each retry of a failed webhook delivery (each lengthened by up to 20 % of jitter, or to a 429\'s or 503\'s Retry-After); after the last, the delivery has failed' }),
  setting({ key: 'webhookTimeoutMs', env: 'LAMIS_WEBHOOK_TIMEOUT_MS', flag: 'webhook-timeout-ms', shown: '15000', defaultValue: 15_000,
    parse: integer(100, 60_000), description: 'How long one webhook request may take, answer included (milliseconds)' }),
  setting({ key: 'webhookSecretOverlapSec', env: 'LAMIS_WEBHOOK_SECRET_OVERLAP_SEC', flag: 'webhook-secret-overlap-sec', shown: '86400', defaultValue: 86_400,
    parse: integer(0, 30 * 86_400), description: 'After a webhook\'s secret is rotated, how long the old one keeps signing beside the new one (seconds)' }),
  setting({ key: 'webhookReclaimSec', env: 'LAMIS_WEBHOOK_RECLAIM_SEC', flag: 'webhook-reclaim-sec', shown: '60', defaultValue: 60,
    parse: integer(1, 3600),
    description: 'With REDIS_URL: how long a delivery handed to an instance may stay unconfirmed before another instance takes it over (seconds; keep it above the timeout)' }),
  setting({ key: 'webhookDeliveryRetentionDays', env: 'LAMIS_WEBHOOK_DELIVERY_RETENTION_DAYS', flag: 'webhook-delivery-retention-days', shown: '30', defaultValue: 30,
    parse: integer(1, 3650), description: 'How long a delivered or failed webhook delivery is kept, body and outcome, after it was made (days)' }),
] as const;

export type WebhooksSettings = SettingsOf<typeof WEBHOOKS_SETTINGS>;
