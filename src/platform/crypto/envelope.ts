// Envelope encryption for records kept at rest: each record gets its own random data key, which
// encrypts the record (AES-256-GCM) and is itself encrypted ("wrapped") by the master key. The
// record's context (e.g. `fleet.registration:org_123`) is authenticated with both, so a token
// copied into another record's column fails to open there.
//
// Token: `v1.<key id>.<wrapped data key>.<sealed data>`, base64url parts, where the wrapped key is
// iv|key|tag under the master key and the sealed data is iv|ciphertext|tag under the data key.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KEY_BYTES, KEY_ID_BYTES, keyId } from './master-key.ts';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const WRAPPED_BYTES = IV_BYTES + KEY_BYTES + TAG_BYTES;

export type EnvelopeFailure =
  /** Not a token of a version this code reads. */
  | 'format'
  /** Sealed under a master key that was not given. */
  | 'unknown-key'
  /** Altered, sealed for another context, or under another key. */
  | 'authentication';

export class EnvelopeError extends Error {
  readonly reason: EnvelopeFailure;

  constructor(reason: EnvelopeFailure, message: string) {
    super(message);
    this.name = 'EnvelopeError';
    this.reason = reason;
  }
}

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/** The plaintext, or null when the tag does not match. */
function decrypt(key: Buffer, sealed: Buffer, aad: Buffer): Buffer | null {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

/** Base64url that re-encodes to itself, so no two texts stand for one token. */
function decodePart(part: string): Buffer | null {
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : null;
}

/** Version and key id are authenticated too: neither can be swapped without the tags failing. */
function additionalData(id: string, context: string): Buffer {
  return Buffer.from(`${VERSION}.${id}.${context}`, 'utf8');
}

function checkKey(key: Buffer): Buffer {
  if (key.length !== KEY_BYTES) throw new RangeError(`a master key is ${KEY_BYTES} bytes, not ${key.length}`);
  return Buffer.from(key);
}

function checkContext(context: string): void {
  if (context === '') throw new TypeError('an envelope needs a context naming the record it belongs to');
}

export class Envelope {
  /** Id of the key new tokens are sealed under. */
  readonly keyId: string;
  readonly #current: Buffer;
  readonly #keys = new Map<string, Buffer>();

  /** `previous`: master keys retired by rotation, still accepted by `open`. */
  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    this.#current = checkKey(current);
    this.keyId = keyId(this.#current);
    for (const key of previous) this.#keys.set(keyId(key), checkKey(key));
    this.#keys.set(this.keyId, this.#current);
  }

  seal(plaintext: Buffer | string, context: string): string {
    checkContext(context);
    const aad = additionalData(this.keyId, context);
    const dataKey = randomBytes(KEY_BYTES);
    const wrapped = encrypt(this.#current, dataKey, aad);
    const sealed = encrypt(dataKey, typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext, aad);
    return [VERSION, this.keyId, wrapped.toString('base64url'), sealed.toString('base64url')].join('.');
  }

  /** The plaintext sealed for `context`; throws EnvelopeError for anything else. */
  open(token: string, context: string): Buffer {
    checkContext(context);
    const parts = token.split('.');
    if (parts[0] !== VERSION) {
      const version = /^v\d+$/.test(parts[0]!) ? `version ${parts[0]}` : 'no version';
      throw new EnvelopeError('format', `not an envelope token this service reads (${version}; expected ${VERSION})`);
    }
    const [id, wrapped, sealed] = parts.slice(1).map(decodePart);
    if (parts.length !== 4 || id?.length !== KEY_ID_BYTES || wrapped?.length !== WRAPPED_BYTES
      || !sealed || sealed.length < IV_BYTES + TAG_BYTES) {
      throw new EnvelopeError('format', `malformed ${VERSION} envelope token`);
    }
    const key = this.#keys.get(parts[1]!);
    if (!key) {
      throw new EnvelopeError('unknown-key', `the token was sealed under master key ${parts[1]}, which is not configured (current: ${this.keyId})`);
    }
    const aad = additionalData(parts[1]!, context);
    const dataKey = decrypt(key, wrapped, aad);
    const plaintext = dataKey && decrypt(dataKey, sealed, aad);
    if (!plaintext) throw new EnvelopeError('authentication', 'the token does not open: altered, or sealed for another record');
    return plaintext;
  }
}
