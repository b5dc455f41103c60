// E-mail addresses and passwords of users.
//
// Addresses: trimmed; the domain lower-cased and written in ASCII (IDNA, as URLs write host
// names); the local part kept as typed, because mail servers may treat it case-sensitively
// (RFC 5321), so mail goes exactly where the user said. Uniqueness and sign-in compare the whole
// address lower-cased (`key`): every common provider ignores case in the local part, and two
// accounts for `Ann@x.org` and `ann@x.org` would only confuse. Dots and `+tags` are left alone:
// what they mean is each provider's business.
//
// Passwords: 8 to 256 characters after NFKC normalisation (NIST SP 800-63B: the same password
// typed on another keyboard must match), never truncated, any characters allowed. Refused: the
// e-mail address itself, one character repeated, and the common passwords of zxcvbn-ts's
// maintained list (`@zxcvbn-ts/language-common`, `passwords-common`: passwords from breaches,
// most used first), compared after NFKC and lower-casing (the list is in lower case), so
// `Password1` is refused as `password1`; only its entries of 8 characters or more can match.
// Hashed with argon2id (Node's crypto.argon2) at OWASP's parameters: 19 MiB, 2 passes, 1 lane,
// 16-byte salt, 32-byte tag, kept as a PHC string.
import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;

const derive = promisify(argon2);

const PARAMETERS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;
const SALT_BYTES = 16;
const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

export type EmailCheck = { ok: true; address: string; key: string } | { ok: false; message: string };

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function normaliseEmail(raw: string): EmailCheck {
  const trimmed = raw.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 1 || at === trimmed.length - 1) return { ok: false, message: 'must be an e-mail address such as name@example.com' };
  const local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1);
  // No quoted local parts or address literals: they are legal but no real sign-up uses them.
  if (/[\s\p{Cc}@"<>()[\]\\,;:]/u.test(local) || local.length > MAX_LOCAL_LENGTH) {
    return { ok: false, message: `must have a local part (before @) of at most ${MAX_LOCAL_LENGTH} characters, without spaces, quotes or brackets` };
  }
  let host: string;
  try {
    if (/[\s\p{Cc}/?#:[\]\\@%]/u.test(domain)) throw new TypeError('not a host name');
    host = new URL(`http://${domain}`).hostname;
  } catch {
    return { ok: false, message: `has a domain (after @) that is not a host name: "${domain}"` };
  }
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => HOST_LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) {
    return { ok: false, message: `must have a domain with a dot and no IP address (got "${domain}")` };
  }
  const address = `${local}@${host}`;
  if (address.length > MAX_EMAIL_LENGTH) return { ok: false, message: `must be at most ${MAX_EMAIL_LENGTH} characters` };
  return { ok: true, address, key: address.toLowerCase() };
}

let commonPasswords: ReadonlySet<string> | undefined;

/**
 * The list's passwords long enough to be accepted otherwise, read on first use (about 18,000 of
 * its 49,000 entries; 30 ms) and kept. Loaded synchronously so the rules stay one plain function.
 */
function commonPasswordSet(): ReadonlySet<string> {
  if (!commonPasswords) {
    const require = createRequire(import.meta.url);
    const { dictionary } = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    commonPasswords = new Set(dictionary['passwords-common'].filter((password) => [...password].length >= MIN_PASSWORD_LENGTH));
  }
  return commonPasswords;
}

/** What is wrong with a new password, or null. `emailKey` is the account's address, normalised. */
export function passwordProblem(password: string, emailKey: string): string | null {
  const normalised = password.normalize('NFKC');
  const length = [...normalised].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    return `must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters (it has ${length})`;
  }
  if (normalised.trim().toLowerCase() === emailKey) return 'must not be your e-mail address';
  if (/^(.)\1*$/su.test(normalised)) return 'must not be one character repeated';
  if (commonPasswordSet().has(normalised.toLowerCase())) {
    return 'is too common: it is on a list of passwords leaked in breaches, which attackers try first; choose another';
  }
  return null;
}

const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(SALT_BYTES);
  const tag = await derive('argon2id', { ...PARAMETERS, message: password.normalize('NFKC'), nonce });
  const { memory, passes, parallelism } = PARAMETERS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${unpadded(nonce)}$${unpadded(tag)}`;
}

/** Whether the password matches the PHC string; the parameters are read from the string. */
export async function verifyPassword(password: string, phc: string): Promise<boolean> {
  const match = PHC.exec(phc);
  if (!match) return false;
  const [, memory, passes, parallelism, salt, hash] = match;
  const expected = Buffer.from(hash!, 'base64');
  const actual = await derive('argon2id', {
    message: password.normalize('NFKC'),
    nonce: Buffer.from(salt!, 'base64'),
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: expected.length,
  });
  return timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;

/**
 * Spends the time of one password check when there is no account to check against, so that a
 * sign-in for an unknown address takes as long as one with a wrong password.
 */
export async function spendPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
}
