// A blind index makes an encrypted column searchable by equality: store the index beside the
// envelope token, look up by the index of the searched value. It is an HMAC under a key derived
// from the master key for one purpose, so without the master key nobody can compute the index of
// a guess, and indexes of one purpose cannot be matched against another's.
import { createHmac, createSecretKey, hkdfSync } from 'node:crypto';
import { KEY_BYTES } from './master-key.ts';

/** Maps the ways of writing one value to one text, e.g. upper case without spaces or hyphens. */
export type Normalise = (value: string) => string;

/** The indexer of one purpose (e.g. `fleet.registration`): value in, base64url index out. */
export function blindIndex(master: Buffer, purpose: string, normalise: Normalise): (value: string) => string {
  if (master.length !== KEY_BYTES) throw new RangeError(`a master key is ${KEY_BYTES} bytes, not ${master.length}`);
  if (purpose === '') throw new TypeError('a blind index needs a purpose');
  // A key object, made once: HMAC with a raw buffer key imports the key again on every call (~10× slower).
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `lamis blind index v1\0${purpose}`, KEY_BYTES)));
  return (value) => createHmac('sha256', key).update(normalise(value), 'utf8').digest('base64url');
}
