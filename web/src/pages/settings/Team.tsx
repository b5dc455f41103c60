// Team members and their roles, and invitations by e-mail (Pro and Enterprise). On Starter the page
// shows what an upgrade would give, and owners can change the plan from Plan and usage.
import type { OperationResponse } from '@lamis/sdk';
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { refreshAccount, useMembership, useSession, type Role } from '../../api/session.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { navigate } from '../../app/router.tsx';
import { Alert, Button, ButtonLink, ConfirmButton, EmptyState, ErrorMessage, Loading, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { SelectField, TextField, useSubmit } from '../../app/ui/forms.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { CAN, SettingsFrame } from './SettingsFrame.tsx';
import { FIELD_LABELS } from '../../app/field-labels.ts';

type Member = OperationResponse<'GET /v3/organisations/{orgId}/members'>['data'][number];
type Invitation = OperationResponse<'GET /v3/organisations/{orgId}/invitations'>['data'][number];

const ROLES: { role: Role; summary: string }[] = [
  { role: 'owner', summary: 'Everything, including the plan and other owners' },
  { role: 'admin', summary: 'The fleet, API keys, members and invitations (not owners, not the plan)' },
  { role: 'member', summary: 'The fleet and data pages; sees API keys and usage' },
  { role: 'viewer', summary: 'Looks at the organisation and its fleet; changes nothing' },
];

/** Owners make and touch owners; admins manage the other roles (the server enforces this). */
const mayGrant = (actor: Role, role: Role) => actor === 'owner' || (actor === 'admin' && role !== 'owner');
const mayManage = (actor: Role, target: Role) => actor === 'owner' || (actor === 'admin' && target !== 'owner');

function RoleSelect({ orgId, member, actor, onChanged }: { orgId: string; member: Member; actor: Role; onChanged: (member: Member) => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const options = ROLES.map(({ role }) => ({ value: role, label: role, disabled: !mayGrant(actor, role) }));
  return (
    <div>
      <label class="visually-hidden" for={`role-${member.user_id}`}>Role of {member.full_name}</label>
      <select id={`role-${member.user_id}`} value={member.role} disabled={busy} onChange={async (event) => {
        const role = event.currentTarget.value as Role;
        setBusy(true);
        setError(null);
        try {
          onChanged(await api('PATCH /v3/organisations/{orgId}/members/{userId}', { path: { orgId, userId: member.user_id }, body: { role } }));
        } catch (failure) {
          setError(failure);
          event.currentTarget.value = member.role;
        } finally {
          setBusy(false);
        }
      }}>
        {options.map((option) => <option key={option.value} value={option.value} disabled={option.disabled}>{option.label}</option>)}
      </select>
      <ErrorMessage error={error} />
    </div>
  );
}

function Invite({ orgId, actor, onInvited }: { orgId: string; actor: Role; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [sent, setSent] = useState<string | null>(null);
  const submit = useSubmit(async () => {
    const invitation = await api('POST /v3/organisations/{orgId}/invitations', { path: { orgId }, body: { email, role } });
    setSent(invitation.email);
    setEmail('');
    onInvited();
  });
  return (
    <form class="form form-wide" onSubmit={submit.onSubmit} noValidate>
      {sent && <Alert tone="success">Invitation mailed to <strong>{sent}</strong>. The link works once, for 7 days.</Alert>}
      <ErrorMessage error={submit.error} inFields />
      <div class="grid-2">
        <TextField label={FIELD_LABELS.email} type="email" autoComplete="off" value={email} onValue={setEmail} error={submit.fields.email} />
        <SelectField label={FIELD_LABELS.role} value={role} onValue={(value) => setRole(value as Role)} error={submit.fields.role}
          options={ROLES.map((entry) => ({ value: entry.role, label: `${entry.role}: ${entry.summary}`, disabled: !mayGrant(actor, entry.role) }))} />
      </div>
      <Button type="submit" variant="primary" busy={submit.busy}>Send invitation</Button>
    </form>
  );
}

export default function TeamPage() {
  const { account } = useSession();
  const membership = useMembership();
  const orgId = membership?.org_id ?? '';
  const organisation = useAsync((signal) => api('GET /v3/organisations/{orgId}', { path: { orgId } }, { signal }), [orgId]);
  const members = useAsync((signal) => api('GET /v3/organisations/{orgId}/members', { path: { orgId }, query: { limit: 100 } }, { signal }), [orgId]);
  const actor = (organisation.data?.role ?? membership?.role ?? 'viewer') as Role;
  const invitations = useAsync(async (signal) => {
    if (!CAN.invite(actor)) return { data: [] as Invitation[], next_cursor: null };
    return api('GET /v3/organisations/{orgId}/invitations', { path: { orgId }, query: { limit: 100 } }, { signal });
  }, [orgId, actor]);
  const [removeError, setRemoveError] = useState<unknown>(null);

  if (!membership) return <SettingsFrame><EmptyState title="No organisation">Your account belongs to no organisation.</EmptyState></SettingsFrame>;
  if (organisation.error) return <SettingsFrame><ErrorMessage error={organisation.error} /></SettingsFrame>;
  if (!organisation.data) return <SettingsFrame><Loading /></SettingsFrame>;
  const org = organisation.data;
  const teams = org.limits.team_members;
  const owners = members.data?.data.filter((member) => member.role === 'owner').length ?? 0;

  const remove = async (member: Member) => {
    setRemoveError(null);
    try {
      await api('DELETE /v3/organisations/{orgId}/members/{userId}', { path: { orgId, userId: member.user_id } });
      if (member.user_id === account?.user.id) {
        // Left the organisation: the dashboard moves to another one.
        await refreshAccount();
        navigate('/');
        return;
      }
      members.reload();
    } catch (error) {
      setRemoveError(error);
    }
  };

  return (
    <SettingsFrame>
      {!teams && (
        <Section title="Teams come with Pro and Enterprise" id="upgrade">
          <p>
            {org.name} is on the <strong>Starter</strong> plan, which has one person. With <strong>Pro</strong> or <strong>Enterprise</strong> you invite
            colleagues by e-mail and give each a role:
          </p>
          <dl class="facts">
            {ROLES.map(({ role, summary }) => <Fragment key={role}><dt><StatusBadge>{role}</StatusBadge></dt><dd>{summary}</dd></Fragment>)}
          </dl>
          <p style={{ marginTop: 'var(--space-4)' }}>
            Pro also raises the rate limit to 1,000 requests a minute and adds the live AIS stream.
          </p>
          {CAN.changePlan(actor)
            ? <ButtonLink href="/settings/plan" variant="primary">Compare plans and upgrade</ButtonLink>
            : <p class="muted">Only an owner can change the plan.</p>}
        </Section>
      )}
      <Section title="Members" id="members">
        <ErrorMessage error={removeError} />
        {members.error ? <ErrorMessage error={members.error} /> : null}
        {!members.data ? <Loading /> : (
          <DataTable<Member>
            caption={`Members of ${org.name}`}
            captionHidden
            rows={members.data.data}
            rowKey={(member) => member.user_id}
            columns={[
              { header: 'Name', cell: (member) => <><strong>{member.full_name}</strong>{member.user_id === account?.user.id && <span class="muted"> (you)</span>}</> },
              { header: 'E-mail', cell: (member) => member.email },
              {
                header: 'Role',
                cell: (member) => member.user_id !== account?.user.id && mayManage(actor, member.role)
                  ? <RoleSelect orgId={orgId} member={member} actor={actor} onChanged={() => members.reload()} />
                  : <StatusBadge>{member.role}</StatusBadge>,
              },
              { header: 'Joined', cell: (member) => formatUtc(member.joined_at, { show: 'date' }) },
              {
                header: 'Actions',
                cell: (member) => {
                  const self = member.user_id === account?.user.id;
                  if (!self && !mayManage(actor, member.role)) return <span class="muted small">–</span>;
                  // An organisation keeps at least one owner (the server refuses with last_owner).
                  if (member.role === 'owner' && owners === 1) return <span class="muted small">the only owner</span>;
                  return (
                    <ConfirmButton label={self ? 'Leave' : 'Remove'}
                      question={self ? `Leave ${org.name}?` : `Remove ${member.full_name}? Their API keys stay with the organisation.`}
                      onConfirm={() => remove(member)} />
                  );
                },
              },
            ]}
          />
        )}
      </Section>
      {teams && CAN.invite(actor) && (
        <>
          <Section title="Invite someone" id="invite">
            <Invite orgId={orgId} actor={actor} onInvited={() => invitations.reload()} />
          </Section>
          <Section title="Open invitations" id="invitations">
            {invitations.error ? <ErrorMessage error={invitations.error} /> : null}
            {!invitations.data ? <Loading /> : (
              <DataTable<Invitation>
                caption="Open invitations"
                captionHidden
                rows={invitations.data.data}
                rowKey={(invitation) => invitation.id}
                empty={<EmptyState title="No open invitations">Invite someone above; their invitation shows here until they accept it.</EmptyState>}
                columns={[
                  { header: 'E-mail', cell: (invitation) => invitation.email },
                  { header: 'Role', cell: (invitation) => <StatusBadge>{invitation.role}</StatusBadge> },
                  { header: 'Sent', cell: (invitation) => formatUtc(invitation.created_at) },
                  { header: 'Open until', cell: (invitation) => formatUtc(invitation.expires_at) },
                  {
                    header: 'Actions',
                    cell: (invitation) => (
                      <ConfirmButton label="Revoke" question={`Revoke the invitation to ${invitation.email}?`} onConfirm={async () => {
                        await api('DELETE /v3/organisations/{orgId}/invitations/{invitationId}', { path: { orgId, invitationId: invitation.id } }).catch(setRemoveError);
                        invitations.reload();
                      }} />
                    ),
                  },
                ]}
              />
            )}
          </Section>
        </>
      )}
      {teams && !CAN.invite(actor) && <Alert tone="info">Owners and admins invite new members.</Alert>}
    </SettingsFrame>
  );
}
