// Dashboard sessions. The cookie carries a random secret (32 bytes, base64url); storage keeps its
// SHA-256 only, and an id (`ses_…`) to list and revoke sessions by. A session ends when it is
// revoked (sign-out, revocation, a password change), after `idleMs` without a request (30 minutes
// by default; activity is recorded at most once a minute, so the idle end may come up to a minute
// early) or at `absoluteMs` after sign-in (12 hours by default), whatever the activity.
//
// CSRF: the token unsafe requests must send in `X-CSRF-Token` is an HMAC of the cookie's secret.
// Only someone who can read the cookie, or a response of ours, can know it; a page on another
// site can make the browser send the cookie but can read neither. Nothing about it is stored.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { isSecretToken, newSecretToken, secretTokenHash } from '../secret-tokens.ts';
import type { SessionRow } from './sessions.table.ts';

export const DEFAULT_IDLE_MS = 30 * 60_000;
export const DEFAULT_ABSOLUTE_MS = 12 * 3_600_000;
const TOUCH_EVERY_MS = 60_000;
const MAX_USER_AGENT = 200;

export interface SessionStoreOptions {
  clock?: () => number;
  idleMs?: number;
  absoluteMs?: number;
}

/** A session as its owner sees it in lists. */
export interface SessionView {
  id: string;
  created_at: string;
  last_seen_at: string;
  /** When it ends unless used before. */
  idle_expires_at: string;
  expires_at: string;
  user_agent: string | null;
  address: string | null;
}

/** Sort key of session lists: sign-in time, then id. */
export type SessionListKey = readonly [created_at: string, id: string];

export type SessionCheck =
  | { ok: true; session: SessionRow }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

export function csrfTokenFor(secret: string): string {
  return createHmac('sha256', secret).update('lamis csrf token').digest('base64url');
}

/**
 * Ends every unrevoked session of the user but `keepId`'s; how many ended. Takes the caller's
 * transaction, so a password reset and the sign-outs it causes commit together.
 */
export async function revokeSessionsOf(db: Kysely<Tables>, userId: string, at: string, keepId?: string): Promise<number> {
  let query = db.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepId !== undefined) query = query.where('id', '<>', keepId);
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}

export function csrfTokenMatches(secret: string, presented: string | undefined): boolean {
  const expected = Buffer.from(csrfTokenFor(secret));
  const given = Buffer.from(presented ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export class SessionStore {
  readonly idleMs: number;
  readonly absoluteMs: number;
  readonly #database: Database;
  readonly #clock: () => number;

  constructor(database: Database, options: SessionStoreOptions = {}) {
    this.#database = database;
    this.#clock = options.clock ?? Date.now;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.absoluteMs = options.absoluteMs ?? DEFAULT_ABSOLUTE_MS;
  }

  /** The secret is for the cookie only: it is not stored. */
  async create(userId: string, client: { userAgent?: string | undefined; address?: string | undefined } = {}): Promise<{ session: SessionRow; secret: string }> {
    const secret = newSecretToken();
    const now = new Date(this.#clock());
    const session: SessionRow = {
      id: newId('ses'),
      secret_hash: secretTokenHash(secret),
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.absoluteMs).toISOString(),
      revoked_at: null,
      user_agent: client.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      address: client.address ?? null,
    };
    await this.#database.db.insertInto('sessions').values(session).execute();
    // The user's sessions past their absolute end can never be used again: they go.
    await this.#database.db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', session.created_at).execute();
    return { session, secret };
  }

  /** The live session the secret opens, its activity recorded. */
  async authenticate(secret: string): Promise<SessionCheck> {
    if (!isSecretToken(secret)) return { ok: false, reason: 'unknown' };
    const session = await this.#database.db.selectFrom('sessions').selectAll().where('secret_hash', '=', secretTokenHash(secret)).executeTakeFirst();
    if (!session) return { ok: false, reason: 'unknown' };
    if (session.revoked_at !== null) return { ok: false, reason: 'revoked' };
    const now = this.#clock();
    if (!this.#live(session, now)) return { ok: false, reason: 'expired' };
    if (now - Date.parse(session.last_seen_at) >= TOUCH_EVERY_MS) {
      session.last_seen_at = new Date(now).toISOString();
      await this.#database.db.updateTable('sessions').set({ last_seen_at: session.last_seen_at }).where('id', '=', session.id).execute();
    }
    return { ok: true, session };
  }

  /** The user's live sessions, newest first, `limit` after the `before` key (of the previous page's last). */
  async list(userId: string, page: { limit: number; before?: SessionListKey | undefined }): Promise<{ data: SessionView[]; next: SessionListKey | null }> {
    const now = this.#clock();
    let query = this.#database.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date(now).toISOString())
      .where('last_seen_at', '>', new Date(now - this.idleMs).toISOString());
    const before = page.before;
    if (before) {
      query = query.where((eb) => eb.or([eb('created_at', '<', before[0]), eb.and([eb('created_at', '=', before[0]), eb('id', '<', before[1])])]));
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const data = rows.slice(0, page.limit);
    const last = data.at(-1);
    return { data: data.map((row) => this.view(row)), next: rows.length > page.limit && last ? [last.created_at, last.id] : null };
  }

  view(row: SessionRow): SessionView {
    return {
      id: row.id,
      created_at: row.created_at,
      last_seen_at: row.last_seen_at,
      idle_expires_at: new Date(Math.min(Date.parse(row.last_seen_at) + this.idleMs, Date.parse(row.expires_at))).toISOString(),
      expires_at: row.expires_at,
      user_agent: row.user_agent,
      address: row.address,
    };
  }

  /** Ends one of the user's sessions; false when they have no unrevoked session with that id. */
  async revoke(userId: string, id: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('sessions')
      .set({ revoked_at: new Date(this.#clock()).toISOString() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends every session of the user but `keepId`; how many ended. */
  revokeOthers(userId: string, keepId: string): Promise<number> {
    return revokeSessionsOf(this.#database.db, userId, new Date(this.#clock()).toISOString(), keepId);
  }

  #live(row: SessionRow, now: number): boolean {
    return now < Date.parse(row.expires_at) && now - Date.parse(row.last_seen_at) < this.idleMs;
  }
}
