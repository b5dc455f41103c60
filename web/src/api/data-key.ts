// The API key the dashboard uses for data routes (landing, airports, vessels, ports, the stream).
// A session is not a key, so the dashboard gets one through the public API: for an owner or admin,
// `POST /v3/organisations/{orgId}/dashboard-key` answers the user's one key named "dashboard" in
// the organisation, the same key for every session and tab, made on first use. The secret is kept
// in sessionStorage only, so it lives as long as the tab and leaves at sign-out.
//
// - The server picks the environment: production when the user's identity is verified (the
//   organisation's budget, e.g. 100 requests a minute on Starter), else development (a tenth of
//   that, at most 60 a minute); and it rotates the key once it is older than a session may last,
//   the old one working as long again for the tabs still holding it.
// - Members and viewers cannot have one; they can enter a key an owner gave them (Settings → API keys).
import { LamisClient, LamisUnauthorizedError, type LamisResponse, type OperationKey, type OperationResponse } from '@lamis/sdk';
import { api, type ApiArgs, type UntypedRequest } from './client.ts';
import { DashboardError } from './errors.ts';
import { currentMembership, onIdentityChange, sessionState, type Account, type Membership } from './session.ts';

export const DASHBOARD_KEY_NAME = 'dashboard';
const STORAGE_KEY = 'lamis.dashboard-key';

export interface DataKey {
  secret: string;
  org_id: string;
  user_id: string;
  /** `created` by the dashboard (renewed when it stops working), or `entered` by the user. */
  source: 'created' | 'entered';
}

function storedKey(): DataKey | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as DataKey | null;
    return stored && typeof stored.secret === 'string' ? stored : null;
  } catch {
    return null;
  }
}

function storeKey(key: DataKey): DataKey {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(key));
  return key;
}

export function forgetDataKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
// The key is the user's in one organisation: another user or organisation needs its own.
onIdentityChange(forgetDataKey);

/** The key this tab uses now, without making one. */
export function currentDataKey(): DataKey | null {
  const { account } = sessionState();
  const membership = currentMembership();
  const stored = storedKey();
  if (!stored || !account || !membership) return null;
  return stored.user_id === account.user.id && stored.org_id === membership.org_id ? stored : null;
}

/** Uses a key the user typed in (one an owner or admin gave them) for the data pages of this tab. */
export function enterDataKey(secret: string): DataKey {
  const { account } = sessionState();
  const membership = currentMembership();
  if (!account || !membership) throw new DashboardError('Sign in first.', '/sign-in');
  const trimmed = secret.trim();
  if (!/^lamis_(live|test)_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/.test(trimmed)) {
    throw new DashboardError('That is not a LAMIS API key: keys read lamis_live_… or lamis_test_… followed by 32 letters and digits, an underscore and 6 more.');
  }
  return storeKey({ secret: trimmed, org_id: membership.org_id, user_id: account.user.id, source: 'entered' });
}

async function makeKey(account: Account, membership: Membership): Promise<DataKey> {
  if (membership.role !== 'owner' && membership.role !== 'admin') {
    throw new DashboardError(
      `This page needs an API key, and as a ${membership.role} of ${membership.name} you cannot create one. ` +
        'Ask an owner or admin for a key and enter it under Settings → API keys.',
      '/settings/keys',
    );
  }
  if (!account.user.email_verified) {
    throw new DashboardError('This page needs an API key, which needs your e-mail address verified. Finish signing up first.', '/onboarding');
  }
  const orgId = membership.org_id;
  const { secret } = await api('POST /v3/organisations/{orgId}/dashboard-key', { path: { orgId } });
  return storeKey({ secret, org_id: orgId, user_id: account.user.id, source: 'created' });
}

let making: Promise<DataKey> | null = null;

/** The key for data routes, made on first use (one request at a time makes it). */
export async function dataKey(): Promise<DataKey> {
  const current = currentDataKey();
  if (current) return current;
  const { account } = sessionState();
  const membership = currentMembership();
  if (!account) throw new DashboardError('Sign in to see this page.', '/sign-in');
  if (!membership) throw new DashboardError('Your account belongs to no organisation, so it has no API key to use.');
  making ??= makeKey(account, membership).finally(() => {
    making = null;
  });
  return making;
}

const STALE = new Set(['revoked', 'expired', 'unknown']);

/** Calls a data operation with the dashboard's key, with the rate limit and headers of the answer. */
export async function dataResponse<K extends OperationKey>(operation: K, ...[params, options]: ApiArgs<K>): Promise<LamisResponse<OperationResponse<K>>> {
  const call = (key: DataKey) => {
    const client = new LamisClient({ apiKey: key.secret, url: window.location.origin });
    return (client.request.bind(client) as unknown as UntypedRequest)(operation, params ?? {}, options) as Promise<LamisResponse<OperationResponse<K>>>;
  };
  const key = await dataKey();
  try {
    return await call(key);
  } catch (error) {
    if (!(error instanceof LamisUnauthorizedError) || !STALE.has(error.reason ?? '')) throw error;
    forgetDataKey();
    if (key.source === 'entered') {
      throw new DashboardError(`The API key entered for this dashboard no longer works (${error.reason}). Enter another under Settings → API keys.`, '/settings/keys');
    }
    // Revoked or rotated away elsewhere: a new one, once.
    return call(await dataKey());
  }
}

/** Calls a data operation with the dashboard's key, e.g. `data('GET /v3/maritime/ports', { query: { q } })`. */
export async function data<K extends OperationKey>(operation: K, ...args: ApiArgs<K>): Promise<OperationResponse<K>> {
  return (await dataResponse(operation, ...args)).data;
}
