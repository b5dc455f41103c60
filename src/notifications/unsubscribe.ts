// Unsubscribe links: a token naming the member, the organisation and the severity (or `all`) it
// turns off, signed with an HMAC under a key derived from the master key. Whoever holds the mail
// may use the link without signing in (RFC 8058 one-click too), and nobody can make one for
// another member or organisation or widen one: any change to the token breaks its signature.
// Tokens do not expire: a mail read months later still unsubscribes.
import { timingSafeEqual } from 'node:crypto';
import { blindIndex } from '../platform/crypto/index.ts';
import { SEVERITIES, type Severity } from '../events/index.ts';

export type UnsubscribeScope = Severity | 'all';

export interface Unsubscribe {
  userId: string;
  orgId: string;
  scope: UnsubscribeScope;
}

const SCOPES: readonly string[] = [...SEVERITIES, 'all'];

export class UnsubscribeTokens {
  readonly #sign: (payload: string) => string;

  constructor(masterKey: Buffer) {
    this.#sign = blindIndex(masterKey, 'notifications.unsubscribe', (payload) => payload);
  }

  /** `payload.signature`, both base64url: URL-safe as it stands. */
  issue(unsubscribe: Unsubscribe): string {
    const payload = Buffer.from(JSON.stringify([unsubscribe.userId, unsubscribe.orgId, unsubscribe.scope])).toString('base64url');
    return `${payload}.${this.#sign(payload)}`;
  }

  /** What a token says, or null for one this service did not sign (forged, tampered, cut short). */
  read(token: string): Unsubscribe | null {
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return null;
    const expected = Buffer.from(this.#sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const fields: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(fields) || fields.length !== 3 || !fields.every((field) => typeof field === 'string') || !SCOPES.includes(fields[2])) return null;
    return { userId: fields[0], orgId: fields[1], scope: fields[2] as UnsubscribeScope };
  }
}
