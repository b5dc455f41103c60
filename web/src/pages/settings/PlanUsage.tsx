// The plan (what it allows, the others to compare, a change for owners) and the usage of the last
// 30 days: requests per day against the plan's ceiling, and per key.
import type { OperationResponse } from '@lamis/sdk';
import { useState } from 'preact/hooks';
import { developmentRate, PLANS, WINDOW_SECONDS, type PlanName } from '../../../../common/plans.ts';
import { api } from '../../api/client.ts';
import { refreshAccount, useMembership } from '../../api/session.ts';
import { formatNumber, formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { Alert, Button, ConfirmDialog, EmptyState, ErrorMessage, Loading, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { isDowngrade, perMinute, planChanges } from './plan-change.ts';
import { CAN, SettingsFrame } from './SettingsFrame.tsx';
import { UsageChart, type DayCount } from './UsageChart.tsx';

type UsageRow = OperationResponse<'GET /v3/organisations/{orgId}/usage'>['data'][number];
type Organisation = OperationResponse<'GET /v3/organisations/{orgId}'>;

const MINUTES_A_DAY = 86_400 / WINDOW_SECONDS;
const ORDER: PlanName[] = ['starter', 'pro', 'enterprise'];
/** Usage pages read at most (100 rows each): 30 days of many keys. */
const MAX_PAGES = 20;

function PlanTable({ org, onChange }: { org: Organisation; onChange: (org: Organisation) => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // The plan an owner picked, asked about before the API is called.
  const [asking, setAsking] = useState<PlanName | null>(null);
  const canChange = CAN.changePlan(org.role);
  const change = async (plan: PlanName) => {
    setBusy(true);
    setError(null);
    try {
      onChange(await api('PUT /v3/organisations/{orgId}/plan', { path: { orgId: org.id }, body: { plan } }));
      await refreshAccount();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };
  return (
    <>
      <ErrorMessage error={error} />
      <DataTable<PlanName>
        caption="Plans"
        captionHidden
        rows={ORDER}
        rowKey={(name) => name}
        columns={[
          { header: 'Plan', cell: (name) => <><strong>{PLANS[name].title}</strong>{name === org.plan && <> <StatusBadge tone="ok">current</StatusBadge></>}</> },
          { header: 'Production keys', cell: (name) => perMinute(PLANS[name].requestsPerWindow) },
          { header: 'Each development key', cell: (name) => perMinute(developmentRate(PLANS[name])) },
          { header: 'Live AIS stream', cell: (name) => (PLANS[name].streams ? (PLANS[name].maxConcurrentStreams === null ? 'yes, no cap' : `yes, ${PLANS[name].maxConcurrentStreams} at once`) : 'no') },
          { header: 'Team members', cell: (name) => (name === 'starter' ? 'just you' : 'yes, with roles') },
          ...(canChange ? [{
            header: 'Change',
            cell: (name: PlanName) => name === org.plan ? <span class="muted small">–</span>
              : <Button size="small" variant={isDowngrade(org.plan, name) ? 'danger' : 'primary'} onClick={() => setAsking(name)}>Switch to {PLANS[name].title}</Button>,
          }] : []),
        ]}
      />
      {asking && (
        <ConfirmDialog title={`Switch ${org.name} to ${PLANS[asking].title}?`} confirmLabel={`Switch to ${PLANS[asking].title}`}
          tone={isDowngrade(org.plan, asking) ? 'danger' : 'primary'} busy={busy} onConfirm={() => change(asking)} onClose={() => setAsking(null)}>
          <p>From {PLANS[org.plan].title} to {PLANS[asking].title}, for every key and member of the organisation:</p>
          <table class="plan-change">
            <thead><tr><th scope="col">What</th><th scope="col">Now</th><th scope="col">After</th></tr></thead>
            <tbody>
              {planChanges(org.plan, asking).map((line) => (
                <tr key={line.what}><th scope="row">{line.what}</th><td>{line.before}</td><td><strong>{line.after}</strong></td></tr>
              ))}
            </tbody>
          </table>
          <p class="muted small">Rate limits follow within 10 seconds. Billing is not part of LAMIS.</p>
        </ConfirmDialog>
      )}
      <p class="muted small" style={{ marginTop: 'var(--space-3)' }}>
        {canChange ? 'A change applies to rate limits within 10 seconds. Billing is not part of LAMIS.' : 'Only an owner can change the plan.'}
      </p>
    </>
  );
}

function lastDays(to: string, count: number): string[] {
  const end = Date.parse(`${to}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10));
}

interface KeyTotal {
  key_id: string;
  key_name: string;
  /** `lamis_live_…abcd`, when the key list could be read: rotated keys share their name. */
  shown_as: string | null;
  environment: UsageRow['environment'];
  requests: number;
  streams: number;
}

async function readUsage(orgId: string, signal: AbortSignal) {
  const first = await api('GET /v3/organisations/{orgId}/usage', { path: { orgId }, query: { limit: 100 } }, { signal });
  const rows = [...first.data];
  let cursor = first.next_cursor;
  for (let page = 1; cursor && page < MAX_PAGES; page++) {
    const next = await api('GET /v3/organisations/{orgId}/usage', { path: { orgId }, query: { limit: 100, from: first.from, to: first.to, cursor } }, { signal });
    rows.push(...next.data);
    cursor = next.next_cursor;
  }
  const keys = await api('GET /v3/organisations/{orgId}/keys', { path: { orgId }, query: { limit: 100 } }, { signal }).catch(() => null);
  const shownAs = new Map(keys?.data.map((key) => [key.id, `${key.prefix}…${key.last4}`]));
  const perDay = new Map<string, number>();
  const perKey = new Map<string, KeyTotal>();
  for (const row of rows) {
    perDay.set(row.day, (perDay.get(row.day) ?? 0) + row.requests);
    const total = perKey.get(row.key_id)
      ?? { key_id: row.key_id, key_name: row.key_name, shown_as: shownAs.get(row.key_id) ?? null, environment: row.environment, requests: 0, streams: 0 };
    total.requests += row.requests;
    total.streams += row.streams;
    perKey.set(row.key_id, total);
  }
  const span = Math.round((Date.parse(first.to) - Date.parse(first.from)) / 86_400_000) + 1;
  const days: DayCount[] = lastDays(first.to, span).map((day) => ({ day, requests: perDay.get(day) ?? 0 }));
  return { from: first.from, to: first.to, days, keys: [...perKey.values()].sort((a, b) => b.requests - a.requests), truncated: Boolean(cursor) };
}

export default function PlanUsagePage() {
  const membership = useMembership();
  const orgId = membership?.org_id ?? '';
  const organisation = useAsync((signal) => api('GET /v3/organisations/{orgId}', { path: { orgId } }, { signal }), [orgId]);
  const role = organisation.data?.role ?? membership?.role ?? 'viewer';
  const usage = useAsync(async (signal) => (role === 'viewer' ? null : readUsage(orgId, signal)), [orgId, role]);

  if (!membership) return <SettingsFrame><EmptyState title="No organisation">Your account belongs to no organisation.</EmptyState></SettingsFrame>;
  const org = organisation.data;
  const plan = org ? PLANS[org.plan] : null;
  const ceiling = plan?.requestsPerWindow === null || !plan ? null : plan.requestsPerWindow * MINUTES_A_DAY;
  const total = usage.data?.days.reduce((sum, day) => sum + day.requests, 0) ?? 0;
  const busiest = usage.data ? Math.max(0, ...usage.data.days.map((day) => day.requests)) : 0;

  return (
    <SettingsFrame>
      <Section title="Plan" id="plan">
        {organisation.error ? <ErrorMessage error={organisation.error} /> : null}
        {!org ? (organisation.error ? null : <Loading />) : (
          <>
            <p>
              {org.name} is on <strong>{PLANS[org.plan].title}</strong>: production keys share {perMinute(org.limits.requests_per_minute)}, each development key
              has {perMinute(developmentRate(PLANS[org.plan]))}.
            </p>
            <PlanTable org={org} onChange={(changed) => organisation.setData(changed)} />
          </>
        )}
      </Section>
      <Section title="Usage, last 30 days" id="usage">
        {role === 'viewer' ? <Alert tone="info">Owners, admins and members see the usage.</Alert> : null}
        {usage.error ? <ErrorMessage error={usage.error} /> : null}
        {role !== 'viewer' && !usage.data && !usage.error && <Loading />}
        {usage.data && (
          <>
            <p>
              {formatNumber(total)} requests from {formatUtc(usage.data.from, { show: 'date' })} to {formatUtc(usage.data.to, { show: 'date' })} (UTC days); the busiest day had {formatNumber(busiest)}
              {ceiling ? <>, {(busiest / ceiling * 100).toFixed(busiest && busiest / ceiling < 0.001 ? 3 : 1)} % of the plan's daily ceiling</> : null}.
              {' '}Counts arrive within 10 seconds.
            </p>
            <UsageChart days={usage.data.days} dailyCeiling={ceiling} title={`Requests per day, ${usage.data.from} to ${usage.data.to}`} />
            <h3 style={{ marginTop: 'var(--space-5)' }}>By key</h3>
            <DataTable<KeyTotal>
              caption="Requests by key"
              captionHidden
              rows={usage.data.keys}
              rowKey={(key) => key.key_id}
              empty={<EmptyState title="No requests in these 30 days">Requests made with the organisation's API keys show here. Create a key under API keys to start.</EmptyState>}
              columns={[
                { header: 'Key', cell: (key) => <><strong>{key.key_name}</strong>{key.shown_as && <> <code class="nowrap">{key.shown_as}</code></>}</> },
                { header: 'Environment', cell: (key) => <StatusBadge tone={key.environment === 'production' ? 'info' : 'neutral'}>{key.environment}</StatusBadge> },
                { header: 'Requests', align: 'end', cell: (key) => formatNumber(key.requests) },
                { header: 'Streams', align: 'end', cell: (key) => formatNumber(key.streams) },
              ]}
            />
            {usage.data.truncated && <p class="muted small">Only the first {MAX_PAGES * 100} rows are counted here; <code>lamis usage</code> prints them all.</p>}
            <details style={{ marginTop: 'var(--space-4)' }}>
              <summary>Requests per day as a table</summary>
              <DataTable<DayCount>
                caption="Requests per day"
                captionHidden
                rows={[...usage.data.days].reverse()}
                rowKey={(day) => day.day}
                columns={[
                  { header: 'Day (UTC)', cell: (day) => formatUtc(day.day, { show: 'date' }) },
                  { header: 'Requests', align: 'end', cell: (day) => formatNumber(day.requests) },
                ]}
              />
            </details>
          </>
        )}
      </Section>
    </SettingsFrame>
  );
}
