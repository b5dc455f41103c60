// API keys: create one (development or production), see its secret once with a copy button, list
// the organisation's keys with when each was last used, revoke, and rotate with an overlap. Also
// which key this dashboard uses for its data pages, and a place to enter one for people whose
// role cannot make keys.
import type { OperationResponse } from '@lamis/sdk';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { currentDataKey, DASHBOARD_KEY_NAME, enterDataKey, forgetDataKey } from '../../api/data-key.ts';
import { useMembership, useSession } from '../../api/session.ts';
import { formatRelative, formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { Alert, Button, ConfirmButton, CopyButton, EmptyState, ErrorMessage, Loading, Section, StatusBadge, type Tone } from '../../app/ui/basics.tsx';
import { RadioCards, TextField, useSubmit } from '../../app/ui/forms.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { CAN, SettingsFrame } from './SettingsFrame.tsx';
import { FIELD_LABELS } from '../../app/field-labels.ts';

type Key = OperationResponse<'GET /v3/organisations/{orgId}/keys'>['data'][number];
type Environment = Key['environment'];

const STATUS: Record<Key['status'], Tone> = { active: 'ok', rotating: 'warn', expired: 'neutral', revoked: 'bad' };

/** A secret, shown once: copy it now. */
function NewSecret({ name, secret, onDone, note }: { name: string; secret: string; onDone: () => void; note?: string }) {
  return (
    <Alert tone="success" title={`Your new key "${name}"`}>
      <p>Copy the secret now: LAMIS keeps only its hash and will never show it again.{note ? ` ${note}` : ''}</p>
      <div class="secret">
        <code data-testid="new-secret">{secret}</code>
        <CopyButton text={secret} label="Copy secret" />
      </div>
      <p class="small" style={{ marginTop: 'var(--space-2)' }}>Use it as <code>Authorization: Bearer {secret.slice(0, 11)}…</code></p>
      <div class="button-row"><Button size="small" onClick={onDone}>I have copied it</Button></div>
    </Alert>
  );
}

function CreateKey({ orgId, onCreated }: { orgId: string; onCreated: (name: string, secret: string) => void }) {
  const { account } = useSession();
  const identityVerified = account?.identity_status === 'verified';
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<Environment>('development');
  const [expires, setExpires] = useState('');
  const submit = useSubmit(async () => {
    const expires_at = expires ? new Date(`${expires}T23:59:59Z`).toISOString() : null;
    const key = await api('POST /v3/accounts/keys', { body: { org_id: orgId, environment, name: name.trim(), expires_at } });
    setName('');
    setExpires('');
    onCreated(key.name, key.secret);
  });
  return (
    <form class="form form-wide" onSubmit={submit.onSubmit} noValidate>
      <ErrorMessage error={submit.error} inFields />
      <div style={{ maxWidth: '28rem' }}>
        <TextField label={FIELD_LABELS.name} hint="What uses it, e.g. dispatch system" value={name} onValue={setName} maxLength={100} required error={submit.fields.name} />
      </div>
      <RadioCards legend={FIELD_LABELS.environment} name="environment" value={environment} onValue={(value) => setEnvironment(value as Environment)}
        error={submit.fields.environment}
        options={[
          { value: 'development', label: 'Development', description: 'lamis_test_…: its own budget, a tenth of the plan\'s (at most 60 a minute). Needs a verified e-mail address.' },
          {
            value: 'production',
            label: 'Production',
            description: identityVerified
              ? 'lamis_live_…: shares the plan\'s budget with your other production keys.'
              : 'Needs your identity verified first (finish signing up).',
            disabled: !identityVerified,
          },
        ]} />
      <div style={{ maxWidth: '16rem' }}>
        <TextField label={FIELD_LABELS.expires_at} type="date" optional hint="At the end of that day (UTC)" value={expires} onValue={setExpires} error={submit.fields.expires_at} />
      </div>
      <div class="button-row">
        <Button type="submit" variant="primary" busy={submit.busy}>Create key</Button>
      </div>
    </form>
  );
}

function RotateKey({ orgId, keyItem, onRotated }: { orgId: string; keyItem: Key; onRotated: (name: string, secret: string, until: string | null) => void }) {
  const [open, setOpen] = useState(false);
  const [hours, setHours] = useState('24');
  const submit = useSubmit(async () => {
    const overlap = Number(hours);
    const answer = await api('POST /v3/organisations/{orgId}/keys/{keyId}/rotate', {
      path: { orgId, keyId: keyItem.id },
      body: Number.isFinite(overlap) && hours.trim() !== '' ? { overlap_hours: overlap } : {},
    });
    setOpen(false);
    onRotated(answer.key.name, answer.key.secret, answer.previous.overlap_until);
  });
  if (!open) return <Button size="small" onClick={() => setOpen(true)}>Rotate</Button>;
  return (
    <form class="rotate" onSubmit={submit.onSubmit} noValidate>
      <TextField label={FIELD_LABELS.overlap_hours} type="number" min={0} max={720} step={1} inputMode="numeric" value={hours} onValue={setHours}
        hint="0 to 720; 0 stops it at once" error={submit.fields.overlap_hours} />
      <ErrorMessage error={submit.error} inFields />
      <div class="row">
        <Button type="submit" size="small" variant="primary" busy={submit.busy}>Rotate now</Button>
        <Button size="small" variant="quiet" onClick={() => setOpen(false)}>Cancel</Button>
      </div>
    </form>
  );
}

function KeyActions({ orgId, keyItem, onChange, onRotated }: { orgId: string; keyItem: Key; onChange: () => void; onRotated: (name: string, secret: string, until: string | null) => void }) {
  const revoke = useSubmit(async () => {
    await api('POST /v3/organisations/{orgId}/keys/{keyId}/revoke', { path: { orgId, keyId: keyItem.id } });
    onChange();
  });
  if (keyItem.status === 'revoked' || keyItem.status === 'expired') return <span class="muted small">–</span>;
  return (
    <div class="stack">
      <div class="row">
        {keyItem.status === 'active' && <RotateKey orgId={orgId} keyItem={keyItem} onRotated={onRotated} />}
        <ConfirmButton label="Revoke" question={`Revoke "${keyItem.name}"? It stops working at once.`} busy={revoke.busy} onConfirm={revoke.run} />
      </div>
      <ErrorMessage error={revoke.error} />
    </div>
  );
}

function DashboardKey({ canCreate }: { canCreate: boolean }) {
  const [secret, setSecret] = useState('');
  const [, redraw] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const current = currentDataKey();
  return (
    <Section title="This dashboard's key" id="dashboard-key">
      <p class="muted">
        Data pages (landing briefings, the map, ports) call the API with a key like any client.
        {canCreate
          ? <> LAMIS keeps one for you in this organisation, named <code>{DASHBOARD_KEY_NAME}</code>: the same key in every session of yours, its secret kept in this tab only, and renewed when it stops working.</>
          : <> Your role cannot make keys, so enter one an owner or admin gave you. It stays in this tab only.</>}
      </p>
      {current && (
        <p>
          In use: <code>{current.secret.slice(0, 11)}…{current.secret.slice(-4)}</code> ({current.source === 'entered' ? 'entered here' : 'made by the dashboard'}).{' '}
          <Button size="small" variant="quiet" onClick={() => {
            forgetDataKey();
            redraw((n) => n + 1);
          }}>Stop using it</Button>
        </p>
      )}
      <form class="form" onSubmit={(event) => {
        event.preventDefault();
        try {
          enterDataKey(secret);
          setSecret('');
          setError(null);
          redraw((n) => n + 1);
        } catch (failure) {
          setError(failure);
        }
      }} noValidate>
        <ErrorMessage error={error} />
        <TextField label="Use this key in the dashboard" type="password" autoComplete="off" placeholder="lamis_live_… or lamis_test_…" value={secret} onValue={setSecret} />
        <Button type="submit">Use key</Button>
      </form>
    </Section>
  );
}

export default function KeysPage() {
  const membership = useMembership();
  const orgId = membership?.org_id ?? '';
  const role = membership?.role ?? 'viewer';
  const [cursor, setCursor] = useState<string | null>(null);
  const [shown, setShown] = useState<{ name: string; secret: string; note?: string } | null>(null);
  const keys = useAsync(async (signal) => {
    if (!orgId || !CAN.viewKeys(role)) return { data: [] as Key[], next_cursor: null };
    return api('GET /v3/organisations/{orgId}/keys', { path: { orgId }, query: { limit: 50 } }, { signal });
  }, [orgId, role]);
  const [more, setMore] = useState<Key[]>([]);
  const [loadingMore, setLoadingMore] = useState(false);
  const rows = [...(keys.data?.data ?? []), ...more];
  const nextCursor = more.length ? cursor : keys.data?.next_cursor ?? null;

  const reload = () => {
    setMore([]);
    setCursor(null);
    keys.reload();
  };
  const loadMore = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await api('GET /v3/organisations/{orgId}/keys', { path: { orgId }, query: { limit: 50, cursor: nextCursor } });
      setMore([...more, ...page.data]);
      setCursor(page.next_cursor);
    } finally {
      setLoadingMore(false);
    }
  };

  if (!membership) return <SettingsFrame><EmptyState title="No organisation">Your account belongs to no organisation.</EmptyState></SettingsFrame>;
  const canManage = CAN.manageKeys(role);
  return (
    <SettingsFrame>
      {shown && <NewSecret {...shown} onDone={() => setShown(null)} />}
      {canManage ? (
        <Section title="Create an API key" id="create-key">
          <CreateKey orgId={orgId} onCreated={(name, secret) => {
            setShown({ name, secret });
            reload();
          }} />
        </Section>
      ) : (
        <Alert tone="info">As a {role} you can {CAN.viewKeys(role) ? 'see the keys but not create, revoke or rotate them' : 'not see the API keys'}; owners and admins can.</Alert>
      )}
      {CAN.viewKeys(role) && (
        <Section title="Keys" id="keys">
          {keys.error ? <ErrorMessage error={keys.error} /> : null}
          {keys.loading && !keys.data ? <Loading /> : (
            <DataTable<Key>
              caption={`API keys of ${membership.name}`}
              captionHidden
              rows={rows}
              rowKey={(key) => key.id}
              empty={<EmptyState title="No API keys yet">{canManage ? 'Create one above to call the API from your own systems.' : 'An owner or admin can create one.'}</EmptyState>}
              columns={[
                { header: 'Name', cell: (key) => <strong>{key.name}</strong> },
                { header: 'Key', cell: (key) => <code class="nowrap">{key.prefix}…{key.last4}</code> },
                { header: 'Environment', cell: (key) => <StatusBadge tone={key.environment === 'production' ? 'info' : 'neutral'}>{key.environment}</StatusBadge> },
                {
                  header: 'Status',
                  cell: (key) => (
                    <>
                      <StatusBadge tone={STATUS[key.status]}>{key.status}</StatusBadge>
                      {key.status === 'rotating' && key.overlap_until && <div class="small muted">until {formatUtc(key.overlap_until)}</div>}
                    </>
                  ),
                },
                { header: 'Last used', cell: (key) => <span title={formatUtc(key.last_used_at)}>{formatRelative(key.last_used_at)}</span> },
                { header: 'Created', cell: (key) => formatUtc(key.created_at, { show: 'date' }) },
                { header: 'Expires', cell: (key) => (key.expires_at ? formatUtc(key.expires_at, { show: 'date' }) : 'never') },
                ...(canManage ? [{
                  header: 'Actions',
                  cell: (key: Key) => (
                    <KeyActions orgId={orgId} keyItem={key} onChange={reload} onRotated={(name, secret, until) => {
                      setShown({ name, secret, note: until ? `The old key keeps working until ${formatUtc(until)}.` : 'The old key has stopped working.' });
                      reload();
                    }} />
                  ),
                }] : []),
              ]}
            />
          )}
          {nextCursor && <div class="button-row"><Button busy={loadingMore} onClick={loadMore}>Show more keys</Button></div>}
        </Section>
      )}
      <DashboardKey canCreate={canManage} />
    </SettingsFrame>
  );
}
