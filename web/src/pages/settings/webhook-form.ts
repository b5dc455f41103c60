// What the webhook pages send and show, kept apart from the pages so it is tested without a browser:
// the form's values and the body made of them (a change sends only what changed), the event kinds
// in groups for the checkboxes, and a delivery's status as a badge tone.
import type { OperationResponse } from '@lamis/sdk';
import type { Tone } from '../../app/ui/basics.tsx';
import { EVENT_KINDS, KIND_WORDS, type EventKind } from '../alerts/alerts-model.ts';

export type Webhook = OperationResponse<'GET /v3/webhooks/{id}'>;
export type Delivery = OperationResponse<'GET /v3/webhooks/{id}/deliveries'>['data'][number];
export type DeliveryStatus = Delivery['status'];

export interface WebhookForm {
  url: string;
  description: string;
  /** Empty: every kind, now and those LAMIS adds later. */
  kinds: EventKind[];
}

export const EMPTY_WEBHOOK_FORM: WebhookForm = { url: '', description: '', kinds: [] };

export function formFromWebhook(webhook: Webhook): WebhookForm {
  return { url: webhook.url, description: webhook.description ?? '', kinds: [...webhook.kinds] };
}

/** The body of `POST /v3/webhooks`: a blank description is left out. */
export function newWebhookBody(form: WebhookForm): { url: string; kinds: EventKind[]; description?: string } {
  const description = form.description.trim();
  return { url: form.url.trim(), kinds: sortedKinds(form.kinds), ...(description ? { description } : {}) };
}

/** The body of `PATCH /v3/webhooks/{id}`: only what differs from the webhook; a blank description clears it. */
export function webhookChanges(form: WebhookForm, webhook: Webhook): { url?: string; kinds?: EventKind[]; description?: string | null } {
  const changes: { url?: string; kinds?: EventKind[]; description?: string | null } = {};
  const url = form.url.trim();
  if (url !== webhook.url) changes.url = url;
  const kinds = sortedKinds(form.kinds);
  if (kinds.join() !== sortedKinds(webhook.kinds).join()) changes.kinds = kinds;
  const description = form.description.trim() || null;
  if (description !== webhook.description) changes.description = description;
  return changes;
}

/** In the order the API lists them, so a form's choice compares with the webhook's. */
function sortedKinds(kinds: readonly EventKind[]): EventKind[] {
  return EVENT_KINDS.filter((kind) => kinds.includes(kind));
}

const GROUP_OF: Record<string, string> = { landing: 'Landing', airport: 'Landing', vessel: 'Vessels and ports', port: 'Vessels and ports', feed: 'Data feeds' };

/** The kinds under a heading each, for the checkboxes. */
export const KIND_GROUPS: { title: string; kinds: EventKind[] }[] = Object.values(
  EVENT_KINDS.reduce<Record<string, { title: string; kinds: EventKind[] }>>((groups, kind) => {
    const title = GROUP_OF[kind.split('.')[0]!] ?? 'Other';
    (groups[title] ??= { title, kinds: [] }).kinds.push(kind);
    return groups;
  }, {}),
);

/** `All events`, the one kind's words, or how many of them. */
export function kindsSummary(kinds: readonly EventKind[]): string {
  if (kinds.length === 0) return 'All events';
  if (kinds.length === 1) return KIND_WORDS[kinds[0]!];
  return `${kinds.length} kinds of event`;
}

export const DELIVERY_TONES: Record<DeliveryStatus, Tone> = { pending: 'neutral', retrying: 'warn', delivered: 'ok', failed: 'bad' };

/** Whether the log may still change by itself: an attempt is due. */
export function deliveriesUnderway(deliveries: readonly Delivery[]): boolean {
  return deliveries.some((delivery) => delivery.status === 'pending' || delivery.status === 'retrying');
}
