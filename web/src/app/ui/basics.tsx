// The small pieces every page uses: buttons, messages, badges, loading and empty states, headers.
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { LamisApiError } from '@lamis/sdk';
import { DashboardError, errorMessage } from '../../api/errors.ts';
import { AlertIcon, CheckIcon, CopyIcon, InfoIcon } from './icons.tsx';

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'size' | 'type'> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'quiet';
  size?: 'normal' | 'small';
  /** Shows a spinner and blocks clicks while an action runs. */
  busy?: boolean;
  type?: 'button' | 'submit' | 'reset';
  disabled?: boolean;
};

export function Button({ variant = 'secondary', size = 'normal', busy = false, type = 'button', disabled, class: className, children, ...rest }: ButtonProps) {
  const classes = ['button', `button-${variant}`, size === 'small' ? 'button-small' : '', busy ? 'is-busy' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} class={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && <span class="spinner spinner-inline" aria-hidden="true" />}
      {children}
    </button>
  );
}

/** A link drawn as a button (for navigation, which must stay a link). */
export function ButtonLink({ href, variant = 'secondary', size = 'normal', children }: { href: string; variant?: ButtonProps['variant']; size?: ButtonProps['size']; children: ComponentChildren }) {
  return <a href={href} class={`button button-${variant}${size === 'small' ? ' button-small' : ''}`}>{children}</a>;
}

/**
 * A button for something that cannot be undone: the first press asks, in place, for a second one.
 */
export function ConfirmButton({ label, confirmLabel, question, onConfirm, busy, size = 'small' }: {
  label: string;
  confirmLabel?: string;
  question: string;
  onConfirm: () => void | Promise<void>;
  busy?: boolean;
  size?: ButtonProps['size'];
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (!asking) return <Button size={size} variant="danger" busy={busy} onClick={() => setAsking(true)}>{label}</Button>;
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span class="confirm-question">{question}</span>
      <button ref={confirmRef} type="button" class={`button button-danger${size === 'small' ? ' button-small' : ''}`} onClick={async () => {
        setAsking(false);
        await onConfirm();
      }}>{confirmLabel ?? label}</button>
      <Button size={size} variant="quiet" onClick={() => setAsking(false)}>Cancel</Button>
    </span>
  );
}

/**
 * A modal question before a change that matters (a plan): says what will change, and acts only on
 * the confirm button. Escape or Cancel closes it unchanged.
 */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose, busy, tone = 'primary' }: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  onClose: () => void;
  busy?: boolean;
  tone?: 'primary' | 'danger';
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} class="dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId} class="dialog-title">{title}</h2>
      <div class="dialog-body">{children}</div>
      <div class="button-row">
        <Button variant={tone} busy={busy} onClick={onConfirm}>{confirmLabel}</Button>
        <Button variant="quiet" onClick={() => dialog.current?.close()}>Cancel</Button>
      </div>
    </dialog>
  );
}

/** Copies `text`; says so for a moment. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <Button size="small" onClick={() => navigator.clipboard.writeText(text).then(() => setState('copied'), () => setState('failed'))}>
      {state === 'copied' ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy it' : label}</span>
    </Button>
  );
}

export type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'neutral';

export function StatusBadge({ tone = 'neutral', children, title }: { tone?: Tone; children: ComponentChildren; title?: string }) {
  return <span class={`badge badge-${tone}`} title={title}>{children}</span>;
}

/** A message box: `error` and `warning` are announced at once, the others politely. */
export function Alert({ tone = 'info', title, children }: { tone?: 'info' | 'success' | 'warning' | 'error'; title?: string; children?: ComponentChildren }) {
  const urgent = tone === 'error' || tone === 'warning';
  return (
    <div class={`alert alert-${tone}`} role={urgent ? 'alert' : 'status'}>
      {tone === 'success' ? <CheckIcon /> : urgent ? <AlertIcon /> : <InfoIcon />}
      <div class="alert-body">
        {title && <p class="alert-title">{title}</p>}
        {children}
      </div>
    </div>
  );
}

/**
 * What went wrong, read from a problem document (or the dashboard's own error), with where to fix
 * it. In a form that shows each field's error by its field, `inFields` keeps this to a pointer.
 */
export function ErrorMessage({ error, title, inFields = false }: { error: unknown; title?: string; inFields?: boolean }) {
  if (!error) return null;
  const fixAt = error instanceof DashboardError ? error.fixAt : null;
  const shownByFields = inFields && error instanceof LamisApiError && error.fieldErrors.length > 0;
  return (
    <Alert tone="error" title={title}>
      <p>{shownByFields ? 'Please correct what is marked below.' : errorMessage(error)}</p>
      {fixAt && fixAt !== window.location.pathname && <p><a href={fixAt}>Go there now</a></p>}
    </Alert>
  );
}

export function Loading({ label = 'Loading…', inline = false }: { label?: string; inline?: boolean }) {
  return (
    <div class={inline ? 'loading loading-inline' : 'loading'} role="status">
      <span class="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** Nothing to show yet: says why, and what to do next. */
export function EmptyState({ title, children, action }: { title: string; children?: ComponentChildren; action?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-body">{children}</div>}
      {action && <div class="empty-action">{action}</div>}
    </div>
  );
}

/**
 * The page's heading. It takes focus after a navigation (the router's job), so screen reader
 * users hear where they are.
 */
export function PageHeader({ title, children, actions }: { title: string; children?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1 tabIndex={-1} data-page-heading>{title}</h1>
        {children && <div class="page-intro">{children}</div>}
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  );
}

export function Section({ title, children, actions, id }: { title: string; children: ComponentChildren; actions?: ComponentChildren; id?: string }) {
  return (
    <section class="card" aria-labelledby={id ? `${id}-title` : undefined}>
      <div class="card-header">
        <h2 id={id ? `${id}-title` : undefined}>{title}</h2>
        {actions && <div class="card-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
