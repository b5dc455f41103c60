// One webhook: what it sends where, a test send, pausing and resuming, a new signing secret,
// removal, the form to change it, and its delivery log (status, attempts, the endpoint's answer),
// newest first, which refreshes itself while an attempt is due.
import { useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { formatNumber, formatUtc } from '../../app/format.ts';
import { useAsync, useInterval } from '../../app/hooks.ts';
import { navigate, usePageTitle, type PageProps } from '../../app/router.tsx';
import { Alert, Button, ConfirmButton, EmptyState, ErrorMessage, Loading, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { useSubmit } from '../../app/ui/forms.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { KIND_WORDS, type EventKind } from '../alerts/alerts-model.ts';
import { SettingsFrame } from './SettingsFrame.tsx';
import {
  DELIVERY_TONES, deliveriesUnderway, formFromWebhook, kindsSummary, webhookChanges, type Delivery, type Webhook, type WebhookForm,
} from './webhook-form.ts';
import { WebhookFields, WebhookSecret, webhookState } from './WebhookFields.tsx';

/** The type of a test delivery (the API's `webhook.test`, which is no event kind). */
const TEST_TYPE = 'webhook.test';

function deliveryType(type: string): string {
  return type === TEST_TYPE ? 'Test' : KIND_WORDS[type as EventKind] ?? type;
}

function answerOf(delivery: Delivery): string {
  if (delivery.last_status_code === null) return delivery.attempts ? 'no answer' : '–';
  return `HTTP ${delivery.last_status_code}${delivery.last_latency_ms === null ? '' : ` in ${formatNumber(delivery.last_latency_ms)} ms`}`;
}

function DeliveryLog({ webhookId, round }: { webhookId: string; round: number }) {
  const [older, setOlder] = useState<{ rows: Delivery[]; cursor: string | null } | null>(null);
  const log = useAsync((signal) => data('GET /v3/webhooks/{id}/deliveries', { path: { id: webhookId }, query: { limit: 25 } }, { signal }), [webhookId, round]);
  const rows = [...(log.data?.data ?? []), ...(older?.rows ?? [])];
  const cursor = older ? older.cursor : log.data?.next_cursor ?? null;
  useInterval(() => log.reload(), 3000, deliveriesUnderway(log.data?.data ?? []));
  const more = useSubmit(async () => {
    const page = await data('GET /v3/webhooks/{id}/deliveries', { path: { id: webhookId }, query: { limit: 25, cursor: cursor! } });
    setOlder({ rows: [...(older?.rows ?? []), ...page.data], cursor: page.next_cursor });
  });
  return (
    <Section title="Delivery log" id="deliveries" actions={<Button size="small" busy={log.loading && !!log.data} onClick={() => {
      setOlder(null);
      log.reload();
    }}>Refresh</Button>}>
      <ErrorMessage error={log.error ?? more.error} />
      {log.loading && !log.data ? <Loading /> : log.data && (
        <DataTable<Delivery>
          caption="Deliveries, newest first"
          captionHidden
          rows={rows}
          rowKey={(delivery) => delivery.id}
          empty={<EmptyState title="Nothing sent yet">Deliveries show here as events happen. Send a test to try the endpoint now.</EmptyState>}
          columns={[
            { header: 'Created', cell: (delivery) => <span class="nowrap">{formatUtc(delivery.created_at)}</span> },
            { header: 'Event', cell: (delivery) => deliveryType(delivery.type) },
            {
              header: 'Status',
              cell: (delivery) => (
                <>
                  <StatusBadge tone={DELIVERY_TONES[delivery.status]}>{delivery.status}</StatusBadge>
                  {delivery.next_attempt_at && delivery.status === 'retrying' && <div class="small muted">next {formatUtc(delivery.next_attempt_at, { show: 'time' })}</div>}
                </>
              ),
            },
            { header: 'Attempts', align: 'end', cell: (delivery) => formatNumber(delivery.attempts) },
            { header: 'Response', cell: (delivery) => <span class="nowrap">{answerOf(delivery)}</span> },
            { header: 'Last attempt', cell: (delivery) => <span class="nowrap">{formatUtc(delivery.last_attempt_at)}</span> },
            { header: 'Error', cell: (delivery) => <span class="delivery-error small">{delivery.last_error ?? '–'}</span> },
          ]}
        />
      )}
      {cursor && <div class="button-row"><Button busy={more.busy} onClick={more.run}>Show older deliveries</Button></div>}
    </Section>
  );
}

function ChangeWebhook({ webhook, onSaved }: { webhook: Webhook; onSaved: (webhook: Webhook) => void }) {
  const [form, setForm] = useState<WebhookForm>(() => formFromWebhook(webhook));
  const [saved, setSaved] = useState<string | null>(null);
  const submit = useSubmit(async () => {
    const body = webhookChanges(form, webhook);
    if (Object.keys(body).length === 0) {
      setSaved('Nothing was changed.');
      return;
    }
    const changed = await data('PATCH /v3/webhooks/{id}', { path: { id: webhook.id }, body });
    setForm(formFromWebhook(changed));
    setSaved('Saved.');
    onSaved(changed);
  });
  return (
    <form class="form form-wide" onSubmit={(event) => {
      setSaved(null);
      return submit.onSubmit(event);
    }} noValidate aria-label="Change the webhook">
      <ErrorMessage error={submit.error} inFields />
      {saved && <Alert tone="success">{saved}</Alert>}
      <WebhookFields form={form} onForm={setForm} errors={submit.fields} />
      <div class="button-row"><Button type="submit" variant="primary" busy={submit.busy}>Save changes</Button></div>
    </form>
  );
}

export default function WebhookPage({ params }: PageProps) {
  const id = params.id!;
  const webhook = useAsync((signal) => data('GET /v3/webhooks/{id}', { path: { id } }, { signal }), [id]);
  const [round, setRound] = useState(0);
  const [tested, setTested] = useState<Delivery | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  usePageTitle(webhook.data ? `Webhook ${new URL(webhook.data.url).host}` : 'Webhook');

  const test = useSubmit(async () => {
    setTested(await data('POST /v3/webhooks/{id}/test', { path: { id } }));
    setRound((n) => n + 1);
  });
  const toggle = useSubmit(async () => {
    webhook.setData(await data('PATCH /v3/webhooks/{id}', { path: { id }, body: { enabled: !webhook.data!.enabled } }));
  });
  const rotate = useSubmit(async () => {
    const { secret: fresh, ...rotated } = await data('POST /v3/webhooks/{id}/rotate-secret', { path: { id } });
    webhook.setData(rotated);
    setSecret(fresh);
  });
  const remove = useSubmit(async () => {
    await data('DELETE /v3/webhooks/{id}', { path: { id } });
    navigate('/settings/webhooks');
  });

  const current = webhook.data;
  return (
    <SettingsFrame>
      <p><a href="/settings/webhooks">← All webhooks</a></p>
      <ErrorMessage error={webhook.error} />
      {webhook.loading && !current && <Loading />}
      {current && (
        <>
          {secret && <WebhookSecret title="The new signing secret" secret={secret} onDone={() => setSecret(null)} />}
          <Section title="Endpoint" id="endpoint">
            <dl class="facts">
              <dt>URL</dt><dd class="webhook-url">{current.url}</dd>
              {current.description && <><dt>Description</dt><dd>{current.description}</dd></>}
              <dt>Events</dt><dd>{kindsSummary(current.kinds)}</dd>
              <dt>State</dt><dd>{webhookState(current)}{current.disabled_reason && <div class="small muted">{current.disabled_reason}</div>}</dd>
              {current.previous_secret_expires_at && <><dt>Old secret signs until</dt><dd>{formatUtc(current.previous_secret_expires_at)}</dd></>}
              <dt>Added</dt><dd>{formatUtc(current.created_at)}</dd>
            </dl>
            <div class="button-row">
              <Button variant="primary" busy={test.busy} onClick={test.run}>Send a test</Button>
              <Button busy={toggle.busy} onClick={toggle.run}>{current.enabled ? 'Pause deliveries' : 'Resume deliveries'}</Button>
              <ConfirmButton size="normal" label="New secret" question="Make a new signing secret? The old one keeps signing for a day beside it." busy={rotate.busy} onConfirm={rotate.run} />
              <ConfirmButton size="normal" label="Delete" question="Delete this webhook and its delivery log?" busy={remove.busy} onConfirm={remove.run} />
            </div>
            <ErrorMessage error={test.error ?? toggle.error ?? rotate.error ?? remove.error} />
            {tested && (
              <Alert tone={tested.status === 'delivered' ? 'success' : 'error'} title={tested.status === 'delivered' ? 'The test was delivered' : 'The test failed'}>
                <p>{tested.last_error ?? answerOf(tested)}. It is in the delivery log below.</p>
              </Alert>
            )}
          </Section>
          <DeliveryLog webhookId={id} round={round} />
          <Section title="Change the webhook" id="change">
            <ChangeWebhook key={current.id} webhook={current} onSaved={webhook.setData} />
          </Section>
        </>
      )}
    </SettingsFrame>
  );
}
