// Sign in with e-mail and password; back to the page that asked (`?next=`), or on with sign-up.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { startSession, useSession, type Account } from '../../api/session.ts';
import { navigate, safeNext, type PageProps } from '../../app/router.tsx';
import { Alert, Button, ErrorMessage, PageHeader } from '../../app/ui/basics.tsx';
import { TextField, useSubmit } from '../../app/ui/forms.tsx';
import { FIELD_LABELS } from '../../app/field-labels.ts';

const ENDED: Record<string, string> = {
  expired: 'Your session ended: it was idle too long, or too long after you signed in.',
  revoked: 'Your session ended: you signed out elsewhere, ended this session, or changed your password.',
  unknown: 'Your session is no longer known. Sign in again.',
  missing: 'Sign in to continue.',
  ended: 'Your session ended.',
};

/** Where a user goes after signing in: the page that asked, else sign-up's next step, else home. */
export function afterSignIn(account: Account, next: string | null): string {
  const step = account.onboarding.next_step;
  if (step === 'vehicle' || step === 'email') return '/onboarding';
  return safeNext(next);
}

export default function SignIn({ query }: PageProps) {
  const session = useSession();
  const next = query.get('next');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useSubmit(async () => {
    const answer = await api('POST /v3/accounts/sessions', { body: { email, password } });
    startSession(answer);
    navigate(afterSignIn(answer.account, next), { replace: true });
  });

  // Someone already signed in has nothing to do here.
  useEffect(() => {
    if (session.status === 'signed-in' && session.account && !submit.busy) navigate(afterSignIn(session.account, next), { replace: true });
  }, [session.status]);

  return (
    <div class="card">
      <PageHeader title="Sign in to LAMIS" />
      {session.ended && <Alert tone="warning">{ENDED[session.ended] ?? ENDED.ended}</Alert>}
      <ErrorMessage error={submit.error} inFields />
      <form class="form" onSubmit={submit.onSubmit} noValidate>
        <TextField label={FIELD_LABELS.email} type="email" name="email" autoComplete="username" required value={email} onValue={setEmail}
          error={submit.fields.email} />
        <TextField label={FIELD_LABELS.password} type="password" name="password" autoComplete="current-password" required value={password} onValue={setPassword}
          error={submit.fields.password} />
        <div class="button-row">
          <Button type="submit" variant="primary" busy={submit.busy}>Sign in</Button>
          <a href="/forgot-password">Forgotten your password?</a>
        </div>
      </form>
      <p class="muted" style={{ marginTop: 'var(--space-5)' }}>
        New to LAMIS? <a href="/sign-up">Create an account</a>
      </p>
    </div>
  );
}
