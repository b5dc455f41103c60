// Webhook endpoints and the outbox of their deliveries. An endpoint belongs to an owner (an
// organisation, or an API key outside any) and every query is scoped to it: another owner's
// endpoint is indistinguishable from none. Its signing secret is shown once, when made or rotated,
// and kept sealed under the master key.
//
// Deliveries are rows: one per endpoint and real event change, written in the transaction of the
// change (`enqueue`, installed as the events' transition hook), so a change that rolls back leaves
// none and a committed one always has its rows. Each row is an attempt schedule: `next_attempt_at`
// says when the next attempt is due, and `lease_until` marks it taken by one instance (`claimDue`)
// so no two instances make the same attempt; an instance that dies loses its lease when it passes.
// An attempt is recorded only against the attempt number it was taken for, so a late duplicate
// records nothing.
import type { Kysely } from 'kysely';
import type { EventChange, EventKind } from '../events/index.ts';
import type { Envelope } from '../platform/crypto/index.ts';
import type { Database, Tables } from '../platform/db/database.ts';
import { newId } from '../platform/ids.ts';
import { newSecret } from './signing.ts';
import type { WebhookDeliveryRow, WebhookRow } from './webhooks.table.ts';

export const MAX_WEBHOOKS = 100;

/** The type of the deliveries `POST /v3/webhooks/{id}/test` sends. */
export const TEST_TYPE = 'webhook.test';

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface Webhook {
  id: string;
  url: string;
  /** The event kinds delivered; empty for all. */
  kinds: EventKind[];
  description: string | null;
  enabled: boolean;
  /** Why LAMIS disabled it; null otherwise. */
  disabled_reason: string | null;
  /** Until when the secret before the last rotation signs too; null when it no longer does. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookInput {
  url: string;
  kinds?: EventKind[];
  description?: string | null;
}

export type WebhookPatch = Partial<WebhookInput> & { enabled?: boolean };

export interface Delivery {
  id: string;
  type: string;
  event_id: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** What one attempt came to: `ok` for a 2xx. */
export interface AttemptOutcome {
  ok: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  /** A 429's or 503's Retry-After (at most an hour), which the next attempt waits for at least; else null. */
  retry_after_ms: number | null;
}

/** An endpoint's due delivery, with what sending it takes. */
export interface DueDelivery {
  delivery: WebhookDeliveryRow;
  webhook: WebhookRow;
}

/** Sort key of the lists: creation time, then id. */
export type ListKey = readonly [created_at: string, id: string];

const sealContext = (owner: string, id: string) => `webhooks.secret:${owner}:${id}`;

function webhookOf(row: WebhookRow, now: string): Webhook {
  return {
    id: row.id,
    url: row.url,
    kinds: row.kinds === null ? [] : JSON.parse(row.kinds),
    description: row.description,
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: row.previous_secret_until !== null && row.previous_secret_until > now ? row.previous_secret_until : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function deliveryOf(row: WebhookDeliveryRow): Delivery {
  return {
    id: row.id,
    type: row.type,
    event_id: row.event_id,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    last_attempt_at: row.last_attempt_at,
    last_status_code: row.last_status_code,
    last_latency_ms: row.last_latency_ms,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at,
    delivered_at: row.delivered_at,
    created_at: row.created_at,
  };
}

/** The rows of `query`, `limit` after `after` in creation order; `next` is null on the last page. */
function pageOf<R extends { created_at: string; id: string }, T>(rows: R[], limit: number, map: (row: R) => T) {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data: data.map(map), next: rows.length > limit && last ? ([last.created_at, last.id] as ListKey) : null };
}

export class WebhookStore {
  readonly #db: Kysely<Tables>;
  readonly #envelope: Envelope;
  readonly #now: () => Date;

  constructor(database: Database, envelope: Envelope, now: () => Date = () => new Date()) {
    this.#db = database.db;
    this.#envelope = envelope;
    this.#now = now;
  }

  /** The endpoint and its secret, shown this once; null when the owner has MAX_WEBHOOKS already. */
  async create(owner: string, input: WebhookInput): Promise<{ webhook: Webhook; secret: string } | null> {
    const now = this.#now().toISOString();
    const id = newId('whk');
    const secret = newSecret();
    const row: WebhookRow = {
      id, org_id: owner, url: input.url, kinds: input.kinds?.length ? JSON.stringify(input.kinds) : null,
      description: input.description ?? null, enabled: 1, disabled_reason: null,
      secret_sealed: this.#envelope.seal(secret, sealContext(owner, id)), previous_secret_sealed: null, previous_secret_until: null,
      last_success_at: null, created_at: now, updated_at: now,
    };
    const { count } = await this.#db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number | string>().as('count')).where('org_id', '=', owner).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_WEBHOOKS) return null;
    await this.#db.insertInto('webhooks').values(row).execute();
    return { webhook: webhookOf(row, now), secret };
  }

  async get(owner: string, id: string): Promise<Webhook | null> {
    const row = await this.#row(owner, id);
    return row ? webhookOf(row, this.#now().toISOString()) : null;
  }

  async list(owner: string, options: { limit: number; after?: ListKey }): Promise<{ data: Webhook[]; next: ListKey | null }> {
    let query = this.#db.selectFrom('webhooks').selectAll().where('org_id', '=', owner);
    const after = options.after;
    if (after) query = query.where((eb) => eb.or([eb('created_at', '>', after[0]), eb.and([eb('created_at', '=', after[0]), eb('id', '>', after[1])])]));
    const rows = await query.orderBy('created_at').orderBy('id').limit(options.limit + 1).execute();
    const now = this.#now().toISOString();
    return pageOf(rows, options.limit, (row) => webhookOf(row, now));
  }

  /** Changes the fields given; enabling clears why LAMIS disabled it. Null when the owner has no such endpoint. */
  async update(owner: string, id: string, patch: WebhookPatch): Promise<Webhook | null> {
    const now = this.#now().toISOString();
    const changes: Partial<WebhookRow> = { updated_at: now };
    if (patch.url !== undefined) changes.url = patch.url;
    if (patch.kinds !== undefined) changes.kinds = patch.kinds.length ? JSON.stringify(patch.kinds) : null;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.enabled !== undefined) {
      changes.enabled = patch.enabled ? 1 : 0;
      changes.disabled_reason = null;
    }
    const row = await this.#db.updateTable('webhooks').set(changes).where('org_id', '=', owner).where('id', '=', id).returningAll().executeTakeFirst();
    return row ? webhookOf(row, now) : null;
  }

  /** Removes the endpoint and its deliveries; false when the owner has no such endpoint. */
  async delete(owner: string, id: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_deliveries').where('org_id', '=', owner).where('webhook_id', '=', id).execute();
      const deleted = await trx.deleteFrom('webhooks').where('org_id', '=', owner).where('id', '=', id).executeTakeFirst();
      return deleted.numDeletedRows > 0n;
    });
  }

  /**
   * A new secret, shown this once; the current one keeps signing beside it for `overlapSec`. Null
   * when the owner has no such endpoint.
   */
  async rotateSecret(owner: string, id: string, overlapSec: number): Promise<{ webhook: Webhook; secret: string } | null> {
    const row = await this.#row(owner, id);
    if (!row) return null;
    const now = this.#now();
    const secret = newSecret();
    const updated = await this.#db.updateTable('webhooks').set({
      secret_sealed: this.#envelope.seal(secret, sealContext(owner, id)),
      previous_secret_sealed: row.secret_sealed,
      previous_secret_until: new Date(now.getTime() + overlapSec * 1000).toISOString(),
      updated_at: now.toISOString(),
    }).where('org_id', '=', owner).where('id', '=', id).where('secret_sealed', '=', row.secret_sealed).returningAll().executeTakeFirst();
    // Rotated by someone else in between: this rotation is not made, the caller may try again.
    return updated ? { webhook: webhookOf(updated, now.toISOString()), secret } : this.rotateSecret(owner, id, overlapSec);
  }

  /** The secrets that sign the endpoint's requests now: the current one, then a rotated one still in its overlap. */
  signingSecrets(webhook: WebhookRow): string[] {
    const open = (sealed: string) => this.#envelope.open(sealed, sealContext(webhook.org_id, webhook.id)).toString('utf8');
    const previous = webhook.previous_secret_sealed !== null && webhook.previous_secret_until !== null
      && webhook.previous_secret_until > this.#now().toISOString() ? [open(webhook.previous_secret_sealed)] : [];
    return [open(webhook.secret_sealed), ...previous];
  }

  /** The endpoint's deliveries, newest first; null when the owner has no such endpoint. */
  async deliveries(owner: string, id: string, options: { limit: number; after?: ListKey }): Promise<{ data: Delivery[]; next: ListKey | null } | null> {
    if (!(await this.#row(owner, id))) return null;
    let query = this.#db.selectFrom('webhook_deliveries').selectAll().where('org_id', '=', owner).where('webhook_id', '=', id);
    const after = options.after;
    if (after) query = query.where((eb) => eb.or([eb('created_at', '<', after[0]), eb.and([eb('created_at', '=', after[0]), eb('id', '<', after[1])])]));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit + 1).execute();
    return pageOf(rows, options.limit, deliveryOf);
  }

  /** Deletes the deliveries made before `before` that are over (delivered or failed); those still being tried stay. */
  async prune(before: Date): Promise<{ deliveries: number }> {
    const deleted = await this.#db.deleteFrom('webhook_deliveries').where('status', 'in', ['delivered', 'failed'])
      .where('created_at', '<', before.toISOString()).executeTakeFirst();
    return { deliveries: Number(deleted.numDeletedRows) };
  }

  /**
   * The outbox: a pending delivery, due now, for each enabled endpoint of the change's owner that
   * takes its kind, written through the change's transaction.
   */
  async enqueue(trx: Kysely<Tables>, change: EventChange): Promise<void> {
    const endpoints = await trx.selectFrom('webhooks').select(['id', 'kinds']).where('org_id', '=', change.org_id).where('enabled', '=', 1).execute();
    const now = this.#now().toISOString();
    const body = JSON.stringify({ type: change.event.kind, timestamp: now, data: { change: change.change, event: change.event } });
    const rows = endpoints.filter((endpoint) => endpoint.kinds === null || (JSON.parse(endpoint.kinds) as string[]).includes(change.event.kind))
      .map((endpoint): WebhookDeliveryRow => ({
        ...blankDelivery(now), id: newId('msg'), webhook_id: endpoint.id, org_id: change.org_id, type: change.event.kind,
        event_id: change.event.id, body, status: 'pending', next_attempt_at: now,
      }));
    if (rows.length) await trx.insertInto('webhook_deliveries').values(rows).execute();
  }

  /** A `webhook.test` delivery of the endpoint, for sending at once (no attempt is due): null when the owner has no such endpoint. */
  async testDelivery(owner: string, id: string): Promise<DueDelivery | null> {
    const webhook = await this.#row(owner, id);
    if (!webhook) return null;
    const now = this.#now().toISOString();
    const delivery: WebhookDeliveryRow = {
      ...blankDelivery(now), id: newId('msg'), webhook_id: id, org_id: owner, type: TEST_TYPE, status: 'pending',
      body: JSON.stringify({ type: TEST_TYPE, timestamp: now, data: { webhook_id: id, message: 'A test delivery from LAMIS.' } }),
    };
    await this.#db.insertInto('webhook_deliveries').values(delivery).execute();
    return { delivery, webhook };
  }

  /**
   * Takes up to `limit` due attempts of enabled endpoints for `leaseMs`, each for this caller
   * alone: the deliveries' ids with the attempt number taken.
   */
  async claimDue(leaseMs: number, limit: number): Promise<{ id: string; attempt: number }[]> {
    const now = this.#now();
    const nowText = now.toISOString();
    const due = await this.#db.selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .select(['webhook_deliveries.id', 'webhook_deliveries.attempts'])
      .where('webhooks.enabled', '=', 1)
      .where('webhook_deliveries.next_attempt_at', '<=', nowText)
      .where((eb) => eb.or([eb('webhook_deliveries.lease_until', 'is', null), eb('webhook_deliveries.lease_until', '<', nowText)]))
      .orderBy('webhook_deliveries.next_attempt_at').limit(limit).execute();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const claimed: { id: string; attempt: number }[] = [];
    for (const { id, attempts } of due) {
      const taken = await this.#db.updateTable('webhook_deliveries').set({ lease_until: leaseUntil })
        .where('id', '=', id).where('attempts', '=', attempts)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowText)])).executeTakeFirst();
      if (taken.numUpdatedRows > 0n) claimed.push({ id, attempt: attempts });
    }
    return claimed;
  }

  /** The delivery when its attempt `attempt` is still to be made and its endpoint enabled; else null (made already, or no longer wanted). */
  async dueAttempt(id: string, attempt: number): Promise<DueDelivery | null> {
    const delivery = await this.#db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('attempts', '=', attempt)
      .where('next_attempt_at', 'is not', null).executeTakeFirst();
    if (!delivery) return null;
    const webhook = await this.#db.selectFrom('webhooks').selectAll().where('id', '=', delivery.webhook_id).where('enabled', '=', 1).executeTakeFirst();
    return webhook ? { delivery, webhook } : null;
  }

  /**
   * Records attempt `attempt` of the delivery: delivered on a 2xx, else retried at `retryAt` or,
   * without one, failed. False when that attempt was recorded already (a duplicate made it too).
   */
  async recordAttempt(delivery: WebhookDeliveryRow, attempt: number, outcome: AttemptOutcome, retryAt: Date | null): Promise<boolean> {
    const now = this.#now().toISOString();
    const status: DeliveryStatus = outcome.ok ? 'delivered' : retryAt ? 'retrying' : 'failed';
    const recorded = await this.#db.updateTable('webhook_deliveries').set({
      status, attempts: attempt + 1, next_attempt_at: outcome.ok || !retryAt ? null : retryAt.toISOString(), lease_until: null,
      last_attempt_at: now, last_status_code: outcome.status_code, last_latency_ms: outcome.latency_ms, last_error: outcome.error,
      delivered_at: outcome.ok ? now : null,
    }).where('id', '=', delivery.id).where('attempts', '=', attempt).executeTakeFirst();
    if (recorded.numUpdatedRows === 0n) return false;
    if (outcome.ok) await this.#db.updateTable('webhooks').set({ last_success_at: now }).where('id', '=', delivery.webhook_id).execute();
    return true;
  }

  /** The delivery as listed. */
  async delivery(id: string): Promise<Delivery | null> {
    const row = await this.#db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? deliveryOf(row) : null;
  }

  /**
   * Disables the endpoint for `reason` when nothing was delivered to it since `since` (it has been
   * failing all along); true for the one caller that disabled it.
   */
  async disableIfFailingSince(webhookId: string, since: string, reason: string): Promise<boolean> {
    const disabled = await this.#db.updateTable('webhooks').set({ enabled: 0, disabled_reason: reason, updated_at: this.#now().toISOString() })
      .where('id', '=', webhookId).where('enabled', '=', 1)
      .where((eb) => eb.or([eb('last_success_at', 'is', null), eb('last_success_at', '<', since)]))
      .executeTakeFirst();
    return disabled.numUpdatedRows > 0n;
  }

  async #row(owner: string, id: string): Promise<WebhookRow | undefined> {
    return this.#db.selectFrom('webhooks').selectAll().where('org_id', '=', owner).where('id', '=', id).executeTakeFirst();
  }
}

function blankDelivery(now: string) {
  return {
    event_id: null, attempts: 0, next_attempt_at: null, lease_until: null, last_attempt_at: null, last_status_code: null,
    last_latency_ms: null, last_error: null, delivered_at: null, created_at: now,
  };
}
