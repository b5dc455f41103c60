// Notifications: how this member hears of alerts by e-mail, per severity (GET/PUT
// /v3/organisations/{orgId}/notifications), and the organisation's alert thresholds (GET/PUT
// /v3/organisations/{orgId}/fleet/notification-settings), each with the alerts it raises. A
// threshold is optional: switched off, there is no such alert. A vehicle's own thresholds, set on
// its fleet page, replace these one by one.
import type { OperationResponse } from '@lamis/sdk';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useMembership } from '../../api/session.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { Alert, Button, ErrorMessage, Loading, Section } from '../../app/ui/basics.tsx';
import { FIELD_LABELS, fieldSentence } from '../../app/field-labels.ts';
import { Checkbox, Field, SelectField, useSubmit } from '../../app/ui/forms.tsx';
import { KIND_WORDS, SEVERITIES, THRESHOLD_RAISES } from '../alerts/alerts-model.ts';
import { CAN, SettingsFrame } from './SettingsFrame.tsx';

type Settings = OperationResponse<'GET /v3/organisations/{orgId}/fleet/notification-settings'>;
type Thresholds = Settings['thresholds'];
type Name = keyof Thresholds;

interface Threshold {
  name: Name;
  label: string;
  /** What triggers the alert, after the value. */
  when: string;
  kind: 'number' | 'choice' | 'flag';
  unit?: string;
  min?: number;
  max?: number;
  step?: number;
  fallback: string;
  choices?: string[];
}

const THRESHOLDS: Threshold[] = [
  { name: 'safety_score_below', label: FIELD_LABELS['thresholds/safety_score_below'], when: 'A landing safety score falls below', kind: 'number', unit: 'of 100', min: 0, max: 100, step: 1, fallback: '60' },
  { name: 'crosswind_kt_above', label: FIELD_LABELS['thresholds/crosswind_kt_above'], when: 'The crosswind on the recommended runway, gusts included, exceeds', kind: 'number', unit: 'kt', min: 0, max: 100, step: 1, fallback: '20' },
  { name: 'wind_shear_at_least', label: FIELD_LABELS['thresholds/wind_shear_at_least'], when: 'The wind shear risk at the destination reaches', kind: 'choice', choices: ['LOW', 'MODERATE', 'HIGH', 'SEVERE'], fallback: 'MODERATE' },
  { name: 'visibility_nm_below', label: FIELD_LABELS['thresholds/visibility_nm_below'], when: 'The visibility falls below', kind: 'number', unit: 'NM', min: 0, max: 50, step: 0.1, fallback: '3' },
  { name: 'weather_hold', label: FIELD_LABELS['thresholds/weather_hold'], when: 'A port the vessel heads for holds traffic for weather', kind: 'flag', fallback: 'true' },
  { name: 'eta_delay_minutes_above', label: FIELD_LABELS['thresholds/eta_delay_minutes_above'], when: 'A predicted arrival slips by more than', kind: 'number', unit: 'minutes', min: 1, max: 1440, step: 1, fallback: '30' },
];

type Draft = Record<Name, { on: boolean; value: string }>;

function draftFrom(thresholds: Thresholds): Draft {
  const draft = {} as Draft;
  for (const threshold of THRESHOLDS) {
    const value = thresholds[threshold.name];
    draft[threshold.name] = { on: value !== undefined, value: value === undefined ? threshold.fallback : String(value) };
  }
  return draft;
}

function thresholdsFrom(draft: Draft): Thresholds {
  const result: Record<string, unknown> = {};
  for (const threshold of THRESHOLDS) {
    const { on, value } = draft[threshold.name];
    if (!on) continue;
    // The server names a value it refuses (a number out of range, a word) by its field.
    result[threshold.name] = threshold.kind === 'flag' ? true : threshold.kind === 'number' ? (value.trim() === '' ? value : Number(value)) : value;
  }
  return result as Thresholds;
}

type Preferences = OperationResponse<'GET /v3/organisations/{orgId}/notifications'>;
type Delivery = Preferences['critical'];

const DELIVERY_OPTIONS: { value: Delivery; label: string }[] = [
  { value: 'immediately', label: 'Immediately: one e-mail per alert' },
  { value: 'hourly', label: 'Hourly digest' },
  { value: 'off', label: 'Off' },
];

const SEVERITY_WORDS = {
  critical: 'Critical alerts',
  warning: 'Warnings',
  info: 'Information',
};

/** This member's e-mail per severity; every role sets their own. */
function EmailPreferences({ orgId }: { orgId: string }) {
  const preferences = useAsync((signal) => api('GET /v3/organisations/{orgId}/notifications', { path: { orgId } }, { signal }), [orgId]);
  const [draft, setDraft] = useState<Record<'critical' | 'warning' | 'info', Delivery> | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (preferences.data) setDraft({ critical: preferences.data.critical, warning: preferences.data.warning, info: preferences.data.info });
  }, [preferences.data]);
  const submit = useSubmit(async () => {
    if (!draft) return;
    setSaved(false);
    preferences.setData(await api('PUT /v3/organisations/{orgId}/notifications', { path: { orgId }, body: draft }));
    setSaved(true);
  });
  return (
    <Section title="Your e-mail" id="email">
      <p class="muted">How you hear of this organisation's alerts, by severity: each as it happens, an hourly digest, or not at all. Each member chooses their own; the alerts page shows them all either way.</p>
      {preferences.error ? <ErrorMessage error={preferences.error} /> : null}
      {!draft ? (preferences.error ? null : <Loading />) : (
        <form class="form form-wide" onSubmit={submit.onSubmit} noValidate aria-label="Your e-mail">
          {saved && <Alert tone="success">Saved.</Alert>}
          <ErrorMessage error={submit.error} inFields />
          <div class="email-preferences">
            {SEVERITIES.map((severity) => (
              <SelectField key={severity} label={SEVERITY_WORDS[severity]} value={draft[severity]} options={DELIVERY_OPTIONS}
                error={submit.fields[severity] ?? null}
                onValue={(value) => {
                  setSaved(false);
                  setDraft({ ...draft, [severity]: value as Delivery });
                }} />
            ))}
          </div>
          <div class="button-row"><Button type="submit" variant="primary" busy={submit.busy}>Save e-mail choices</Button></div>
        </form>
      )}
    </Section>
  );
}

export default function NotificationsPage() {
  const membership = useMembership();
  const orgId = membership?.org_id ?? '';
  const settings = useAsync((signal) => api('GET /v3/organisations/{orgId}/fleet/notification-settings', { path: { orgId } }, { signal }), [orgId]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (settings.data) setDraft(draftFrom(settings.data.thresholds));
  }, [settings.data]);
  const canEdit = CAN.manageFleet(membership?.role ?? 'viewer');
  const submit = useSubmit(async () => {
    if (!draft) return;
    setSaved(false);
    settings.setData(await api('PUT /v3/organisations/{orgId}/fleet/notification-settings', { path: { orgId }, body: { thresholds: thresholdsFrom(draft) } }));
    setSaved(true);
  });

  const set = (name: Name, change: Partial<Draft[Name]>) => {
    if (!draft) return;
    setSaved(false);
    setDraft({ ...draft, [name]: { ...draft[name], ...change } });
  };

  return (
    <SettingsFrame>
      {orgId && <EmailPreferences orgId={orgId} />}
      <Section title="Alert thresholds for the whole fleet" id="thresholds">
        <p class="muted">Switch on the alerts you want and set where they start. A vehicle's own thresholds, set on its page under Fleet, replace these one by one.</p>
        {!canEdit && <Alert tone="info">As a viewer you can see the thresholds; owners, admins and members change them.</Alert>}
        {settings.error ? <ErrorMessage error={settings.error} /> : null}
        {!draft ? (settings.error ? null : <Loading />) : (
          <form class="form form-wide" onSubmit={submit.onSubmit} noValidate>
            {saved && <Alert tone="success">Saved. {settings.data?.updated_at ? `Changed ${formatUtc(settings.data.updated_at)}.` : ''}</Alert>}
            <ErrorMessage error={submit.error} inFields />
            <div class="thresholds">
              {THRESHOLDS.map((threshold) => {
                const entry = draft[threshold.name];
                const error = submit.fields[`thresholds/${threshold.name}`];
                return (
                  <fieldset key={threshold.name} class={`threshold card${entry.on ? ' is-on' : ''}`}>
                    <legend class="visually-hidden">{threshold.label}</legend>
                    <Checkbox label={<strong>{threshold.label}</strong>} checked={entry.on} disabled={!canEdit} onChecked={(on) => set(threshold.name, { on })}
                      hint={threshold.kind === 'flag' ? threshold.when : undefined} />
                    {threshold.kind !== 'flag' && (
                      <Field label={threshold.when} error={error ? fieldSentence(threshold.label, error) : null}>
                        {(props) => (
                          <div class="row">
                            {threshold.kind === 'choice' ? (
                              <select {...props} value={entry.value} disabled={!canEdit || !entry.on} onChange={(event) => set(threshold.name, { value: event.currentTarget.value })}>
                                {threshold.choices!.map((choice) => <option key={choice} value={choice}>{choice.toLowerCase()}</option>)}
                              </select>
                            ) : (
                              <input {...props} type="number" inputMode="decimal" min={threshold.min} max={threshold.max} step={threshold.step} value={entry.value}
                                disabled={!canEdit || !entry.on} style={{ maxWidth: '9rem' }}
                                onInput={(event) => set(threshold.name, { value: event.currentTarget.value })} />
                            )}
                            {threshold.unit && <span class="muted">{threshold.unit}</span>}
                          </div>
                        )}
                      </Field>
                    )}
                    <p class="small muted threshold-raises">
                      Raises: {THRESHOLD_RAISES[threshold.name].words}{' '}
                      ({THRESHOLD_RAISES[threshold.name].kinds.map((kind) => `“${KIND_WORDS[kind]}”`).join(', ')})
                    </p>
                  </fieldset>
                );
              })}
            </div>
            {canEdit && <div class="button-row"><Button type="submit" variant="primary" busy={submit.busy}>Save thresholds</Button></div>}
          </form>
        )}
      </Section>
    </SettingsFrame>
  );
}
