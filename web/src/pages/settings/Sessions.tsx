// Where you are signed in (each session with its browser, address and times), ending any of them,
// and changing the password, which ends all the others.
import type { OperationResponse } from '@lamis/sdk';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { signOut, useSession } from '../../api/session.ts';
import { formatRelative, formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { navigate } from '../../app/router.tsx';
import { Alert, Button, ConfirmButton, ErrorMessage, Loading, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { TextField, useSubmit } from '../../app/ui/forms.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { NewPasswordField, passwordAcceptable } from '../account/password-rules.tsx';
import { SettingsFrame } from './SettingsFrame.tsx';
import { FIELD_LABELS } from '../../app/field-labels.ts';

type Session = OperationResponse<'GET /v3/accounts/sessions'>['data'][number];

/** "Chrome on Linux" from a user agent; the raw string stays in the cell's title. */
export function describeBrowser(agent: string | null): string {
  if (!agent) return 'Unknown browser';
  const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox' : /Chrom(e|ium)\//.test(agent) ? 'Chrome'
    : /Safari\//.test(agent) ? 'Safari' : /curl|node|undici|python|Go-http/i.test(agent) ? 'A program' : 'A browser';
  const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS' : /Windows/.test(agent) ? 'Windows'
    : /Mac OS X|Macintosh/.test(agent) ? 'macOS' : /Linux/.test(agent) ? 'Linux' : null;
  return system ? `${browser} on ${system}` : browser;
}

function ChangePassword() {
  const { account } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [tried, setTried] = useState(false);
  const [ended, setEnded] = useState<number | null>(null);
  const email = account?.user.email ?? '';
  const submit = useSubmit(async () => {
    setTried(true);
    setEnded(null);
    if (!passwordAcceptable(next, email)) return;
    const answer = await api('PUT /v3/accounts/password', { body: { current_password: current, new_password: next } });
    setCurrent('');
    setNext('');
    setTried(false);
    setEnded(answer.ended_sessions);
  });
  return (
    <form class="form" onSubmit={submit.onSubmit} noValidate>
      {ended !== null && (
        <Alert tone="success">Password changed. {ended ? `${ended} other ${ended === 1 ? 'session was' : 'sessions were'} ended.` : 'You had no other sessions.'}</Alert>
      )}
      <ErrorMessage error={submit.error} inFields />
      <input type="text" name="username" autoComplete="username" value={email} hidden readOnly />
      <TextField label={FIELD_LABELS.current_password} type="password" autoComplete="current-password" value={current} onValue={setCurrent} error={submit.fields.current_password} />
      <NewPasswordField label={FIELD_LABELS.new_password} value={next} onValue={setNext} email={email}
        error={submit.fields.new_password ?? (tried && !passwordAcceptable(next, email) ? 'does not meet the rule below yet' : null)} />
      <Button type="submit" variant="primary" busy={submit.busy}>Change password</Button>
    </form>
  );
}

export default function SessionsPage() {
  const sessions = useAsync((signal) => api('GET /v3/accounts/sessions', { query: { limit: 100 } }, { signal }), []);
  const [error, setError] = useState<unknown>(null);
  const end = async (session: Session) => {
    setError(null);
    try {
      if (session.current) {
        await signOut();
        navigate('/sign-in');
        return;
      }
      await api('DELETE /v3/accounts/sessions/{id}', { path: { id: session.id } });
      sessions.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <SettingsFrame>
      <Section title="Where you are signed in" id="sessions">
        <p class="muted">A session ends after 30 minutes without use, or 12 hours after signing in (unless this LAMIS is set up otherwise). End any you do not recognise, and change your password.</p>
        <ErrorMessage error={error ?? sessions.error} />
        {!sessions.data ? (sessions.error ? null : <Loading />) : (
          <DataTable<Session>
            caption="Your sessions"
            captionHidden
            rows={sessions.data.data}
            rowKey={(session) => session.id}
            columns={[
              {
                header: 'Browser',
                cell: (session) => (
                  <span title={session.user_agent ?? undefined}>
                    {describeBrowser(session.user_agent)} {session.current && <StatusBadge tone="ok">this one</StatusBadge>}
                  </span>
                ),
              },
              { header: 'Address', cell: (session) => session.address ?? '–' },
              { header: 'Signed in', cell: (session) => formatUtc(session.created_at) },
              { header: 'Last active', cell: (session) => <span title={formatUtc(session.last_seen_at)}>{formatRelative(session.last_seen_at)}</span> },
              { header: 'Ends', cell: (session) => formatUtc(session.idle_expires_at < session.expires_at ? session.idle_expires_at : session.expires_at) },
              {
                header: 'Actions',
                cell: (session) => (
                  <ConfirmButton label={session.current ? 'Sign out' : 'End'} question={session.current ? 'Sign out here?' : 'End this session?'}
                    onConfirm={() => end(session)} />
                ),
              },
            ]}
          />
        )}
      </Section>
      <Section title="Change your password" id="password">
        <p class="muted">Your other sessions end; this one stays.</p>
        <ChangePassword />
      </Section>
    </SettingsFrame>
  );
}
