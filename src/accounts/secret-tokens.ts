// The random secrets of session cookies and of verification, reset and invitation links: 32 random
// bytes, base64url (43 characters). Storage keeps only their SHA-256, so its rows open nothing.
import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

export function secretTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether the text can be a token at all: anything else is unknown without a lookup. */
export function isSecretToken(text: string): boolean {
  return TOKEN_PATTERN.test(text);
}
