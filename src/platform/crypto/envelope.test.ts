import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Envelope, EnvelopeError, type EnvelopeFailure } from './envelope.ts';
import { keyId } from './master-key.ts';

const CONTEXT = 'fleet.registration:org_123';
const master = randomBytes(32);
const envelope = new Envelope(master);

const fails = (reason: EnvelopeFailure) => (error: unknown) => error instanceof EnvelopeError && error.reason === reason;

/** The token with one bit flipped in the decoded bytes of part `index`. */
function flipped(token: string, index: number, byte: number, bit: number): string {
  const parts = token.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[byte]! ^= 1 << bit;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('envelope round trips', () => {
  test('any text and any bytes come back for the same context', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.string({ minLength: 1 }), (text, context) => {
      assert.equal(envelope.open(envelope.seal(text, context), context).toString('utf8'), text);
    }));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
      assert.deepEqual(envelope.open(envelope.seal(Buffer.from(bytes), CONTEXT), CONTEXT), Buffer.from(bytes));
    }));
  });

  test('empty and large plaintexts', () => {
    assert.equal(envelope.open(envelope.seal('', CONTEXT), CONTEXT).length, 0);
    const large = randomBytes(4 * 1024 * 1024);
    assert.deepEqual(envelope.open(envelope.seal(large, CONTEXT), CONTEXT), large);
  });

  test('sealing the same value twice gives unrelated tokens (fresh data key and IVs)', () => {
    const [a, b] = [envelope.seal('G-ABCD', CONTEXT), envelope.seal('G-ABCD', CONTEXT)];
    const [, , wrappedA, sealedA] = a.split('.');
    const [, , wrappedB, sealedB] = b.split('.');
    assert.notEqual(wrappedA, wrappedB);
    assert.notEqual(sealedA, sealedB);
  });
});

describe('envelope token format', () => {
  test('v1, the key id, then two base64url parts of the expected sizes', () => {
    const token = envelope.seal('G-ABCD', CONTEXT);
    assert.match(token, /^v1\.[\w-]{8}\.[\w-]{80}\.[\w-]+$/);
    assert.equal(token.split('.')[1], envelope.keyId);
    assert.equal(envelope.keyId, keyId(master));
    // iv (12) + ciphertext (6) + tag (16)
    assert.equal(Buffer.from(token.split('.')[3]!, 'base64url').length, 34);
    assert.ok(!token.includes('G-ABCD'));
  });

  test('other versions and malformed tokens are refused as format errors', () => {
    const token = envelope.seal('G-ABCD', CONTEXT);
    const [, id, wrapped, sealed] = token.split('.');
    const malformed = [
      '', 'v1', `v2.${id}.${wrapped}.${sealed}`, `V1.${id}.${wrapped}.${sealed}`, `${id}.${wrapped}.${sealed}`,
      `v1.${id}.${wrapped}`, `${token}.extra`, `v1.${id}.${wrapped}.`, `v1.${id}.${wrapped.slice(4)}.${sealed}`,
      `v1.${id}.${wrapped}.${sealed!.slice(0, 36)}`, `v1.${id}x.${wrapped}.${sealed}`, `v1.${id}.${wrapped}.${sealed}=`,
      `v1.${id}.${wrapped}.${sealed!.slice(0, -1)}+`, ` ${token}`,
    ];
    for (const bad of malformed) assert.throws(() => envelope.open(bad, CONTEXT), fails('format'), JSON.stringify(bad));
    assert.throws(() => envelope.open(`v2.${id}.${wrapped}.${sealed}`, CONTEXT), /version v2; expected v1/);
  });

  test('a context is required', () => {
    assert.throws(() => envelope.seal('x', ''), TypeError);
    assert.throws(() => envelope.open(envelope.seal('x', CONTEXT), ''), TypeError);
  });

  test('a master key must be 32 bytes', () => {
    assert.throws(() => new Envelope(randomBytes(16)), RangeError);
    assert.throws(() => new Envelope(master, [randomBytes(31)]), RangeError);
  });
});

describe('envelope refuses what it did not seal', () => {
  test('one flipped bit anywhere in the wrapped key or the sealed data fails authentication', () => {
    const token = envelope.seal('G-ABCD', CONTEXT);
    for (const part of [2, 3]) {
      const length = Buffer.from(token.split('.')[part]!, 'base64url').length;
      for (let byte = 0; byte < length; byte++) {
        assert.throws(() => envelope.open(flipped(token, part, byte, byte % 8), CONTEXT), fails('authentication'), `part ${part} byte ${byte}`);
      }
    }
  });

  test('a flipped bit in the key id names a key that is not configured', () => {
    const token = envelope.seal('G-ABCD', CONTEXT);
    for (let byte = 0; byte < 6; byte++) {
      assert.throws(() => envelope.open(flipped(token, 1, byte, 7 - (byte % 8)), CONTEXT), fails('unknown-key'));
    }
  });

  test('another context fails: a token cannot move to another record', () => {
    const token = envelope.seal('G-ABCD', CONTEXT);
    assert.throws(() => envelope.open(token, 'fleet.registration:org_124'), fails('authentication'));
    assert.throws(() => envelope.open(token, 'identity.document:org_123'), fails('authentication'));
  });

  test('another master key fails, even when the token is relabelled with its id', () => {
    const other = new Envelope(randomBytes(32));
    const token = envelope.seal('G-ABCD', CONTEXT);
    assert.throws(() => other.open(token, CONTEXT), fails('unknown-key'));
    assert.throws(() => other.open(token, CONTEXT), new RegExp(`master key ${envelope.keyId}, which is not configured \\(current: ${other.keyId}\\)`));
    const relabelled = token.replace(`.${envelope.keyId}.`, `.${other.keyId}.`);
    assert.throws(() => other.open(relabelled, CONTEXT), fails('authentication'));
  });

  test('errors never carry the plaintext', () => {
    const token = envelope.seal('SECRET-REG', CONTEXT);
    assert.throws(() => envelope.open(token, 'elsewhere'), (error: Error) => !error.message.includes('SECRET-REG'));
  });
});

describe('master key rotation', () => {
  test('tokens of a previous key still open; new tokens use the current key', () => {
    const oldKey = randomBytes(32);
    const before = new Envelope(oldKey);
    const token = before.seal('G-ABCD', CONTEXT);
    const rotated = new Envelope(randomBytes(32), [oldKey]);
    assert.equal(rotated.open(token, CONTEXT).toString(), 'G-ABCD');
    const fresh = rotated.seal('G-ABCD', CONTEXT);
    assert.equal(fresh.split('.')[1], rotated.keyId);
    assert.notEqual(rotated.keyId, before.keyId);
    assert.throws(() => before.open(fresh, CONTEXT), fails('unknown-key'));
    // Without the old key the old token no longer opens.
    assert.throws(() => new Envelope(randomBytes(32)).open(token, CONTEXT), fails('unknown-key'));
  });
});
