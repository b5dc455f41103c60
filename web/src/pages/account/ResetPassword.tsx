// The password-reset mail's link (/reset-password?token=): a new password, sent with the token.
// Every session of the account ends, so the user signs in again afterwards.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import { loadSession } from '../../api/session.ts';
import type { PageProps } from '../../app/router.tsx';
import { Alert, Button, ButtonLink, ErrorMessage, PageHeader } from '../../app/ui/basics.tsx';
import { TextField, useSubmit } from '../../app/ui/forms.tsx';
import { NewPasswordField, passwordAcceptable } from './password-rules.tsx';
import { FIELD_LABELS } from '../../app/field-labels.ts';

const INVALID: Record<string, string> = {
  unknown: 'This link is not known: it may have been cut short when copied.',
  expired: 'This link has expired: reset links work for one hour.',
  used: 'This link has been used already.',
  superseded: 'Your password was changed after this link was sent, so the link no longer works.',
};

export default function ResetPassword({ query }: PageProps) {
  const token = query.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const [done, setDone] = useState<{ email: string; ended: number } | null>(null);
  const submit = useSubmit(async () => {
    setTried(true);
    if (!passwordAcceptable(password, '') || password !== repeat) return;
    const answer = await api('POST /v3/accounts/password-reset/complete', { body: { token, new_password: password } });
    setDone({ email: answer.email, ended: answer.ended_sessions });
    // This browser's session, if it had one, has ended with the others.
    await loadSession().catch(() => {});
  });

  if (!token) {
    return (
      <div class="card">
        <PageHeader title="Choose a new password" />
        <Alert tone="error" title="This link is incomplete">It has no token. Open the link from the mail again, or ask for a new one.</Alert>
        <ButtonLink href="/forgot-password" variant="primary">Ask for a new link</ButtonLink>
      </div>
    );
  }
  if (done) {
    return (
      <div class="card">
        <PageHeader title="Your password is changed" />
        <Alert tone="success">
          The password of <strong>{done.email}</strong> is changed.{' '}
          {done.ended > 0 ? `${done.ended} signed-in ${done.ended === 1 ? 'session was' : 'sessions were'} ended.` : ''} Sign in with the new password.
        </Alert>
        <ButtonLink href={`/sign-in`} variant="primary">Sign in</ButtonLink>
      </div>
    );
  }
  const reason = errorCode(submit.error) === 'password_reset_link_invalid' ? String((submit.error as { problem?: { reason?: unknown } }).problem?.reason ?? '') : '';
  const passwordError = submit.fields.new_password ?? (tried && !passwordAcceptable(password, '') ? 'does not meet the rule below yet' : null);
  return (
    <div class="card">
      <PageHeader title="Choose a new password" />
      {reason ? (
        <Alert tone="warning" title="The link did not work">
          {INVALID[reason] ?? 'The link does not work.'} <a href="/forgot-password">Ask for a new link</a>.
        </Alert>
      ) : (
        <ErrorMessage error={submit.error} inFields />
      )}
      <form class="form" onSubmit={submit.onSubmit} noValidate>
        <NewPasswordField label={FIELD_LABELS.new_password} value={password} onValue={setPassword} email="" error={passwordError} autoFocus />
        <TextField label="The new password again" type="password" autoComplete="new-password" value={repeat} onValue={setRepeat}
          error={tried && repeat !== password ? 'does not match the new password' : null} />
        <div class="button-row">
          <Button type="submit" variant="primary" busy={submit.busy}>Change password</Button>
        </div>
      </form>
    </div>
  );
}
