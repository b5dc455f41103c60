// An invitation link. The mail links to /v3/accounts/invitations/preview?token=, and the server
// sends browsers here: the page shows what the invitation offers and leads its invitee to
// accept it, by signing in as the invited address or signing up with it first.
import { useEffect, useState } from 'preact/hooks';
import type { OperationResponse } from '@lamis/sdk';
import { api } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import { chooseOrganisation, refreshAccount, signOut, useSession } from '../../api/session.ts';
import { formatUtc } from '../../app/format.ts';
import { signInPath, type PageProps } from '../../app/router.tsx';
import { Alert, Button, ButtonLink, ErrorMessage, Loading, PageHeader } from '../../app/ui/basics.tsx';
import { useSubmit } from '../../app/ui/forms.tsx';
import { forgetInvitation, invitationPath, rememberInvitation } from './pending-invitation.ts';

type Preview = OperationResponse<'GET /v3/accounts/invitations/preview'>;
type Joined = OperationResponse<'POST /v3/accounts/invitations/accept'>;

const INVALID: Record<string, string> = {
  unknown: 'This invitation link is not known: it may have been cut short when copied.',
  expired: 'This invitation has expired: invitations work for 7 days. Ask whoever invited you to send a new one.',
  used: 'This invitation has been accepted already.',
  revoked: 'This invitation was withdrawn. Ask whoever invited you if that was a mistake.',
};

const ROLES: Record<string, string> = {
  owner: 'an owner: runs everything, the plan and other owners included',
  admin: 'an admin: runs the fleet, the API keys and the members',
  member: 'a member: runs the fleet, uses the data, sees keys and usage',
  viewer: 'a viewer: sees the organisation and its fleet, changes nothing',
};

function sameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export default function Invitation({ query }: PageProps) {
  const token = query.get('token') ?? '';
  const { status, account } = useSession();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const [joined, setJoined] = useState<Joined | null>(null);

  useEffect(() => {
    if (!token) return;
    api('GET /v3/accounts/invitations/preview', { query: { token } }).then(setPreview, setPreviewError);
  }, [token]);

  // Someone who cannot accept yet is led back here after signing up and verifying the address.
  useEffect(() => {
    if (preview && (status !== 'signed-in' || !account?.user.email_verified)) {
      rememberInvitation({ token, organisation_name: preview.organisation_name, email: preview.email });
    }
  }, [preview, status, account]);

  const accept = useSubmit(async () => {
    const membership = await api('POST /v3/accounts/invitations/accept', { body: { token } });
    forgetInvitation();
    await refreshAccount();
    chooseOrganisation(membership.org_id);
    setJoined(membership);
  });

  const here = invitationPath(token);
  const invalidReason = errorCode(previewError) === 'invitation_link_invalid' ? String((previewError as { problem?: { reason?: unknown } }).problem?.reason ?? '') : '';

  let body;
  if (!token) body = <Alert tone="error" title="This link is incomplete">It has no token. Open the link from the mail again.</Alert>;
  else if (previewError) body = invalidReason ? <Alert tone="warning" title="The invitation cannot be used">{INVALID[invalidReason]}</Alert> : <ErrorMessage error={previewError} />;
  else if (!preview) body = <Loading label="Reading the invitation…" />;
  else if (joined) {
    body = (
      <>
        <Alert tone="success" title={`You joined ${joined.name}`}>You are {ROLES[joined.role] ?? joined.role}. The dashboard now works for {joined.name}; switch organisations from the header.</Alert>
        <ButtonLink href="/" variant="primary">Go to the dashboard</ButtonLink>
      </>
    );
  } else {
    const offer = (
      <dl class="facts">
        <dt>Organisation</dt><dd>{preview.organisation_name}</dd>
        <dt>Your role</dt><dd>{ROLES[preview.role] ?? preview.role}</dd>
        <dt>Invited by</dt><dd>{preview.invited_by_name}</dd>
        <dt>For</dt><dd>{preview.email}</dd>
        <dt>Open until</dt><dd>{formatUtc(preview.expires_at)}</dd>
      </dl>
    );
    let action;
    if (status !== 'signed-in' || !account) {
      action = (
        <>
          <p>To accept, sign in as <strong>{preview.email}</strong>. No account yet? Create one with that address; once it is verified, come back to accept.</p>
          <div class="button-row">
            <ButtonLink href={signInPath(here)} variant="primary">Sign in to accept</ButtonLink>
            <a href={`/sign-up?email=${encodeURIComponent(preview.email)}`}>Create an account</a>
          </div>
        </>
      );
    } else if (!sameAddress(account.user.email, preview.email)) {
      action = (
        <>
          <Alert tone="warning">This invitation is for <strong>{preview.email}</strong>, and you are signed in as <strong>{account.user.email}</strong>. Sign out, then sign in (or sign up) with the invited address.</Alert>
          <Button onClick={async () => {
            await signOut().catch(() => {});
            window.location.assign(signInPath(here));
          }}>Sign out</Button>
        </>
      );
    } else if (!account.user.email_verified) {
      action = (
        <>
          <Alert tone="info">Verify your e-mail address first; then you can accept here.</Alert>
          <ButtonLink href="/onboarding" variant="primary">Continue signing up</ButtonLink>
        </>
      );
    } else {
      action = (
        <>
          <ErrorMessage error={accept.error} />
          <div class="button-row">
            <Button variant="primary" busy={accept.busy} onClick={accept.run}>Join {preview.organisation_name}</Button>
            <a href="/">Not now</a>
          </div>
        </>
      );
    }
    body = (
      <>
        <p>{preview.invited_by_name} invites you to join <strong>{preview.organisation_name}</strong> on LAMIS.</p>
        {offer}
        <div style={{ marginTop: 'var(--space-5)' }}>{action}</div>
      </>
    );
  }
  return (
    <div class="card">
      <PageHeader title="Invitation" />
      {body}
    </div>
  );
}
