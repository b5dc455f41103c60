// Every route under /v3 needs `Authorization: Bearer <key>` unless it declares `config.public`.
// Who a key belongs to is the verifier's business: the platform only asks it. Until accounts
// exist the verifier knows the keys in the configuration (see `configuredKeys`).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError, problemType } from './problems.ts';

export interface Principal {
  /** Stable, non-secret identifier of the key (for logs, quotas and ownership). */
  key_id: string;
  organisation_id: string | null;
  environment: 'development' | 'production';
  /** An operator of this instance (a key from its configuration): may use admin endpoints. */
  admin: boolean;
}

/** Why a presented key was refused. */
export type KeyRejection = 'malformed' | 'unknown' | 'expired' | 'revoked';
export type KeyCheck = { ok: true; principal: Principal } | { ok: false; reason: KeyRejection };
export type KeyVerifier = (secret: string) => Promise<KeyCheck>;

const REFUSALS: Record<KeyRejection | 'missing' | 'bad_header', string> = {
  missing: 'Send an API key as `Authorization: Bearer <key>`.',
  bad_header: 'The Authorization header must read `Bearer <key>`.',
  malformed: 'The API key is malformed: its checksum does not match (a typing or copying error?).',
  unknown: 'The API key is not recognised.',
  expired: 'The API key has expired; create a new one.',
  revoked: 'The API key has been revoked (or replaced by rotation and its overlap is over).',
};

function refuse(reason: keyof typeof REFUSALS): ProblemError {
  return new ProblemError(unauthorized, REFUSALS[reason], { headers: CHALLENGE, extra: { reason } });
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The route answers without an API key. */
    public?: boolean;
    /** The route acts for a signed-in user: it checks the session cookie itself, not an API key. */
    session?: boolean;
  }
}

/** The dashboard session cookie (set and checked by accounts). */
export const SESSION_COOKIE = 'lamis_session';

export const unauthorized = problemType({
  code: 'unauthorized',
  status: 401,
  title: 'An API key is needed',
  description: 'The route needs `Authorization: Bearer <key>` with a valid, unexpired, unrevoked API key; `reason` says which check failed: `missing`, `bad_header`, `malformed`, `unknown`, `expired` or `revoked`.',
});

/** The header a 401 carries, so clients know to send a bearer key. */
export const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="LAMIS"' };

/** The key of an `Authorization: Bearer <key>` header; null when the header says something else. */
export function bearerSecret(header: string): string | null {
  return /^Bearer[ ]+(\S+)\s*$/i.exec(header)?.[1] ?? null;
}

function secretFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  return bearerSecret(header) ?? '';
}

export function installAuth(app: FastifyInstance, verify: KeyVerifier): void {
  app.decorateRequest('principal', null);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v3/') || route.config?.public) {
      // Said explicitly, so client generators and linters know no credential is needed.
      if (!route.schema?.hide) route.schema = { ...route.schema, security: [] };
      return;
    }
    if (route.config?.session) {
      route.schema = { ...route.schema, security: [{ session: [] }] };
      return;
    }
    if (!route.schema?.hide) route.schema = { ...route.schema, security: [{ apiKey: [] }] };
    const hooks = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...hooks, async (request) => {
      const secret = secretFrom(request);
      if (secret === null) throw refuse('missing');
      if (secret === '') throw refuse('bad_header');
      const check = await verify(secret);
      if (!check.ok) throw refuse(check.reason);
      request.principal = check.principal;
    }];
  });
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** A verifier for a fixed list of keys (instance operators), compared in constant time through their digests. */
export function configuredKeys(secrets: readonly string[], environment: Principal['environment']): KeyVerifier {
  const known = secrets.map((secret) => ({ digest: digest(secret), key_id: `cfg_${digest(secret).toString('hex').slice(0, 12)}` }));
  return async (secret) => {
    const candidate = digest(secret);
    const match = known.find((k) => timingSafeEqual(k.digest, candidate));
    return match
      ? { ok: true, principal: { key_id: match.key_id, organisation_id: null, environment, admin: true } }
      : { ok: false, reason: 'unknown' };
  };
}

export const DEVELOPMENT_KEY_FILE = 'api-key';

/**
 * The key of a service started with no keys configured: made once, kept in the data folder so it
 * survives restarts, readable only by its owner.
 */
export function developmentKey(dataDir: string): { secret: string; file: string } {
  const file = path.resolve(dataDir, DEVELOPMENT_KEY_FILE);
  try {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 16) return { secret, file };
  } catch {
    // no key yet: make one below
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = `lamis_dev_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { secret, file };
}
