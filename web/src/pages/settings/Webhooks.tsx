// Webhooks: add an endpoint (its signing secret shown this once, with a copy button), and the
// organisation's endpoints with what each receives and whether deliveries run. Each opens its own
// page for changes, a test send and the delivery log. The routes take an API key, so the page
// calls them with this dashboard's key, as the data pages do.
import { useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { useMembership } from '../../api/session.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { Button, EmptyState, ErrorMessage, Loading, Section } from '../../app/ui/basics.tsx';
import { useSubmit } from '../../app/ui/forms.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { SettingsFrame } from './SettingsFrame.tsx';
import { EMPTY_WEBHOOK_FORM, kindsSummary, newWebhookBody, type Webhook, type WebhookForm } from './webhook-form.ts';
import { WebhookFields, WebhookSecret, webhookState } from './WebhookFields.tsx';

function AddWebhook({ onAdded }: { onAdded: (webhook: Webhook, secret: string) => void }) {
  const [form, setForm] = useState<WebhookForm>(EMPTY_WEBHOOK_FORM);
  const submit = useSubmit(async () => {
    const { secret, ...webhook } = await data('POST /v3/webhooks', { body: newWebhookBody(form) });
    setForm(EMPTY_WEBHOOK_FORM);
    onAdded(webhook, secret);
  });
  return (
    <form class="form form-wide" onSubmit={submit.onSubmit} noValidate aria-label="Add a webhook">
      <ErrorMessage error={submit.error} inFields />
      <WebhookFields form={form} onForm={setForm} errors={submit.fields} />
      <div class="button-row"><Button type="submit" variant="primary" busy={submit.busy}>Add webhook</Button></div>
    </form>
  );
}

export default function WebhooksPage() {
  const membership = useMembership();
  const [shown, setShown] = useState<{ url: string; secret: string } | null>(null);
  const webhooks = useAsync((signal) => data('GET /v3/webhooks', { query: { limit: 100 } }, { signal }), [membership?.org_id]);
  return (
    <SettingsFrame>
      {shown && <WebhookSecret title={`Signing secret of ${shown.url}`} secret={shown.secret} onDone={() => setShown(null)} />}
      <Section title="Add a webhook" id="add-webhook">
        <p class="muted">LAMIS sends your organisation's events (alerts opened, escalated, updated, acknowledged and cleared) to an HTTPS endpoint of yours as they happen, and tries again for about a day when it does not answer 2xx.</p>
        <AddWebhook onAdded={(webhook, secret) => {
          setShown({ url: webhook.url, secret });
          webhooks.reload();
        }} />
      </Section>
      <Section title="Webhooks" id="webhooks">
        <ErrorMessage error={webhooks.error} />
        {webhooks.loading && !webhooks.data ? <Loading /> : webhooks.data && (
          <DataTable<Webhook>
            caption={`Webhooks of ${membership?.name ?? 'your organisation'}`}
            captionHidden
            rows={webhooks.data.data}
            rowKey={(webhook) => webhook.id}
            empty={<EmptyState title="No webhooks yet">Add one above to receive events in your own systems.</EmptyState>}
            columns={[
              {
                header: 'Endpoint',
                cell: (webhook) => (
                  <div>
                    <a class="webhook-url" href={`/settings/webhooks/${webhook.id}`}>{webhook.url}</a>
                    {webhook.description && <div class="small muted">{webhook.description}</div>}
                  </div>
                ),
              },
              { header: 'Events', cell: (webhook) => kindsSummary(webhook.kinds) },
              { header: 'State', cell: webhookState },
              { header: 'Added', cell: (webhook) => formatUtc(webhook.created_at) },
            ]}
          />
        )}
      </Section>
    </SettingsFrame>
  );
}
