// Sessions over HTTP: the session cookie and `requireSession`, the hook of every route that acts
// for a signed-in user. Such routes are public for the API-key check (`config.public`) and check
// the session themselves. The check runs at onRequest, before the body is read, so a request
// without a session cannot make the server take in a 10 MiB upload first.
//
// The cookie is `lamis_session`: HttpOnly (scripts cannot read it), SameSite=Lax (other sites'
// pages cannot send it with their requests, top-level links from a mail still work), Path=/,
// Max-Age the absolute session lifetime, and Secure when the request came over HTTPS (as the
// socket or, with LAMIS_TRUST_PROXY, the proxy's X-Forwarded-Proto says). Unsafe methods also need
// the X-CSRF-Token header (sessions.ts).
//
// Every answer to a signed-in user, and every answer of the public account flows (sign-up, sign-in,
// the mailed links), is `Cache-Control: no-store`: they carry a session, its CSRF token, a key's
// secret or someone's personal data, which no browser or proxy cache may keep.
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { SESSION_COOKIE } from '../../platform/http/auth.ts';
import { ProblemError } from '../../platform/http/problems.ts';
import { csrfTokenInvalid, sessionRequired } from '../accounts.problems.ts';
import { csrfTokenMatches, type SessionStore } from './sessions.ts';
import type { SessionRow } from './sessions.table.ts';
import type { UserRow } from '../users/users.table.ts';
import type { Users } from '../users/users.ts';

export const CSRF_HEADER = 'x-csrf-token';

/** For route descriptions: what a session route needs, and what a changing one needs on top. */
export const SESSION_NOTE = 'Needs the session cookie from sign-up or sign-in';
export const CSRF_NOTE = `${SESSION_NOTE}, and the session's \`csrf_token\` in the \`X-CSRF-Token\` header.`;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SignedIn {
  session: SessionRow;
  user: UserRow;
  /** The cookie's value, to derive the CSRF token from. */
  secret: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, on routes guarded by `requireSession`. */
    account: SignedIn | null;
  }
}

/** The value of one cookie from a Cookie header (RFC 6265 syntax: `name=value; name2=value2`). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

function cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, secret: string, lifetimeMs: number): void {
  reply.header('set-cookie', cookie(request, secret, Math.floor(lifetimeMs / 1000)));
}

export function clearSessionCookie(request: FastifyRequest): Record<string, string> {
  return { 'set-cookie': cookie(request, '', 0) };
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The hook of the public account routes; `requireSession` does the same for the others. */
export const noStore: onRequestAsyncHookHandler = async (_request, reply) => {
  reply.headers(NO_STORE);
};

const DETAILS = {
  missing: 'Sign in first: no session cookie came with the request.',
  unknown: 'The session cookie is not a session of this service; sign in again.',
  expired: 'The session has ended (too long without a request, or too long after sign-in); sign in again.',
  revoked: 'The session was ended (signed out, revoked, or the password changed); sign in again.',
};

export function requireSession(sessions: SessionStore, users: Users): onRequestAsyncHookHandler {
  return async (request, reply) => {
    reply.headers(NO_STORE);
    const secret = readCookie(request.headers.cookie, SESSION_COOKIE);
    const refuse = (reason: keyof typeof DETAILS) =>
      new ProblemError(sessionRequired, DETAILS[reason], { extra: { reason }, headers: reason === 'missing' ? {} : clearSessionCookie(request) });
    if (!secret) throw refuse('missing');
    const check = await sessions.authenticate(secret);
    if (!check.ok) throw refuse(check.reason);
    const header = request.headers[CSRF_HEADER];
    if (!SAFE_METHODS.has(request.method) && !csrfTokenMatches(secret, typeof header === 'string' ? header : undefined)) {
      throw new ProblemError(csrfTokenInvalid, 'Send the session\'s csrf_token in the X-CSRF-Token header with requests that change something.');
    }
    const user = await users.get(check.session.user_id);
    if (!user) throw refuse('unknown');
    request.account = { session: check.session, user, secret };
  };
}
