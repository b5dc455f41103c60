// Identifiers and secrets in base62 (digits and ASCII letters): no characters that URLs, shells or
// double-click selection treat specially.
import { randomBytes } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Up to `length` characters made of `bytes`, each uniform when the bytes are. */
export function base62Of(bytes: Uint8Array, length: number): string {
  let out = '';
  for (const byte of bytes) {
    if (out.length === length) break;
    // 248 = 4 × 62: taking bytes above it modulo 62 would favour the first characters.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** `length` characters, each uniformly random (about 5.95 bits each). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) out += base62Of(randomBytes(length), length - out.length);
  return out;
}

/** A non-negative integer in exactly `width` base62 digits, most significant first. */
export function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  if (rest !== 0) throw new RangeError(`${value} needs more than ${width} base62 digits`);
  return out;
}

/** `org_…`, `key_…`, `veh_…`: 16 random characters, about 95 bits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(16)}`;
}
