// The password rule, ticked off as the user types: the server's rules (8 to 256 characters after
// NFKC normalisation, not the e-mail address, not one character repeated) checked here too, and
// the common-password list, which only the server holds, marked when it refuses one.
import { Field } from '../../app/ui/forms.tsx';
import { FIELD_LABELS } from '../../app/field-labels.ts';

export interface PasswordCheck {
  length: boolean;
  notEmail: boolean;
  notRepeated: boolean;
}

export function checkPassword(password: string, email: string): PasswordCheck {
  const normalised = password.normalize('NFKC');
  const length = [...normalised].length;
  return {
    length: length >= 8 && length <= 256,
    notEmail: normalised.trim().toLowerCase() !== email.trim().toLowerCase(),
    notRepeated: !/^(.)\1*$/su.test(normalised),
  };
}

export function passwordAcceptable(password: string, email: string): boolean {
  const check = checkPassword(password, email);
  return check.length && check.notEmail && check.notRepeated;
}

function Rule({ state, children }: { state: 'met' | 'failed' | 'open'; children: string }) {
  const mark = state === 'met' ? '✓' : state === 'failed' ? '✗' : '•';
  const said = state === 'met' ? 'done' : state === 'failed' ? 'not met' : 'to do';
  return (
    <li class={state === 'met' ? 'is-met' : state === 'failed' ? 'is-failed' : undefined}>
      <span class="rule-mark" aria-hidden="true">{mark}</span>
      {children}
      <span class="visually-hidden"> ({said})</span>
    </li>
  );
}

/**
 * A new-password field with the rule under it. `email` may be empty when unknown (reset links);
 * `error` is the server's message for the field, e.g. "is too common: …".
 */
export function NewPasswordField({ label = FIELD_LABELS.password, value, onValue, email, error, autoFocus }: {
  label?: string;
  value: string;
  onValue: (value: string) => void;
  email: string;
  error?: string | null;
  autoFocus?: boolean;
}) {
  const check = checkPassword(value, email);
  const typed = value.length > 0;
  const state = (met: boolean) => (!typed ? 'open' : met ? 'met' : 'failed');
  const common = error && /common/i.test(error) ? 'failed' : 'open';
  return (
    <Field label={label} error={error}>
      {(props) => (
        <>
          <input {...props} type="password" autoComplete="new-password" value={value} autoFocus={autoFocus}
            aria-describedby={[props['aria-describedby'], `${props.id}-rules`].filter(Boolean).join(' ')}
            onInput={(event) => onValue(event.currentTarget.value)} />
          <ul class="rules" id={`${props.id}-rules`} aria-label="Password rule">
            <Rule state={state(check.length)}>8 to 256 characters</Rule>
            {email && <Rule state={state(check.notEmail)}>Not your e-mail address</Rule>}
            <Rule state={state(check.notRepeated)}>Not one character repeated</Rule>
            <Rule state={common}>Not a common password (LAMIS checks this when you continue)</Rule>
          </ul>
        </>
      )}
    </Field>
  );
}
