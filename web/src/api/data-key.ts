// The API key the dashboard uses for data routes (landing, airports, vessels, ports, the stream).
// A session is not a key, so the dashboard gets one the way any client would, through the public
// API: for an owner or admin it makes (or renews) a key named "dashboard" in the organisation, and
// keeps the secret in sessionStorage only, so it lives as long as the tab and leaves at sign-out.
//
// - Production when the user's identity is verified (the organisation's budget, e.g. 100 requests
//   a minute on Starter); development otherwise (a tenth of that, at most 60 a minute), since a
//   development key needs only a verified e-mail address.
// - Reuse: an active "dashboard" key this user made earlier is rotated rather than another one
//   made, so the key list holds one per user and environment. The previous secret keeps working
//   for ROTATION_OVERLAP_HOURS, long enough for another tab still holding it.
// - Members and viewers cannot make keys; they can enter a key an owner gave them (Settings → API keys).
import { LamisClient, LamisUnauthorizedError, type LamisResponse, type OperationKey, type OperationResponse } from '@lamis/sdk';
import { api, type ApiArgs, type UntypedRequest } from './client.ts';
import { DashboardError } from './errors.ts';
import { currentMembership, sessionState, type Account, type Membership } from './session.ts';

export const DASHBOARD_KEY_NAME = 'dashboard';
/** As long as a session may last (LAMIS_SESSION_MAX_HOURS' default). */
export const ROTATION_OVERLAP_HOURS = 12;
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
  const environment = account.identity_status === 'verified' ? 'production' : 'development';
  const orgId = membership.org_id;
  const keys = await api('GET /v3/organisations/{orgId}/keys', { path: { orgId }, query: { limit: 100 } });
  const earlier = keys.data.find((key) =>
    key.name === DASHBOARD_KEY_NAME && key.environment === environment && key.status === 'active' && key.created_by === account.user.id);
  const secret = earlier
    ? (await api('POST /v3/organisations/{orgId}/keys/{keyId}/rotate', { path: { orgId, keyId: earlier.id }, body: { overlap_hours: ROTATION_OVERLAP_HOURS } })).key.secret
    : (await api('POST /v3/accounts/keys', { body: { org_id: orgId, environment, name: DASHBOARD_KEY_NAME } })).secret;
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
