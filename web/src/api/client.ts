// The dashboard's calls to the account and organisation routes, which act for the signed-in user:
// the session cookie goes along (`credentials: 'same-origin'`) and, on changes, the session's CSRF
// token in `X-CSRF-Token`. Operations are named and typed as in the OpenAPI document through the
// SDK's client; data routes take an API key instead (see data-key.ts).
import {
  apiError,
  LamisApiError,
  LamisClient,
  parseRateLimit,
  problemFrom,
  type LamisResponse,
  type OperationKey,
  type OperationParams,
  type OperationResponse,
  type RequestOptions,
} from '@lamis/sdk';

/** Parameters may be left out when the operation needs none; `options.signal` aborts the call. */
export type ApiArgs<K extends OperationKey> = {} extends OperationParams<K>
  ? [params?: OperationParams<K>, options?: RequestOptions]
  : [params: OperationParams<K>, options?: RequestOptions];

/** The SDK's typed `request`, called with an operation chosen at run time. */
export type UntypedRequest = (operation: string, params?: unknown, options?: RequestOptions) => Promise<LamisResponse<unknown>>;

/** What the server said about the session: the CSRF token, kept in memory only. */
let csrfToken: string | null = null;
let sessionLost: (reason: string | null) => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a session route answers 401 `session_required` (signed out elsewhere, idle too long). */
export function onSessionLost(listener: (reason: string | null) => void): void {
  sessionLost = listener;
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sessionHeaders(method: string, headers?: HeadersInit): Headers {
  const result = new Headers(headers);
  if (CHANGES.has(method.toUpperCase()) && csrfToken) result.set('x-csrf-token', csrfToken);
  return result;
}

// The SDK's client always sends a key; for the session routes its fetch sends the cookie instead.
const sessionClient = new LamisClient({
  apiKey: 'session',
  url: window.location.origin,
  fetch: (input, init = {}) => {
    const headers = sessionHeaders(init.method ?? 'GET', init.headers);
    headers.delete('authorization');
    return fetch(input, { ...init, headers, credentials: 'same-origin' });
  },
});

function watchSession(error: unknown): never {
  if (error instanceof LamisApiError && error.code === 'session_required') {
    const reason = typeof error.problem.reason === 'string' ? error.problem.reason : null;
    sessionLost(reason);
  }
  throw error;
}

/**
 * Calls an account or organisation operation, e.g.
 * `api('GET /v3/organisations/{orgId}/keys', { path: { orgId } })`. Error answers throw the
 * SDK's `LamisApiError` with the problem document (see errors.ts for messages).
 */
export async function api<K extends OperationKey>(operation: K, ...[params, options]: ApiArgs<K>): Promise<OperationResponse<K>> {
  const request = sessionClient.request.bind(sessionClient) as unknown as UntypedRequest;
  const response = await request(operation, params ?? {}, options).catch(watchSession);
  return response.data as OperationResponse<K>;
}

/**
 * Like `api`, for the one probe that tells whether anyone is signed in: a 401 here is an answer
 * (signed out), not a session that was lost.
 */
export async function probeSession(): Promise<OperationResponse<'GET /v3/accounts/session'> | null> {
  try {
    return (await sessionClient.request('GET /v3/accounts/session')).data;
  } catch (error) {
    if (error instanceof LamisApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * Sends a file as the raw body (the identity upload takes the document itself, not JSON), with
 * the session and CSRF token; answers as `api` does.
 */
export async function upload<K extends OperationKey>(operation: K, file: Blob): Promise<OperationResponse<K>> {
  const [method, path] = operation.split(' ') as [string, string];
  const headers = sessionHeaders(method, { accept: 'application/json', 'content-type': file.type || 'application/octet-stream' });
  const response = await fetch(path, { method, headers, body: file, credentials: 'same-origin' });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const problem = problemFrom(response.status, response.statusText, body, text, path);
    watchSession(apiError({ status: response.status, problem, headers: response.headers, rateLimit: parseRateLimit(response.headers) }));
  }
  return body as OperationResponse<K>;
}
