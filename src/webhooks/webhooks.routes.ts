// REST for webhooks under /v3/webhooks, for API keys: add (the signing secret is answered this
// once), list (cursor-paginated), read, change, remove, rotate the secret, send a test delivery
// and list the deliveries. A key acts for its whole organisation, or for itself outside any, as
// for events: another owner's webhook answers 404, exactly as one that does not exist.
import { Type } from 'typebox';
import { EVENT_KINDS, ownerOf } from '../events/index.ts';
import type { App } from '../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../platform/http/pagination.ts';
import { ProblemError } from '../platform/http/problems.ts';
import { invalidField, nullable, Shared } from '../platform/http/schema.ts';
import { urlRefusal } from './address-guard.ts';
import { webhookLimitReached, webhookNotFound, webhookUrlNotAllowed } from './webhooks.problems.ts';
import { DELIVERY_STATUSES, MAX_WEBHOOKS, TEST_TYPE, type ListKey, type WebhookStore } from './webhooks.ts';
import type { DeliveryWorker } from './worker.ts';

const TAG = 'Webhooks';

const FIELDS = {
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'Where deliveries are POSTed: an https URL on a public address' }),
  kinds: Type.Optional(Type.Array(Type.Enum([...EVENT_KINDS]), { maxItems: EVENT_KINDS.length, uniqueItems: true, description: 'The event kinds delivered; empty or absent for all' })),
  // Null first: the validator coerces types, and would make a null the empty string of a string branch tried before it.
  description: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 1000 })], { description: 'null clears it' })),
};
const NewWebhook = Shared('NewWebhook', Type.Object(FIELDS, { additionalProperties: false }));
const WebhookChanges = Shared('WebhookChanges', Type.Partial(Type.Object({
  ...FIELDS,
  enabled: Type.Boolean({ description: 'false stops deliveries; true resumes them (and clears `disabled_reason`)' }),
}), { additionalProperties: false }));

const webhookFields = {
  id: Type.String({ description: '`whk_` and 16 letters or digits' }),
  url: Type.String(),
  kinds: Type.Array(Type.Enum([...EVENT_KINDS]), { description: 'The event kinds delivered; empty for all' }),
  description: nullable(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: nullable(Type.String({ description: 'Why LAMIS disabled it: every delivery failing for a day, or the endpoint answering 410 Gone; null otherwise' })),
  previous_secret_expires_at: nullable(Type.String({ format: 'date-time', description: 'Until when the secret before the last rotation signs too' })),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};
const WebhookSchema = Shared('Webhook', Type.Object(webhookFields));
const WebhookWithSecret = Shared('WebhookWithSecret', Type.Object({
  ...webhookFields,
  secret: Type.String({ description: 'The signing secret, `whsec_` and base64: shown this once, keep it' }),
}));
const DeliverySchema = Shared('WebhookDelivery', Type.Object({
  id: Type.String({ description: 'The `webhook-id` header: `msg_` and 16 letters or digits, the same on every attempt' }),
  type: Type.String({ description: `The event kind, or \`${TEST_TYPE}\`` }),
  event_id: nullable(Type.String()),
  status: Type.Enum([...DELIVERY_STATUSES], { description: '`pending` before the first attempt, `retrying` after a failed one, then `delivered` or `failed`' }),
  attempts: Type.Integer(),
  last_attempt_at: nullable(Type.String({ format: 'date-time' })),
  last_status_code: nullable(Type.Integer({ description: 'The HTTP status of the last answer; null when there was none' })),
  last_latency_ms: nullable(Type.Integer()),
  last_error: nullable(Type.String({ description: 'Why the last attempt failed' })),
  next_attempt_at: nullable(Type.String({ format: 'date-time', description: 'When the next attempt is due: after the schedule\'s delay, or later when the last answer was a 429 or 503 whose Retry-After asked for longer' })),
  delivered_at: nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
}));

const IdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The webhook id' }) });

const isListKey = (key: unknown): key is ListKey =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

const notFound = (id: string) => new ProblemError(webhookNotFound, `No webhook ${id} for your organisation.`);

export interface WebhookRouteOptions {
  store: WebhookStore;
  worker: DeliveryWorker;
  allowPrivate: boolean;
  secretOverlapSec: number;
}

export function registerWebhookRoutes(app: App, { store, worker, allowPrivate, secretOverlapSec }: WebhookRouteOptions): void {
  /** The URL when webhooks may go there: 400 when it is no URL, 422 when it is one they may not reach. */
  const allowedUrl = (text: string): string => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalidField('/body/url', 'must be an absolute URL such as https://hooks.example.com/lamis');
    }
    const refusal = urlRefusal(url, allowPrivate);
    if (refusal) throw new ProblemError(webhookUrlNotAllowed, `/body/url ${refusal}`, { errors: [{ path: '/body/url', message: refusal }] });
    return url.toString();
  };

  app.get('/v3/webhooks', {
    schema: {
      summary: 'Your webhooks',
      description: 'By creation time (ties by id), cursor-paginated.',
      tags: [TAG],
      querystring: Type.Object(PageQuery),
      response: { 200: Page(WebhookSchema) },
    },
  }, async (request) => {
    const { limit, cursor } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isListKey);
    const page = await store.list(ownerOf(request.principal!), { limit: limit!, after });
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  app.post('/v3/webhooks', {
    schema: {
      summary: 'Add a webhook',
      description: `Every change of your events of the kinds chosen (opened, escalated, updated, acknowledged, cleared) is POSTed to the URL, signed by the Standard Webhooks scheme. 201 with the webhook and its signing \`secret\`, shown this once; 422 \`webhook_url_not_allowed\` for a URL webhooks may not reach; 409 \`webhook_limit_reached\` at ${MAX_WEBHOOKS} webhooks.`,
      tags: [TAG],
      body: NewWebhook,
      response: { 201: WebhookWithSecret },
    },
  }, async (request, reply) => {
    const created = await store.create(ownerOf(request.principal!), { ...request.body, url: allowedUrl(request.body.url) });
    if (!created) throw new ProblemError(webhookLimitReached, `Your organisation has ${MAX_WEBHOOKS} webhooks already.`);
    reply.code(201).header('Location', `/v3/webhooks/${created.webhook.id}`);
    return { ...created.webhook, secret: created.secret };
  });

  app.get('/v3/webhooks/:id', {
    schema: { summary: 'One webhook', description: 'Never its secret. 404 `webhook_not_found`.', tags: [TAG], params: IdParams, response: { 200: WebhookSchema } },
  }, async (request) => {
    const webhook = await store.get(ownerOf(request.principal!), request.params.id);
    if (!webhook) throw notFound(request.params.id);
    return webhook;
  });

  app.patch('/v3/webhooks/:id', {
    schema: {
      summary: 'Change a webhook',
      description: 'Only the fields sent change (url, kinds, description, enabled); empty `kinds` means all, a null description clears it. Enabling a webhook LAMIS disabled resumes its waiting deliveries. 404 `webhook_not_found`; 422 `webhook_url_not_allowed`.',
      tags: [TAG],
      params: IdParams,
      body: WebhookChanges,
      response: { 200: WebhookSchema },
    },
  }, async (request) => {
    const { url, ...rest } = request.body;
    const webhook = await store.update(ownerOf(request.principal!), request.params.id, { ...rest, ...(url === undefined ? {} : { url: allowedUrl(url) }) });
    if (!webhook) throw notFound(request.params.id);
    return webhook;
  });

  app.delete('/v3/webhooks/:id', {
    schema: { summary: 'Remove a webhook', description: 'With its deliveries, sent or not. 404 `webhook_not_found`.', tags: [TAG], params: IdParams, response: { 204: Type.Null({ description: 'Removed' }) } },
  }, async (request, reply) => {
    if (!(await store.delete(ownerOf(request.principal!), request.params.id))) throw notFound(request.params.id);
    return reply.code(204).send(null);
  });

  app.post('/v3/webhooks/:id/rotate-secret', {
    schema: {
      summary: 'Rotate the signing secret',
      description: 'A new secret, answered this once. The old one keeps signing beside it (two signatures in `webhook-signature`) until `previous_secret_expires_at` (`LAMIS_WEBHOOK_SECRET_OVERLAP_SEC`, 24 h by default), so receivers can switch without missing a delivery. 404 `webhook_not_found`.',
      tags: [TAG],
      params: IdParams,
      response: { 200: WebhookWithSecret },
    },
  }, async (request) => {
    const rotated = await store.rotateSecret(ownerOf(request.principal!), request.params.id, secretOverlapSec);
    if (!rotated) throw notFound(request.params.id);
    return { ...rotated.webhook, secret: rotated.secret };
  });

  app.post('/v3/webhooks/:id/test', {
    schema: {
      summary: 'Send a test delivery',
      description: `POSTs a signed \`${TEST_TYPE}\` delivery now, once (no retries), enabled or not, and answers how it went: \`delivered\` on a 2xx, else \`failed\` with the status and error. 404 \`webhook_not_found\`.`,
      tags: [TAG],
      params: IdParams,
      response: { 200: DeliverySchema },
    },
  }, async (request) => {
    const due = await store.testDelivery(ownerOf(request.principal!), request.params.id);
    if (!due) throw notFound(request.params.id);
    await worker.sendOnce(due);
    return (await store.delivery(due.delivery.id))!;
  });

  app.get('/v3/webhooks/:id/deliveries', {
    schema: {
      summary: 'The deliveries of a webhook',
      description: 'Newest first (ties by id), cursor-paginated: each with its status, attempts, the last answer\'s status, latency and error, and when the next attempt is due. A delivered or failed one is kept for the delivery retention (30 days by default) after it was made. 404 `webhook_not_found`.',
      tags: [TAG],
      params: IdParams,
      querystring: Type.Object(PageQuery),
      response: { 200: Page(DeliverySchema) },
    },
  }, async (request) => {
    const { limit, cursor } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isListKey);
    const page = await store.deliveries(ownerOf(request.principal!), request.params.id, { limit: limit!, after });
    if (!page) throw notFound(request.params.id);
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });
}
