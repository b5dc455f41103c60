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

export type KeyVerifier = (secret: string) => Promise<Principal | null>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The route answers without an API key. */
    public?: boolean;
  }
}

export const unauthorized = problemType({
  code: 'unauthorized',
  status: 401,
  title: 'An API key is needed',
  description: 'The route needs `Authorization: Bearer <key>` with a valid, unrevoked API key.',
});

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="LAMIS"' };

function secretFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

export function installAuth(app: FastifyInstance, verify: KeyVerifier): void {
  app.decorateRequest('principal', null);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v3/') || route.config?.public) return;
    if (!route.schema?.hide) route.schema = { ...route.schema, security: [{ apiKey: [] }] };
    const hooks = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...hooks, async (request) => {
      const secret = secretFrom(request);
      if (secret === null) throw new ProblemError(unauthorized, 'Send an API key as `Authorization: Bearer <key>`.', { headers: CHALLENGE });
      if (secret === '') throw new ProblemError(unauthorized, 'The Authorization header must read `Bearer <key>`.', { headers: CHALLENGE });
      const principal = await verify(secret);
      if (!principal) throw new ProblemError(unauthorized, 'The API key is not recognised or has been revoked.', { headers: CHALLENGE });
      request.principal = principal;
    }];
  });
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** A verifier for a fixed list of keys, compared in constant time through their digests. */
export function configuredKeys(secrets: readonly string[]): KeyVerifier {
  const known = secrets.map((secret) => ({ digest: digest(secret), key_id: `cfg_${digest(secret).toString('hex').slice(0, 12)}` }));
  return async (secret) => {
    const candidate = digest(secret);
    const match = known.find((k) => timingSafeEqual(k.digest, candidate));
    return match ? { key_id: match.key_id, organisation_id: null, environment: 'development', admin: true } : null;
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
