// Forgotten password: asks for a reset link by e-mail. The answer is the same whether or not the
// address has an account, and the page says so.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import type { PageProps } from '../../app/router.tsx';
import { Alert, Button, ErrorMessage, PageHeader } from '../../app/ui/basics.tsx';
import { TextField, useSubmit } from '../../app/ui/forms.tsx';
import { FIELD_LABELS } from '../../app/field-labels.ts';

export default function ForgotPassword({ query }: PageProps) {
  const [email, setEmail] = useState(query.get('email') ?? '');
  const [sent, setSent] = useState<{ email: string; minutes: number } | null>(null);
  const submit = useSubmit(async () => {
    const answer = await api('POST /v3/accounts/password-reset', { body: { email } });
    setSent({ email: answer.email, minutes: Math.round(answer.link_expires_in_seconds / 60) });
  });
  return (
    <div class="card">
      <PageHeader title="Forgotten your password?">We mail you a link to choose a new one.</PageHeader>
      {sent && (
        <Alert tone="success" title="Check your inbox">
          If <strong>{sent.email}</strong> has a LAMIS account, a link is on its way. It works once, for {sent.minutes} minutes. Nothing after a few
          minutes? Look in your spam folder, or ask again.
        </Alert>
      )}
      <ErrorMessage error={submit.error} inFields />
      <form class="form" onSubmit={submit.onSubmit} noValidate>
        <TextField label={FIELD_LABELS.email} type="email" name="email" autoComplete="email" required value={email} onValue={setEmail} error={submit.fields.email} />
        <div class="button-row">
          <Button type="submit" variant="primary" busy={submit.busy}>{sent ? 'Send another link' : 'Send me a link'}</Button>
          <a href="/sign-in">Back to sign in</a>
        </div>
      </form>
    </div>
  );
}
