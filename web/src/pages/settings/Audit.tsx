// The audit log (owners and admins): who did what to the organisation's keys, members, plan and
// identity checks, newest first, a page at a time. Actors and targets read as member and key names
// where the page knows them. Members and viewers are told the log is for owners and admins.
import type { OperationResponse } from '@lamis/sdk';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import { useMembership } from '../../api/session.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { Alert, Button, EmptyState, ErrorMessage, Loading, Section } from '../../app/ui/basics.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { describeEntry, type AuditNames } from './audit-events.ts';
import { CAN, SettingsFrame } from './SettingsFrame.tsx';
import './audit.css';

type Entry = OperationResponse<'GET /v3/organisations/{orgId}/audit-log'>['data'][number];

const PAGE_SIZE = 25;

/** For members and viewers; `role` is left out when only the server's refusal tells. */
function OwnersAndAdminsOnly({ role }: { role?: string }) {
  return (
    <Alert tone="info" title="The audit log is for owners and admins">
      <p>
        {role ? `As ${role === 'admin' || role === 'owner' ? 'an' : 'a'} ${role} you cannot see it.` : 'Your role does not allow you to see it.'}
        {' '}Ask an owner or admin of the organisation if you need to know who changed what.
      </p>
    </Alert>
  );
}

export default function AuditPage() {
  const membership = useMembership();
  const orgId = membership?.org_id ?? '';
  const allowed = membership !== null && CAN.viewAuditLog(membership.role);

  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);

  // Names for `user:<id>` and key ids: the members (as on the Team page) and the keys.
  const members = useAsync(async (signal) => (allowed ? api('GET /v3/organisations/{orgId}/members', { path: { orgId }, query: { limit: 100 } }, { signal }) : null), [orgId, allowed]);
  const keys = useAsync(async (signal) => (allowed ? api('GET /v3/organisations/{orgId}/keys', { path: { orgId }, query: { limit: 100 } }, { signal }) : null), [orgId, allowed]);
  const names = useMemo<AuditNames>(() => {
    const keyNames = new Map((keys.data?.data ?? []).map((key) => [key.id, key.name] as [string, string]));
    // A key no longer listed still has its name in its own `key.created` entry.
    for (const entry of entries ?? []) {
      if (entry.action === 'key.created' && typeof entry.detail.name === 'string' && !keyNames.has(entry.target)) keyNames.set(entry.target, entry.detail.name);
    }
    return { users: new Map((members.data?.data ?? []).map((member) => [member.user_id, member.full_name] as [string, string])), keys: keyNames };
  }, [members.data, keys.data, entries]);

  async function load(cursor: string | null, signal?: AbortSignal) {
    setLoading(true);
    setError(null);
    try {
      const page = await api('GET /v3/organisations/{orgId}/audit-log', { path: { orgId }, query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, { signal });
      if (signal?.aborted) return;
      setEntries((before) => [...(cursor && before ? before : []), ...page.data]);
      setNext(page.next_cursor);
    } catch (failure) {
      if (!signal?.aborted) setError(failure);
    } finally {
      if (!signal?.aborted) setLoading(false);
    }
  }

  useEffect(() => {
    setEntries(null);
    setNext(null);
    if (!allowed) return;
    const controller = new AbortController();
    void load(null, controller.signal);
    return () => controller.abort();
  }, [orgId, allowed]);

  if (!membership) return <SettingsFrame><EmptyState title="No organisation">Your account belongs to no organisation.</EmptyState></SettingsFrame>;
  // The role the dashboard knows may be out of date: the server's refusal says the same.
  if (!allowed || errorCode(error) === 'role_not_allowed') return <SettingsFrame><OwnersAndAdminsOnly role={allowed ? undefined : membership.role} /></SettingsFrame>;

  return (
    <SettingsFrame>
      <Section title="Audit log" id="audit">
        <p class="muted">
          Changes to {membership.name}'s API keys, members, invitations and plan, and identity check results, newest first. Times are in your time zone.
        </p>
        <ErrorMessage error={error} />
        {entries === null ? (loading ? <Loading label="Loading the audit log…" /> : null) : (
          <DataTable<Entry>
            caption={`Audit log of ${membership.name}`}
            captionHidden
            rows={entries}
            rowKey={(entry) => String(entry.id)}
            empty={<EmptyState title="Nothing recorded yet">Creating, rotating or revoking an API key, inviting or removing a member, or changing the plan shows up here.</EmptyState>}
            columns={[
              { header: 'When', cell: (entry) => <time class="nowrap" dateTime={entry.at}>{formatUtc(entry.at)}</time> },
              { header: 'Who', cell: (entry) => describeEntry(entry, names).who },
              { header: 'What', cell: (entry) => <strong>{describeEntry(entry, names).what}</strong> },
              {
                header: 'On',
                cell: (entry) => {
                  const { name, id } = describeEntry(entry, names).on;
                  return <div class="audit-target">{name}{id && <code class="audit-id">{id}</code>}</div>;
                },
              },
              {
                header: 'Detail',
                cell: (entry) => {
                  const lines = describeEntry(entry, names).detail;
                  return lines.length ? <div class="audit-detail">{lines.map((line) => <p key={line}>{line}</p>)}</div> : <span class="muted">–</span>;
                },
              },
            ]}
          />
        )}
        {entries !== null && next && (
          <div class="button-row">
            <Button busy={loading} onClick={() => load(next)}>Show more</Button>
            <span class="muted small">{entries.length} shown</span>
          </div>
        )}
      </Section>
    </SettingsFrame>
  );
}
