// Signing by the Standard Webhooks scheme (https://www.standardwebhooks.com): a secret of 32 random
// bytes shown as `whsec_<base64>`, and per request `webhook-signature: v1,<base64 HMAC-SHA256 of
// "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the secret's bytes. While a rotated
// secret still signs, its signature follows the new one's, space-separated, so a receiver that
// knows either secret accepts the request.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The `webhook-signature` header: one `v1,<signature>` per secret, in the order given. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => {
    const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
    return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  }).join(' ');
}
