// Form pieces: a field with its label, hint and error (wired with ids and aria attributes), the
// common inputs, and a submit helper that turns an API error into field messages.
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { fieldErrors } from '../../api/errors.ts';
import { fieldSentence } from '../field-labels.ts';

export interface ControlProps {
  id: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/**
 * A label, the control (drawn by `children` with the props it needs), a hint and an error.
 * Errors read as phrases after the label (`Name: is required`), as the API's field messages do.
 * `<Field label="Name" error={errors.name}>{(props) => <input {...props} />}</Field>`
 */
export function Field({ label, hint, error, children, optional }: {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | null;
  optional?: boolean;
  children: (props: ControlProps) => ComponentChildren;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${error ? ' has-error' : ''}`}>
      <label for={id}>
        {label}
        {optional && <span class="optional"> (optional)</span>}
      </label>
      {hint && <div class="hint" id={`${id}-hint`}>{hint}</div>}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described || undefined })}
      {error && <p class="field-error" id={`${id}-error`}>{labelled(label, error)}</p>}
    </div>
  );
}

/** The API's messages (`must be 4 letters or digits`) after the field's label when it is text. */
function labelled(label: ComponentChildren, message: string): string {
  return typeof label === 'string' ? fieldSentence(label, message) : message;
}

export interface TextFieldProps {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | null;
  optional?: boolean;
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'search' | 'number' | 'date' | 'datetime-local' | 'url' | 'tel';
  name?: string;
  autoComplete?: string;
  required?: boolean;
  placeholder?: string;
  autoFocus?: boolean;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'email' | 'search';
  min?: number | string;
  max?: number | string;
  step?: number | string;
  maxLength?: number;
  disabled?: boolean;
  readOnly?: boolean;
  spellcheck?: boolean;
}

export function TextField({ label, hint, error, optional, value, onValue, type = 'text', ...input }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} optional={optional}>
      {/* Preact types each input `type` on its own; any of these takes the same attributes here. */}
      {(props) => <input {...input} {...props} type={type as 'text'} value={value} onInput={(event) => onValue(event.currentTarget.value)} />}
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
  disabled?: boolean;
}

export function SelectField({ label, hint, error, value, onValue, options, disabled, placeholder }: {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | null;
  value: string;
  onValue: (value: string) => void;
  options: Option[];
  disabled?: boolean;
  placeholder?: string;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(props) => (
        <select {...props} value={value} disabled={disabled} onChange={(event) => onValue(event.currentTarget.value)}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => <option key={option.value} value={option.value} disabled={option.disabled}>{option.label}</option>)}
        </select>
      )}
    </Field>
  );
}

/** Radio buttons drawn as cards, in a fieldset with its legend. */
export function RadioCards({ legend, name, value, onValue, options, error }: {
  legend: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  options: (Option & { description?: ComponentChildren; icon?: ComponentChildren })[];
  error?: string | null;
}) {
  const id = useId();
  return (
    <fieldset class={`radio-cards${error ? ' has-error' : ''}`} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div class="radio-card-list">
        {options.map((option) => (
          <label key={option.value} class={`radio-card${value === option.value ? ' is-checked' : ''}${option.disabled ? ' is-disabled' : ''}`}>
            <input type="radio" name={name} value={option.value} checked={value === option.value} disabled={option.disabled}
              onChange={() => onValue(option.value)} />
            {option.icon && <span class="radio-card-icon">{option.icon}</span>}
            <span class="radio-card-text">
              <span class="radio-card-label">{option.label}</span>
              {option.description && <span class="radio-card-description">{option.description}</span>}
            </span>
          </label>
        ))}
      </div>
      {error && <p class="field-error" id={`${id}-error`}>{fieldSentence(legend, error)}</p>}
    </fieldset>
  );
}

export function Checkbox({ label, checked, onChecked, hint, disabled }: {
  label: ComponentChildren;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  hint?: ComponentChildren;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div class="checkbox">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChecked(event.currentTarget.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined} />
      <label for={id}>{label}</label>
      {hint && <div class="hint" id={`${id}-hint`}>{hint}</div>}
    </div>
  );
}

export interface Submission {
  busy: boolean;
  /** The whole error, for a message above the form. */
  error: unknown;
  /** Messages by field (`email`, `thresholds/crosswind_kt_above`), from the problem's `errors[]`. */
  fields: Record<string, string>;
  /** A form's onSubmit: runs the action once at a time. */
  onSubmit: (event?: Event) => Promise<void>;
  /** Runs the action outside a form (a button). */
  run: () => Promise<void>;
  clear: () => void;
}

export function useSubmit(action: () => Promise<unknown>): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    error,
    fields: fieldErrors(error),
    onSubmit: async (event) => {
      event?.preventDefault();
      await run();
    },
    run,
    clear: () => setError(null),
  };
}
