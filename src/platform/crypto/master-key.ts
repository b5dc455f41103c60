// The master key that wraps every record's data key and keys the blind indexes. Production sets
// LAMIS_MASTER_KEY (kept with the other secrets, away from the data); the embedded default keeps
// a generated key in the data folder, which protects a copied database but not a copied folder.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/index.ts';

export const KEY_BYTES = 32;
export const KEY_ID_BYTES = 6;
export const MASTER_KEY_ENV = 'LAMIS_MASTER_KEY';
export const MASTER_KEY_FILE = 'master-key';

export type MasterKeySource =
  | { kind: 'env'; variable: typeof MASTER_KEY_ENV }
  | { kind: 'file'; file: string; created: boolean };

export interface MasterKey {
  key: Buffer;
  /** Non-secret identifier of the key (as written in envelope tokens), safe to log. */
  id: string;
  /** Where the key came from, for a log line. */
  source: MasterKeySource;
}

/** Short, non-secret identifier of a key: tells which key sealed a token once keys rotate. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('lamis master key id\0').update(key).digest().subarray(0, KEY_ID_BYTES).toString('base64url');
}

/** The key written as 64 hex digits or as base64/base64url (padded or not), or null. */
function decodeKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return Buffer.from(trimmed, 'base64');
  return null;
}

/** Makes the key file unless it exists; true when this call made it. */
function createOnce(file: string): boolean {
  if (existsSync(file)) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  // Written aside, then linked into place: a link never replaces a file, so two processes starting
  // together settle on one key, and neither can read a half-written one.
  const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(aside, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(aside, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(aside);
  }
}

function fromFile(dataDir: string): MasterKey {
  const file = path.resolve(dataDir, MASTER_KEY_FILE);
  const created = createOnce(file);
  const mode = statSync(file).mode & 0o777;
  // Windows reports no Unix permissions: there the folder's access rules are all there is.
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new ConfigError([`master key file ${file} is open to group or others (mode ${mode.toString(8).padStart(4, '0')}): `
      + `it must be readable by its owner only; run \`chmod 600 ${file}\``]);
  }
  const key = decodeKey(readFileSync(file, 'utf8'));
  if (!key) throw new ConfigError([`master key file ${file} does not hold a ${KEY_BYTES}-byte key in base64 or hex`]);
  return { key, id: keyId(key), source: { kind: 'file', file, created } };
}

/**
 * The master key from `fromEnv` (the value of LAMIS_MASTER_KEY) when it is set, else from the key
 * file in the data folder, made on first use. Errors never show the value.
 */
export function masterKey(options: { fromEnv?: string | undefined; dataDir: string }): MasterKey {
  if (options.fromEnv === undefined) return fromFile(options.dataDir);
  // An empty value is an error, not "unset": falling back to a fresh key file would seal new
  // records under a key nobody keeps.
  const key = decodeKey(options.fromEnv);
  if (!key) {
    throw new ConfigError([`${MASTER_KEY_ENV}: must be ${KEY_BYTES} random bytes written as 64 hex digits or as base64 `
      + `(e.g. \`openssl rand -base64 32\`); got ${options.fromEnv.trim().length} characters (the value is not shown)`]);
  }
  return { key, id: keyId(key), source: { kind: 'env', variable: MASTER_KEY_ENV } };
}
