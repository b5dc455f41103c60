// Sign-up: the four onboarding steps in order, with their progress. 1. details (the account and a
// session), 2. what you operate and where, 3. the e-mail link (sent for you, resent on request;
// the page moves on when the address is verified, in any tab), 4. the identity document, checked
// in the background, its status followed live until verified, rejected or manual review.
import type { OperationResponse } from '@lamis/sdk';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { countryName } from '../../../../common/countries.ts';
import { api, upload } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import { setAccount, startSession, useSession, type Account, type OnboardingStep } from '../../api/session.ts';
import { capitalise } from '../../app/format.ts';
import { useCountdown, useInterval } from '../../app/hooks.ts';
import type { PageProps } from '../../app/router.tsx';
import { Alert, Button, ButtonLink, ErrorMessage, Loading, PageHeader, StatusBadge } from '../../app/ui/basics.tsx';
import { Field, RadioCards, SelectField, TextField, useSubmit } from '../../app/ui/forms.tsx';
import { HelicopterIcon, MailIcon, PlaneIcon, ShipIcon, UploadIcon } from '../../app/ui/icons.tsx';
import { NewPasswordField, passwordAcceptable } from './password-rules.tsx';
import { invitationPath, pendingInvitation } from './pending-invitation.ts';
import { FIELD_LABELS } from '../../app/field-labels.ts';

const STEPS: { step: OnboardingStep; label: string }[] = [
  { step: 'details', label: 'Your details' },
  { step: 'vehicle', label: 'What you operate' },
  { step: 'email', label: 'Verify your e-mail' },
  { step: 'identity', label: 'Identity check' },
];

/** One verification mail a minute (the server's throttle). */
const RESEND_AFTER_MS = 60_000;
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

function Progress({ current, account }: { current: OnboardingStep | 'done'; account: Account | null }) {
  const done = (step: OnboardingStep) => account?.onboarding.steps.find((entry) => entry.step === step)?.done ?? false;
  const position = current === 'done' ? STEPS.length : STEPS.findIndex((entry) => entry.step === current) + 1;
  return (
    <nav aria-label="Sign-up progress">
      <p class="muted small" aria-live="polite">{current === 'done' ? 'All four steps done' : `Step ${position} of ${STEPS.length}`}</p>
      <ol class="steps">
        {STEPS.map(({ step, label }, index) => {
          const isCurrent = step === current;
          const isDone = done(step) && !isCurrent;
          return (
            <li key={step} class={`step${isDone ? ' is-done' : ''}${isCurrent ? ' is-current' : ''}`} aria-current={isCurrent ? 'step' : undefined}>
              <span class="step-bar" />
              <span><span class="step-number">{index + 1}.</span> {label}{isDone && <span class="visually-hidden"> (done)</span>}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

// ---------- 1. Details ----------

function DetailsStep({ initialEmail }: { initialEmail: string }) {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const submit = useSubmit(async () => {
    setTried(true);
    if (!passwordAcceptable(password, email)) return;
    startSession(await api('POST /v3/accounts/sign-up', { body: { full_name: fullName, email, password } }));
  });
  const passwordError = submit.fields.password ?? (tried && !passwordAcceptable(password, email) ? 'does not meet the rule below yet' : null);
  return (
    <form class="form" onSubmit={submit.onSubmit} noValidate>
      <h2>Your details</h2>
      <p class="muted">Use the name on your passport or ID card: step 4 compares them.</p>
      <ErrorMessage error={submit.error} inFields />
      <TextField label={FIELD_LABELS.full_name} name="full_name" autoComplete="name" required value={fullName} onValue={setFullName} error={submit.fields.full_name} />
      <TextField label={FIELD_LABELS.email} type="email" name="email" autoComplete="email" required value={email} onValue={setEmail} error={submit.fields.email}
        hint="We send a link to it in step 3." />
      <NewPasswordField value={password} onValue={setPassword} email={email} error={passwordError} />
      <div class="button-row">
        <Button type="submit" variant="primary" busy={submit.busy}>Create account and continue</Button>
      </div>
      <p class="muted small" style={{ marginTop: 'var(--space-4)' }}>Already have an account? <a href="/sign-in">Sign in</a></p>
    </form>
  );
}

// ---------- 2. Vehicle and country ----------

const COUNTRIES = (() => {
  const list: { value: string; label: string }[] = [];
  for (let first = 65; first <= 90; first++) {
    for (let second = 65; second <= 90; second++) {
      const code = String.fromCharCode(first, second);
      const name = countryName(code);
      if (name) list.push({ value: code, label: name });
    }
  }
  return list.sort((a, b) => a.label.localeCompare(b.label));
})();

function guessCountry(): string {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const region = /-([A-Z]{2})\b/.exec(tag)?.[1];
    if (region && countryName(region)) return region;
  }
  return '';
}

type Category = 'aircraft' | 'helicopter' | 'vessel';

function VehicleStep({ account, onSaved }: { account: Account; onSaved: (account: Account) => Promise<void> }) {
  const [category, setCategory] = useState<string>(account.user.vehicle_category ?? '');
  const [country, setCountry] = useState(account.user.country ?? guessCountry());
  const [missing, setMissing] = useState<{ category?: string; country?: string }>({});
  const submit = useSubmit(async () => {
    const problems = { category: category ? undefined : 'Choose what you operate.', country: country ? undefined : 'Choose a country.' };
    setMissing(problems);
    if (problems.category || problems.country) return;
    await onSaved(await api('PUT /v3/accounts/onboarding/vehicle', { body: { vehicle_category: category as Category, country } }));
  });
  return (
    <form class="form form-wide" onSubmit={submit.onSubmit} noValidate>
      <h2>What do you operate?</h2>
      <p class="muted">It sets what the dashboard shows first: landing briefings for aircraft and helicopters, the vessel map and ports for vessels. You can use everything either way.</p>
      <ErrorMessage error={submit.error} inFields />
      <RadioCards legend={FIELD_LABELS.vehicle_category} name="vehicle_category" value={category} onValue={setCategory}
        error={missing.category ?? submit.fields.vehicle_category}
        options={[
          { value: 'aircraft', label: 'Aircraft', description: 'Aeroplanes: airports, weather, NOTAMs, landing briefings', icon: <PlaneIcon size={28} /> },
          { value: 'helicopter', label: 'Helicopter', description: 'The same landing intelligence, for rotorcraft', icon: <HelicopterIcon size={28} /> },
          { value: 'vessel', label: 'Vessel', description: 'Live AIS map, ports, tides and weather holds', icon: <ShipIcon size={28} /> },
        ]} />
      <div style={{ maxWidth: '24rem' }}>
        <SelectField label={FIELD_LABELS.country} value={country} onValue={setCountry} options={COUNTRIES} placeholder="Choose a country"
          error={missing.country ?? submit.fields.country} />
      </div>
      <div class="button-row">
        <Button type="submit" variant="primary" busy={submit.busy}>Continue</Button>
      </div>
    </form>
  );
}

// ---------- 3. E-mail ----------

interface Sending {
  at: number;
  error: unknown;
}

function EmailStep({ account, sending, onSend, onBack }: {
  account: Account;
  sending: Sending | null;
  onSend: () => Promise<void>;
  onBack: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const wait = useCountdown((sending?.at ?? 0) + RESEND_AFTER_MS);
  // The link may be opened in another tab or on a phone: look for the verified address now and then.
  useInterval(() => {
    api('GET /v3/accounts/me').then((me) => me.user.email_verified && setAccount(me), () => {});
  }, 4000);
  const send = async () => {
    setBusy(true);
    try {
      await onSend();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <h2><MailIcon /> Check your e-mail</h2>
      {sending && !sending.error && (
        <Alert tone="success" title="Link sent">
          We sent a link to <strong>{account.user.email}</strong>. Open it (on this device or another) to verify the address; the link works for
          24 hours. This page moves on by itself once it is verified.
        </Alert>
      )}
      {sending?.error ? <ErrorMessage error={sending.error} title="The link could not be sent" /> : null}
      {!sending && <p>To verify <strong>{account.user.email}</strong>, LAMIS mails you a link.</p>}
      <p class="muted small">Nothing arrived? Look in your spam folder, or send another link (one a minute, five a day).</p>
      <div class="button-row">
        <Button variant={sending ? 'secondary' : 'primary'} busy={busy} disabled={wait > 0} onClick={send}>
          {sending ? (wait > 0 ? `Send again in ${wait} s` : 'Send the link again') : 'Send the link'}
        </Button>
        <Button variant="quiet" onClick={onBack}>Change what you operate</Button>
      </div>
      <p class="loading loading-inline muted small" style={{ marginTop: 'var(--space-4)' }}>
        <span class="spinner" aria-hidden="true" /> Waiting for the address to be verified…
      </p>
    </div>
  );
}

// ---------- 4. Identity ----------

type Identity = OperationResponse<'GET /v3/accounts/identity'>;

const IDENTITY_STATUS: Record<Identity['status'], { tone: 'ok' | 'warn' | 'bad' | 'info' | 'neutral'; label: string }> = {
  none: { tone: 'neutral', label: 'Not uploaded' },
  pending: { tone: 'info', label: 'Checking' },
  manual_review: { tone: 'warn', label: 'Manual review' },
  verified: { tone: 'ok', label: 'Verified' },
  rejected: { tone: 'bad', label: 'Rejected' },
};

function IdentityStatus({ identity }: { identity: Identity }) {
  const { status, check } = identity;
  const badge = IDENTITY_STATUS[status];
  return (
    <div class="card identity-status" aria-live="polite">
      <p>Status: <StatusBadge tone={badge.tone}>{badge.label}</StatusBadge></p>
      {status === 'pending' && <Loading inline label="LAMIS is reading the machine-readable zone of your document. This takes seconds, or a minute for a photo." />}
      {status === 'manual_review' && (
        <p>The automatic check could not decide, so a person will look at your document. You will get a result without doing anything;
          meanwhile everything but production API keys works.</p>
      )}
      {status === 'verified' && check?.document && (
        <p>Your {check.document.document_code?.startsWith('P') ? 'passport' : 'document'} from {check.document.issuing_state}
          {check.document.number_last4 ? <> ending {check.document.number_last4}</> : null} is verified. The document itself has been deleted.</p>
      )}
      {check && check.reasons.length > 0 && status !== 'verified' && (
        <>
          <p>{status === 'rejected' ? 'Why it was rejected:' : 'What the check found:'}</p>
          <ul class="reasons">{check.reasons.map((reason) => <li key={reason.code + (reason.field ?? '')}>{capitalise(reason.message)}.</li>)}</ul>
        </>
      )}
    </div>
  );
}

function IdentityStep({ account }: { account: Account }) {
  const [identity, setIdentity] = useState<Identity | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const load = () => api('GET /v3/accounts/identity').then(setIdentity, setLoadError);
  useEffect(() => void load(), []);
  const status = identity?.status;
  useInterval(() => void load(), 2000, status === 'pending');
  useEffect(() => {
    // Verified: the account's onboarding is complete now.
    if (status === 'verified' && account.onboarding.next_step === 'identity') api('GET /v3/accounts/me').then(setAccount, () => {});
  }, [status]);

  const submit = useSubmit(async () => {
    if (!file) {
      setFileError('Choose a file first.');
      return;
    }
    if (file.size > MAX_DOCUMENT_BYTES) {
      setFileError(`The file has ${(file.size / 1048576).toFixed(1)} MiB; documents may have at most 10 MiB.`);
      return;
    }
    setIdentity(await upload('POST /v3/accounts/identity', file));
    setFile(null);
  });
  const canUpload = status === 'none' || status === 'rejected';
  return (
    <div>
      <h2>Identity check</h2>
      <p class="muted">
        Production API keys are for people whose identity is checked. Upload the data page of your passport, or the back of an ID card (the side with
        the machine-readable zone, the lines of <code>&lt;&lt;&lt;</code>), as a photo (PNG or JPEG) or a PDF of up to 10 MiB. The name on it must
        match <strong>{account.user.full_name}</strong>. It is stored sealed and deleted once checked.
      </p>
      {loadError ? <ErrorMessage error={loadError} /> : null}
      {!identity && !loadError && <Loading />}
      {identity && identity.status !== 'none' && <IdentityStatus identity={identity} />}
      {canUpload && (
        <form class="form" onSubmit={submit.onSubmit} noValidate>
          <ErrorMessage error={submit.error} inFields />
          <Field label={status === 'rejected' ? 'Upload another document' : 'Passport or ID card'} error={fileError}
            hint="PNG, JPEG or PDF, up to 10 MiB">
            {(props) => (
              <input {...props} type="file" accept="image/png,image/jpeg,application/pdf,.png,.jpg,.jpeg,.pdf"
                onChange={(event) => {
                  setFileError(null);
                  setFile(event.currentTarget.files?.[0] ?? null);
                }} />
            )}
          </Field>
          <div class="button-row">
            <Button type="submit" variant="primary" busy={submit.busy}><UploadIcon size={18} /> Upload and check</Button>
          </div>
        </form>
      )}
      {status !== 'verified' && (
        <p class="muted small" style={{ marginTop: 'var(--space-4)' }}>
          You can do this later: everything but production keys works without it. <a href="/">Skip for now</a>
        </p>
      )}
      {status === 'verified' && <Finished />}
    </div>
  );
}

function Finished() {
  const invitation = pendingInvitation();
  return (
    <>
      <Alert tone="success" title="Your account is ready">You can now create production API keys and use every part of LAMIS.</Alert>
      {invitation && (
        <Alert tone="info" title={`You were invited to join ${invitation.organisation_name}`}>
          <a href={invitationPath(invitation.token)}>See the invitation</a>
        </Alert>
      )}
      <div class="button-row">
        <ButtonLink href="/" variant="primary">Go to the dashboard</ButtonLink>
        <ButtonLink href="/settings/keys">Create an API key</ButtonLink>
      </div>
    </>
  );
}

// ---------- The page ----------

export default function Onboarding({ query }: PageProps) {
  const { status, account } = useSession();
  const [changingVehicle, setChangingVehicle] = useState(false);
  const [sending, setSending] = useState<Sending | null>(null);
  const current: OnboardingStep | 'done' = useMemo(() => {
    if (status !== 'signed-in' || !account) return 'details';
    if (changingVehicle) return 'vehicle';
    return account.onboarding.next_step ?? 'done';
  }, [status, account, changingVehicle]);

  const sendLink = async () => {
    try {
      await api('POST /v3/accounts/onboarding/email-verification');
      setSending({ at: Date.now(), error: null });
    } catch (error) {
      // Already verified elsewhere: the account says so now.
      if (errorCode(error) === 'email_already_verified') {
        setAccount(await api('GET /v3/accounts/me'));
        return;
      }
      setSending({ at: sending?.at ?? 0, error });
    }
  };

  const invitation = pendingInvitation();
  return (
    <div class="card">
      <PageHeader title={status === 'signed-in' ? 'Finish signing up' : 'Create your LAMIS account'} />
      <Progress current={current} account={account} />
      {invitation && current !== 'done' && current !== 'identity' && (
        <Alert tone="info">
          You are signing up to join <strong>{invitation.organisation_name}</strong>. Once your address is verified, open the invitation again to accept it.
        </Alert>
      )}
      {current === 'details' && <DetailsStep initialEmail={query.get('email') ?? ''} />}
      {current === 'vehicle' && account && (
        <VehicleStep account={account} onSaved={async (saved) => {
          setAccount(saved);
          setChangingVehicle(false);
          if (!saved.user.email_verified && !sending) await sendLink();
        }} />
      )}
      {current === 'email' && account && <EmailStep account={account} sending={sending} onSend={sendLink} onBack={() => setChangingVehicle(true)} />}
      {current === 'identity' && account && (
        <>
          {invitation && (
            <Alert tone="info" title={`You were invited to join ${invitation.organisation_name}`}>
              Your address is verified, so you can accept now: <a href={invitationPath(invitation.token)}>see the invitation</a>.
            </Alert>
          )}
          <IdentityStep account={account} />
        </>
      )}
      {current === 'done' && <Finished />}
    </div>
  );
}
