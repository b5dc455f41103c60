// API keys of organisations.
//
// Secret format (50 characters):
//
//     lamis_live_<32 random base62>_<6 base62 checksum>     production
//     lamis_test_<32 random base62>_<6 base62 checksum>     development
//
// The random part carries about 190 bits. The checksum is the CRC32 of everything before the last
// underscore (prefix and random part), in six base62 digits: a typo, or a changed prefix, fails it,
// so the server answers `malformed` without a database lookup, and secret scanners can tell a real
// LAMIS key from look-alikes without asking us. CRC32 catches every change of one character and
// every swap of two neighbours.
//
// Only SHA-256 of the secret is stored. A slow password hash (argon2, bcrypt) protects guessable
// secrets; nobody can guess 190 random bits however fast the hash is, while a slow hash would cost
// every uncached request tens of milliseconds of CPU (an easy way to overload the service) and,
// being salted, could not be looked up by an index.
//
// `verify` keeps what it read about a key for `cacheTtlMs` (10 s by default), so requests do not
// each query the database. A revocation or rotation through this same store takes effect at once,
// and is announced (`announce`, on `accounts.keys`) so that every other instance forgets the key
// (`forget`) as the announcement reaches it; an instance not told (no shared bus) sees the change
// within `cacheTtlMs`. Expiry is checked against the clock on every call. Unknown keys are not
// cached: a key created elsewhere works at once.
//
// Derived keys (`derivedKey`) are the exception to random secrets: their random part is made from
// the key's id by a function the caller holds (the dashboard's keys derive it from the master
// key), so the same secret can be handed out again without being stored.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../platform/db/database.ts';
import type { KeyCheck } from '../../platform/http/auth.ts';
import { appendAudit, type Actor } from '../audit/audit.ts';
import { base62, base62Of, newId, randomBase62 } from '../../platform/ids.ts';
import { lockOrganisation } from '../organisations/members.ts';
import type { KeyChange } from './changes.ts';
import type { ApiKeyRow, Environment } from './keys.table.ts';

const PREFIXES: Readonly<Record<Environment, string>> = { production: 'lamis_live_', development: 'lamis_test_' };
const SECRET_PATTERN = /^(lamis_(?:live|test)_[0-9A-Za-z]{32})_([0-9A-Za-z]{6})$/;
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

export const KEY_CACHE_TTL_MS = 10_000;
const MAX_CACHED = 10_000;
const LAST_USED_EVERY_MS = 60_000;
const MS_PER_HOUR = 3_600_000;
/** Rotation overlaps are meant for rolling a deployment over, not for keeping two keys for good. */
export const MAX_OVERLAP_HOURS = 24 * 30;
/** The overlap when none is asked for: a day to roll the new key out. */
export const DEFAULT_OVERLAP_HOURS = 24;
const MAX_NAME_LENGTH = 100;


/** `rotating`: replaced by rotation, working until `overlap_until`. */
export type KeyStatus = 'active' | 'rotating' | 'expired' | 'revoked';

/** A key as listings show it: never the secret, never its hash. */
export type ApiKey = Omit<ApiKeyRow, 'secret_hash'> & { status: KeyStatus };

export interface CreateKeyInput {
  orgId: string;
  environment: Environment;
  name: string;
  /** ISO 8601; null or absent: the key never expires. */
  expiresAt?: string | null;
  actor: Actor;
  /** Whether the acting user passed the identity check; production keys need it, except for operators. */
  identityVerified?: boolean;
}

export type CreateKeyResult =
  | { status: 'created'; key: ApiKey; secret: string }
  | { status: 'org_not_found' }
  | { status: 'identity_required' };

export interface Acting {
  actor: Actor;
  /** Only this organisation's keys (for endpoints); operators act on any. */
  orgId?: string;
}

/** Keys are listed newest first: `[created_at, id]` of the last one served. */
export type KeyListKey = readonly [created_at: string, id: string];

export type RevokeKeyResult = { status: 'revoked'; key: ApiKey } | { status: 'not_found' };

/** What makes the random part of a derived key's secret from its id: at least 64 bytes. */
export type SecretMaterial = (id: string) => Uint8Array;

export interface DerivedKeyInput {
  orgId: string;
  /** The user whose key it is: one key of `name` per user and organisation. */
  userId: string;
  name: string;
  environment: Environment;
  material: SecretMaterial;
  /** A key this old is rotated: the next call gets a new one, the old one works `overlapHours` more. */
  rotateAfterMs: number;
  overlapHours: number;
}

export type DerivedKeyResult =
  /** `reused`: the user's key as it was; `created`: a first one, or one for another environment (the old one revoked); `rotated`: it had aged. */
  | { status: 'reused' | 'created' | 'rotated'; key: ApiKey; secret: string }
  | { status: 'org_not_found' };

export type RotateKeyResult =
  | { status: 'rotated'; key: ApiKey; secret: string; previous: ApiKey }
  | { status: 'not_found' }
  /** Only an active key can be rotated (not one expired, revoked or already rotated). */
  | { status: 'not_active'; key: ApiKey };

export interface KeyStoreOptions {
  clock?: () => number;
  cacheTtlMs?: number;
  /** Tells the other instances that a key was revoked or rotated (the bus's `accounts.keys`). */
  announce?: (change: KeyChange) => Promise<void>;
  /** Writing `last_used_at` or announcing a change failed; the request is served anyway. */
  onError?: (error: unknown) => void;
}

type VerifiedRow = Pick<ApiKeyRow, 'id' | 'org_id' | 'environment' | 'expires_at' | 'revoked_at' | 'overlap_until' | 'last_used_at'>;

interface CacheEntry {
  row: VerifiedRow;
  loadedAt: number;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

/** The environment of a well-formed secret with a matching checksum; null for anything else. */
export function secretEnvironment(secret: string): Environment | null {
  const match = SECRET_PATTERN.exec(secret);
  if (!match || checksum(match[1]!) !== match[2]) return null;
  return secret.startsWith(PREFIXES.production) ? 'production' : 'development';
}

function secretWith(environment: Environment, random: string): string {
  const body = `${PREFIXES[environment]}${random}`;
  return `${body}_${checksum(body)}`;
}

export function newSecret(environment: Environment): string {
  return secretWith(environment, randomBase62(RANDOM_LENGTH));
}

/** The secret of a derived key: the same for the same id and material. */
function derivedSecret(id: string, environment: Environment, material: SecretMaterial): string {
  const random = base62Of(material(id), RANDOM_LENGTH);
  // 64 uniform bytes give fewer than 32 characters with a probability below 1e-29.
  if (random.length < RANDOM_LENGTH) throw new RangeError(`the secret material of ${id} is too short`);
  return secretWith(environment, random);
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function statusOf(row: VerifiedRow, now: number): KeyStatus {
  if (row.revoked_at !== null) return 'revoked';
  // A key replaced by rotation is revoked once its overlap is over.
  if (row.overlap_until !== null && now >= Date.parse(row.overlap_until)) return 'revoked';
  if (row.expires_at !== null && now >= Date.parse(row.expires_at)) return 'expired';
  return row.overlap_until === null ? 'active' : 'rotating';
}

function publicKey(row: ApiKeyRow, now: number): ApiKey {
  const { secret_hash: _hash, ...rest } = row;
  return { ...rest, status: statusOf(row, now) };
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_NAME_LENGTH) throw new RangeError(`a key name has 1 to ${MAX_NAME_LENGTH} characters (got "${name}")`);
  return trimmed;
}

export class KeyStore {
  readonly #database: Database;
  readonly #clock: () => number;
  readonly #cacheTtlMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #announce: (change: KeyChange) => Promise<void>;
  /** By secret hash. */
  readonly #cache = new Map<string, CacheEntry>();

  constructor(database: Database, options: KeyStoreOptions = {}) {
    this.#database = database;
    this.#clock = options.clock ?? Date.now;
    this.#cacheTtlMs = options.cacheTtlMs ?? KEY_CACHE_TTL_MS;
    this.#onError = options.onError ?? (() => {});
    this.#announce = options.announce ?? (async () => {});
  }

  /** The key was revoked or rotated elsewhere: it is read again on its next use. */
  forget(keyId: string): void {
    for (const [hash, entry] of this.#cache) if (entry.row.id === keyId) this.#cache.delete(hash);
  }

  /** Forgets the key here and tells the other instances; the change is stored whatever the bus does. */
  async #changed(row: Pick<ApiKeyRow, 'id' | 'org_id' | 'secret_hash'>): Promise<void> {
    this.#cache.delete(row.secret_hash);
    try {
      await this.#announce({ key_id: row.id, org_id: row.org_id });
    } catch (error) {
      this.#onError(error);
    }
  }

  /** The secret is in the result only: it is never stored and cannot be shown again. */
  async createKey(input: CreateKeyInput): Promise<CreateKeyResult> {
    const name = checkedName(input.name);
    const now = this.#clock();
    const expiresAt = input.expiresAt == null ? null : futureTime(input.expiresAt, now);
    if (input.environment === 'production' && input.actor !== 'operator' && !input.identityVerified) return { status: 'identity_required' };
    const org = await this.#database.db.selectFrom('organisations').select('id').where('id', '=', input.orgId).executeTakeFirst();
    if (!org) return { status: 'org_not_found' };
    return this.#database.db.transaction().execute(async (trx) => {
      const { row, secret } = newKeyRow(input.orgId, input.environment, name, expiresAt, null, input.actor, now);
      await trx.insertInto('api_keys').values(row).execute();
      await appendAudit(trx, {
        orgId: row.org_id,
        actor: input.actor,
        action: 'key.created',
        target: row.id,
        detail: { name, environment: row.environment, expires_at: expiresAt },
        at: row.created_at,
      });
      return { status: 'created', key: publicKey(row, now), secret };
    });
  }

  /** Newest first. */
  async listKeys(orgId: string): Promise<ApiKey[]> {
    const now = this.#clock();
    const rows = await this.#database.db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map((row) => publicKey(row, now));
  }

  /** One page of the organisation's keys, newest first. */
  async pageKeys(orgId: string, page: { limit: number; before?: KeyListKey | undefined }): Promise<{ data: ApiKey[]; next: KeyListKey | null }> {
    const now = this.#clock();
    let query = this.#database.db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId);
    const before = page.before;
    if (before) query = query.where((eb) => eb.or([eb('created_at', '<', before[0]), eb.and([eb('created_at', '=', before[0]), eb('id', '<', before[1])])]));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const data = rows.slice(0, page.limit);
    const last = data.at(-1);
    return { data: data.map((row) => publicKey(row, now)), next: rows.length > page.limit && last ? [last.created_at, last.id] : null };
  }

  /** The organisation's key with this id; undefined for another organisation's. */
  async getKey(orgId: string, id: string): Promise<ApiKey | undefined> {
    const row = await this.#database.db.selectFrom('api_keys').selectAll().where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
    return row && publicKey(row, this.#clock());
  }

  /** Revoking a revoked key returns it unchanged (and logs nothing). */
  async revokeKey(id: string, acting: Acting): Promise<RevokeKeyResult> {
    const now = this.#clock();
    const at = new Date(now).toISOString();
    const revoked = await this.#database.db.transaction().execute(async (trx) => {
      let update = trx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null);
      if (acting.orgId !== undefined) update = update.where('org_id', '=', acting.orgId);
      const row = await update.returningAll().executeTakeFirst();
      if (row) await appendAudit(trx, { orgId: row.org_id, actor: acting.actor, action: 'key.revoked', target: row.id, at });
      return row;
    });
    if (revoked) {
      await this.#changed(revoked);
      return { status: 'revoked', key: publicKey(revoked, now) };
    }
    const existing = await this.#ownedRow(id, acting);
    return existing ? { status: 'revoked', key: publicKey(existing, now) } : { status: 'not_found' };
  }

  /**
   * A new key with the same organisation, environment, name and expiry; the old one keeps working
   * for `overlapHours` (0: it stops at once), time to roll the new one out.
   */
  async rotateKey(id: string, overlapHours: number, acting: Acting): Promise<RotateKeyResult> {
    if (!(Number.isFinite(overlapHours) && overlapHours >= 0 && overlapHours <= MAX_OVERLAP_HOURS)) {
      throw new RangeError(`the overlap is 0 to ${MAX_OVERLAP_HOURS} hours (got ${overlapHours})`);
    }
    const now = this.#clock();
    const at = new Date(now).toISOString();
    const overlapUntil = new Date(now + overlapHours * MS_PER_HOUR).toISOString();
    const rotated = await this.#database.db.transaction().execute(async (trx) => {
      // The update comes first so that it takes the write lock (see SlotBook) and a concurrent
      // rotation of the same key finds it already rotated.
      let update = trx
        .updateTable('api_keys')
        .set({ overlap_until: overlapUntil })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .where('overlap_until', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]));
      if (acting.orgId !== undefined) update = update.where('org_id', '=', acting.orgId);
      const previous = await update.returningAll().executeTakeFirst();
      return previous && { previous, ...(await insertSuccessor(trx, previous, acting.actor, now)) };
    });
    if (rotated) {
      await this.#changed(rotated.previous);
      return { status: 'rotated', key: publicKey(rotated.row, now), secret: rotated.secret, previous: publicKey(rotated.previous, now) };
    }
    const existing = await this.#ownedRow(id, acting);
    return existing ? { status: 'not_active', key: publicKey(existing, now) } : { status: 'not_found' };
  }

  /**
   * The user's one key of `input.name` in the organisation whose secret `input.material` makes:
   * the same key while it is younger than `rotateAfterMs`, so no call after the first makes a key
   * or writes to the audit log. Keys of that name made otherwise (by hand, with a random secret)
   * are left alone. Calls for one organisation take turns (its row lock), so two at once cannot
   * both make one.
   */
  async derivedKey(input: DerivedKeyInput): Promise<DerivedKeyResult> {
    const now = this.#clock();
    const at = new Date(now).toISOString();
    const actor: Actor = `user:${input.userId}`;
    const secretOf = (row: ApiKeyRow) => derivedSecret(row.id, row.environment, input.material);
    const result = await this.#database.db.transaction().execute(async (trx): Promise<DerivedKeyResult & { replaced?: ApiKeyRow }> => {
      if (!(await lockOrganisation(trx, input.orgId))) return { status: 'org_not_found' };
      const rows = await trx
        .selectFrom('api_keys')
        .selectAll()
        .where('org_id', '=', input.orgId)
        .where('created_by', '=', input.userId)
        .where('name', '=', input.name)
        .where('revoked_at', 'is', null)
        .where('overlap_until', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
        .orderBy('created_at', 'desc')
        .execute();
      const current = rows.find((row) => hashOf(secretOf(row)) === row.secret_hash);
      if (current && current.environment === input.environment) {
        if (now - Date.parse(current.created_at) < input.rotateAfterMs) return { status: 'reused', key: publicKey(current, now), secret: secretOf(current) };
        const overlapUntil = new Date(now + input.overlapHours * MS_PER_HOUR).toISOString();
        await trx.updateTable('api_keys').set({ overlap_until: overlapUntil }).where('id', '=', current.id).execute();
        const { row, secret } = await insertSuccessor(trx, { ...current, overlap_until: overlapUntil }, actor, now, input.material);
        return { status: 'rotated', key: publicKey(row, now), secret, replaced: current };
      }
      const { row, secret } = newKeyRow(input.orgId, input.environment, input.name, null, null, actor, now, input.material);
      await trx.insertInto('api_keys').values(row).execute();
      await appendAudit(trx, { orgId: row.org_id, actor, action: 'key.created', target: row.id, detail: { name: row.name, environment: row.environment, expires_at: null }, at });
      // One key per user and organisation: the one of the other environment goes.
      if (current) {
        await trx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', current.id).execute();
        await appendAudit(trx, { orgId: row.org_id, actor, action: 'key.revoked', target: current.id, at });
      }
      return { status: 'created', key: publicKey(row, now), secret, replaced: current };
    });
    if (result.status === 'org_not_found') return result;
    const { replaced, ...answer } = result;
    if (replaced) await this.#changed(replaced);
    return answer;
  }

  async verify(secret: string): Promise<KeyCheck> {
    if (secretEnvironment(secret) === null) return { ok: false, reason: 'malformed' };
    const hash = hashOf(secret);
    const now = this.#clock();
    let entry = this.#cache.get(hash);
    if (entry === undefined || now - entry.loadedAt >= this.#cacheTtlMs) {
      const row = await this.#database.db
        .selectFrom('api_keys')
        .select(['id', 'org_id', 'environment', 'expires_at', 'revoked_at', 'overlap_until', 'last_used_at'])
        .where('secret_hash', '=', hash)
        .executeTakeFirst();
      this.#cache.delete(hash);
      if (!row) return { ok: false, reason: 'unknown' };
      if (this.#cache.size >= MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value!);
      entry = { row, loadedAt: now };
      this.#cache.set(hash, entry);
    }
    const status = statusOf(entry.row, now);
    if (status === 'expired' || status === 'revoked') return { ok: false, reason: status };
    await this.#touch(entry.row, now);
    return { ok: true, principal: { key_id: entry.row.id, organisation_id: entry.row.org_id, environment: entry.row.environment, admin: false } };
  }

  /** At most one write a minute per key, across processes too (the condition is in the update). */
  async #touch(row: VerifiedRow, now: number): Promise<void> {
    if (row.last_used_at !== null && now - Date.parse(row.last_used_at) < LAST_USED_EVERY_MS) return;
    const at = new Date(now).toISOString();
    const before = new Date(now - LAST_USED_EVERY_MS).toISOString();
    row.last_used_at = at;
    try {
      await this.#database.db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', row.id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', before)]))
        .execute();
    } catch (error) {
      this.#onError(error);
    }
  }

  #ownedRow(id: string, acting: Acting): Promise<ApiKeyRow | undefined> {
    let query = this.#database.db.selectFrom('api_keys').selectAll().where('id', '=', id);
    if (acting.orgId !== undefined) query = query.where('org_id', '=', acting.orgId);
    return query.executeTakeFirst();
  }

}

function futureTime(value: string, now: number): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`the expiry must be an ISO 8601 time (got "${value}")`);
  if (ms <= now) throw new RangeError(`the expiry must be in the future (got ${value})`);
  return new Date(ms).toISOString();
}

/**
 * The key that replaces `previous` by rotation (already marked with its `overlap_until`), with the
 * audit entries of both; derived from `material` when given.
 */
async function insertSuccessor(
  trx: Kysely<Tables>,
  previous: ApiKeyRow,
  actor: Actor,
  now: number,
  material?: SecretMaterial,
): Promise<{ row: ApiKeyRow; secret: string }> {
  const { row, secret } = newKeyRow(previous.org_id, previous.environment, previous.name, previous.expires_at, previous.id, actor, now, material);
  await trx.insertInto('api_keys').values(row).execute();
  const common = { orgId: row.org_id, actor, at: row.created_at };
  await appendAudit(trx, { ...common, action: 'key.created', target: row.id, detail: { name: row.name, environment: row.environment, expires_at: row.expires_at, rotated_from: previous.id } });
  await appendAudit(trx, { ...common, action: 'key.rotated', target: previous.id, detail: { new_key_id: row.id, overlap_until: previous.overlap_until } });
  return { row, secret };
}

function newKeyRow(
  orgId: string,
  environment: Environment,
  name: string,
  expiresAt: string | null,
  rotatedFrom: string | null,
  actor: Actor,
  now: number,
  material?: SecretMaterial,
): { row: ApiKeyRow; secret: string } {
  const id = newId('key');
  const secret = material ? derivedSecret(id, environment, material) : newSecret(environment);
  const row: ApiKeyRow = {
    id,
    org_id: orgId,
    name,
    environment,
    prefix: PREFIXES[environment],
    last4: secret.slice(-4),
    secret_hash: hashOf(secret),
    created_at: new Date(now).toISOString(),
    expires_at: expiresAt,
    revoked_at: null,
    last_used_at: null,
    rotated_from: rotatedFrom,
    overlap_until: null,
    created_by: actor.startsWith('user:') ? actor.slice('user:'.length) : null,
  };
  return { row, secret };
}
