// Where the verification mail's link lands (the server sends browsers here from
// /v3/accounts/verify-email): verifies the address through the API and says what comes next.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import { refreshAccount, useSession } from '../../api/session.ts';
import type { PageProps } from '../../app/router.tsx';
import { Alert, ButtonLink, ErrorMessage, Loading, PageHeader } from '../../app/ui/basics.tsx';
import { invitationPath, pendingInvitation } from './pending-invitation.ts';

const INVALID: Record<string, string> = {
  unknown: 'This link is not known: it may have been cut short when copied, or your address was verified through another link.',
  expired: 'This link has expired: links work for 24 hours. Sign in and ask for a new one.',
  used: 'This link has been used already: if that was you, your address is verified.',
};

export default function VerifyEmail({ query }: PageProps) {
  const token = query.get('token') ?? '';
  const { status } = useSession();
  const [result, setResult] = useState<{ ok: boolean; error: unknown } | null>(null);

  useEffect(() => {
    if (!token) return;
    api('GET /v3/accounts/verify-email', { query: { token } }).then(
      async () => {
        setResult({ ok: true, error: null });
        if (status === 'signed-in') await refreshAccount().catch(() => {});
      },
      (error: unknown) => setResult({ ok: false, error }),
    );
  }, [token]);

  const invitation = pendingInvitation();
  const next = status === 'signed-in'
    ? <ButtonLink href="/onboarding" variant="primary">Continue to the identity check</ButtonLink>
    : <ButtonLink href="/sign-in?next=%2Fonboarding" variant="primary">Sign in to continue</ButtonLink>;

  let body;
  if (!token) body = <Alert tone="error" title="This link is incomplete">It has no token. Open the link from the mail again, or copy all of it.</Alert>;
  else if (!result) body = <Loading label="Verifying your e-mail address…" />;
  else if (result.ok) {
    body = (
      <>
        <Alert tone="success" title="Your e-mail address is verified">Next comes the last step of signing up: the identity check.</Alert>
        {invitation && (
          <Alert tone="info" title={`You were invited to join ${invitation.organisation_name}`}>
            <a href={invitationPath(invitation.token)}>Accept the invitation</a>
          </Alert>
        )}
        <div class="button-row">{next}</div>
      </>
    );
  } else {
    const reason = errorCode(result.error) === 'verification_link_invalid' ? String((result.error as { problem?: { reason?: unknown } }).problem?.reason ?? '') : '';
    body = (
      <>
        {INVALID[reason] ? <Alert tone="warning" title="The link did not work">{INVALID[reason]}</Alert> : <ErrorMessage error={result.error} />}
        <div class="button-row">{status === 'signed-in' ? <ButtonLink href="/onboarding" variant="primary">Back to signing up</ButtonLink> : next}</div>
      </>
    );
  }
  return (
    <div class="card">
      <PageHeader title="Verify your e-mail address" />
      {body}
    </div>
  );
}
