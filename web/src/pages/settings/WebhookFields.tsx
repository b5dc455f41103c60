// The pieces both webhook pages use: the form's fields (URL, description, which events), the
// signing secret shown once, and a webhook's state as a badge.
import { Alert, Button, CopyButton, StatusBadge } from '../../app/ui/basics.tsx';
import { Checkbox, TextField } from '../../app/ui/forms.tsx';
import { FIELD_LABELS, fieldSentence } from '../../app/field-labels.ts';
import { KIND_WORDS } from '../alerts/alerts-model.ts';
import { KIND_GROUPS, type Webhook, type WebhookForm } from './webhook-form.ts';
import './webhooks.css';

export function WebhookFields({ form, onForm, errors }: { form: WebhookForm; onForm: (form: WebhookForm) => void; errors: Record<string, string> }) {
  const kindsError = Object.entries(errors).find(([field]) => field === 'kinds' || field.startsWith('kinds/'))?.[1];
  return (
    <>
      <div style={{ maxWidth: '36rem' }}>
        <TextField label={FIELD_LABELS.url} type="url" required value={form.url} onValue={(url) => onForm({ ...form, url })} maxLength={2048}
          placeholder="https://hooks.example.com/lamis" spellcheck={false} autoComplete="off"
          hint="LAMIS POSTs each event here as JSON, signed by the Standard Webhooks scheme." error={errors.url} />
        <TextField label={FIELD_LABELS.description} optional value={form.description} onValue={(description) => onForm({ ...form, description })}
          maxLength={1000} hint="What receives it, e.g. ops room chat" error={errors.description} />
      </div>
      <fieldset class={`webhook-kinds${kindsError ? ' has-error' : ''}`}>
        <legend>{FIELD_LABELS.kinds}</legend>
        <p class="hint">None ticked sends every event, including kinds LAMIS adds later.</p>
        <div class="webhook-kind-groups">
          {KIND_GROUPS.map((group) => (
            <div key={group.title}>
              <p class="webhook-kind-group">{group.title}</p>
              {group.kinds.map((kind) => (
                <Checkbox key={kind} label={<>{KIND_WORDS[kind]} <code class="small">{kind}</code></>} checked={form.kinds.includes(kind)}
                  onChecked={(checked) => onForm({ ...form, kinds: checked ? [...form.kinds, kind] : form.kinds.filter((other) => other !== kind) })} />
              ))}
            </div>
          ))}
        </div>
        {kindsError && <p class="field-error">{fieldSentence(FIELD_LABELS.kinds, kindsError)}</p>}
      </fieldset>
    </>
  );
}

/** The signing secret, answered once by the API: copy it now or rotate it later. */
export function WebhookSecret({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <Alert tone="warning" title={title}>
      <p>This is the only time LAMIS shows this secret. Copy it into the receiving system now: it checks the signature of every delivery with it. If it is lost, rotate the secret.</p>
      <div class="secret">
        <code data-testid="webhook-secret">{secret}</code>
        <CopyButton text={secret} label="Copy secret" />
      </div>
      <div class="button-row"><Button size="small" onClick={onDone}>I have copied it</Button></div>
    </Alert>
  );
}

/** Sending, paused by the user, or stopped by LAMIS after failing deliveries (the reason on hover). */
export function webhookState(webhook: Webhook) {
  if (webhook.enabled) return <StatusBadge tone="ok">Sending</StatusBadge>;
  return <StatusBadge tone={webhook.disabled_reason ? 'bad' : 'neutral'} title={webhook.disabled_reason ?? undefined}>{webhook.disabled_reason ? 'Stopped by LAMIS' : 'Paused'}</StatusBadge>;
}
