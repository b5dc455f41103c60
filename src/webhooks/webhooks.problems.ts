// The problem codes of the webhook routes.
import { problemType } from '../platform/http/problems.ts';
import { MAX_WEBHOOKS } from './webhooks.ts';

export const webhookNotFound = problemType({
  code: 'webhook_not_found',
  status: 404,
  title: 'No such webhook',
  description: 'No webhook with this id belongs to your organisation (or API key).',
});

export const webhookLimitReached = problemType({
  code: 'webhook_limit_reached',
  status: 409,
  title: 'Your organisation has as many webhooks as it may',
  description: `An organisation keeps at most ${MAX_WEBHOOKS} webhooks; remove one to add another.`,
});

export const webhookUrlNotAllowed = problemType({
  code: 'webhook_url_not_allowed',
  status: 422,
  title: 'Webhooks may not be sent to this URL',
  description: 'Webhooks go to https URLs on public addresses: not to loopback, private, link-local (cloud metadata), carrier-grade NAT, unique-local, multicast or reserved addresses. `errors[]` names `/body/url`.',
});
