// The mail an organisation's owners and admins get when LAMIS disables one of its webhooks.
import type { OutgoingMail } from '../platform/mail/index.ts';
import type { WebhookRow } from './webhooks.table.ts';

export function disabledMail(to: string, webhook: WebhookRow, reason: string, publicUrl: string | undefined): OutgoingMail {
  const where = publicUrl ? `${publicUrl.replace(/\/$/, '')}/v3/webhooks/${webhook.id}` : `/v3/webhooks/${webhook.id}`;
  return {
    to,
    purpose: 'webhook_disabled',
    subject: `LAMIS stopped sending to your webhook ${webhook.url}`,
    text: [
      `LAMIS has disabled the webhook ${webhook.id} (${webhook.url}) of your organisation.`,
      '',
      reason,
      '',
      'No more events are sent to it. Deliveries already made wait and resume when it is enabled again:',
      `PATCH ${where} with {"enabled": true} once the endpoint answers again; POST ${where}/test checks it first.`,
    ].join('\n'),
  };
}
