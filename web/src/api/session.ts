// Who is signed in: the account (GET /v3/accounts/me), the organisation the dashboard works for,
// and the session's CSRF token (memory only; a reload asks GET /v3/accounts/session again).
import { useEffect, useState } from 'preact/hooks';
import type { OperationResponse } from '@lamis/sdk';
import { api, onSessionLost, probeSession, setCsrfToken } from './client.ts';

export type Account = OperationResponse<'GET /v3/accounts/me'>;
export type Membership = Account['organisations'][number];
export type Role = Membership['role'];
export type OnboardingStep = Account['onboarding']['steps'][number]['step'];

export interface SessionState {
  status: 'loading' | 'signed-out' | 'signed-in';
  account: Account | null;
  /** Why the last session ended by itself (`expired`, `revoked`...), to say so on the sign-in page. */
  ended: string | null;
}

let state: SessionState = { status: 'loading', account: null, ended: null };
const listeners = new Set<() => void>();

function update(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function sessionState(): SessionState {
  return state;
}

/** The session state, drawn again whenever it changes. */
export function useSession(): SessionState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    const listener = () => setCurrent(state);
    listeners.add(listener);
    listener();
    return () => void listeners.delete(listener);
  }, []);
  return current;
}

/** At start: is there a session cookie, and whose? */
export async function loadSession(): Promise<void> {
  const session = await probeSession();
  if (!session) {
    update({ status: 'signed-out', account: null, ended: null });
    return;
  }
  setCsrfToken(session.csrf_token);
  update({ status: 'signed-in', account: await api('GET /v3/accounts/me'), ended: null });
}

/** After sign-in or sign-up, whose answers carry the account and the CSRF token. */
export function startSession(answer: { account: Account; csrf_token: string }): void {
  setCsrfToken(answer.csrf_token);
  update({ status: 'signed-in', account: answer.account, ended: null });
}

/** Reads the account again (after an onboarding step, a new membership...). */
export async function refreshAccount(): Promise<Account> {
  const account = await api('GET /v3/accounts/me');
  update({ ...state, status: 'signed-in', account });
  return account;
}

/** Takes an account from an answer that carries it (the onboarding steps do). */
export function setAccount(account: Account): void {
  update({ ...state, status: 'signed-in', account });
}

const identityListeners: (() => void)[] = [];

/** Calls `listener` whenever the user or organisation the dashboard acts for changes: sign-out, a lost session, another organisation. */
export function onIdentityChange(listener: () => void): void {
  identityListeners.push(listener);
}

function identityChanged(): void {
  for (const listener of identityListeners) listener();
}

function endSession(ended: string | null): void {
  setCsrfToken(null);
  identityChanged();
  update({ status: 'signed-out', account: null, ended });
}

export async function signOut(): Promise<void> {
  try {
    await api('DELETE /v3/accounts/session');
  } finally {
    endSession(null);
  }
}

onSessionLost((reason) => {
  if (state.status === 'signed-in') endSession(reason ?? 'ended');
});

const ORGANISATION_KEY = 'lamis.organisation';

/** The organisation the dashboard works for: the one chosen last, else the first (the user's own). */
export function currentMembership(account: Account | null = state.account): Membership | null {
  if (!account?.organisations.length) return null;
  const chosen = localStorage.getItem(ORGANISATION_KEY);
  return account.organisations.find((membership) => membership.org_id === chosen) ?? account.organisations[0]!;
}

export function chooseOrganisation(orgId: string): void {
  localStorage.setItem(ORGANISATION_KEY, orgId);
  identityChanged();
  update({ ...state });
}

/** The organisation the dashboard works for, with the user's role in it, drawn again on changes. */
export function useMembership(): Membership | null {
  return currentMembership(useSession().account);
}
