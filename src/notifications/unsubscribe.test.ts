// Unsubscribe tokens: what one names comes back from it, and nothing else passes: another key's
// token, a payload or signature changed by one character, a widened scope, a token cut short.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { UnsubscribeTokens } from './unsubscribe.ts';

const tokens = new UnsubscribeTokens(randomBytes(32));
const named = { userId: 'usr_0123456789abcdef', orgId: 'org_0123456789abcdef', scope: 'critical' as const };

/** The text with the character at `index` replaced by another of the base64url alphabet. */
const changedAt = (text: string, index: number) => `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;

test('a token reads back as the member, organisation and severity it names', () => {
  const token = tokens.issue(named);
  assert.match(token, /^[\w-]+\.[\w-]+$/);
  assert.deepEqual(tokens.read(token), named);
  assert.deepEqual(tokens.read(tokens.issue({ ...named, scope: 'all' })), { ...named, scope: 'all' });
});

test('a forged, changed or cut token reads as null', () => {
  const token = tokens.issue(named);
  const [payload, signature] = token.split('.') as [string, string];
  const widened = Buffer.from(JSON.stringify([named.userId, named.orgId, 'all'])).toString('base64url');
  for (const bad of [
    new UnsubscribeTokens(randomBytes(32)).issue(named),
    `${widened}.${signature}`,
    `${changedAt(payload, 3)}.${signature}`,
    `${payload}.${changedAt(signature, 5)}`,
    `${payload}.${signature.slice(0, -1)}`,
    payload,
    `${token}.more`,
    '',
  ]) {
    assert.equal(tokens.read(bad), null, bad);
  }
});
