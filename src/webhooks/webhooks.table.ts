// The rows of `webhooks` and `webhook_deliveries` (0018_webhooks). Times are ISO 8601 UTC text with
// milliseconds; lists are JSON text.

export interface WebhookRow {
  /** `whk_` and 16 base62 characters. */
  id: string;
  /** The organisation, or the API key for keys outside any. */
  org_id: string;
  url: string;
  /** JSON array of event kinds; null for every kind. */
  kinds: string | null;
  description: string | null;
  /** 1 or 0. */
  enabled: number;
  /** Why LAMIS disabled it (repeated failures); null when enabled or disabled by its owner. */
  disabled_reason: string | null;
  /** The signing secret (`whsec_…`), sealed under the master key. */
  secret_sealed: string;
  /** The secret before the last rotation, sealed, which signs too until `previous_secret_until`. */
  previous_secret_sealed: string | null;
  previous_secret_until: string | null;
  /** The last delivery answered with a 2xx. */
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryRow {
  /** `msg_` and 16 base62 characters: the `webhook-id` header, the same on every attempt. */
  id: string;
  webhook_id: string;
  org_id: string;
  /** The event kind, or `webhook.test`. */
  type: string;
  event_id: string | null;
  /** The signed body, exactly as sent on every attempt. */
  body: string;
  /** pending, retrying, delivered or failed. */
  status: string;
  attempts: number;
  /** When the next attempt is due; null once delivered or failed. */
  next_attempt_at: string | null;
  /** An instance has taken the due attempt until then; another takes it only once it passes. */
  lease_until: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    webhooks: WebhookRow;
    webhook_deliveries: WebhookDeliveryRow;
  }
}
