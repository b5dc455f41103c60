// Password-reset links: a random token (32 bytes, base64url) in the link, only its SHA-256 stored,
// valid once and for 1 hour. Every link sent stays valid until then, so someone who asks for
// resets in another's name only fills that inbox with working links; a link dies early when it is
// used (the user's other links go with it) or when the password changes after it was sent.
//
// Completing a reset sets the password, ends every session of the user and writes
// `password.reset` to the audit log of each organisation they belong to, in one transaction.
import type { Database } from '../../platform/db/database.ts';
import { appendAudit } from '../audit/audit.ts';
import { isSecretToken, newSecretToken, secretTokenHash } from '../secret-tokens.ts';
import { revokeSessionsOf } from '../sessions/sessions.ts';
import { useLink } from '../single-use-links.ts';
import type { UserRow } from '../users/users.table.ts';
import type { Users } from '../users/users.ts';

export const PASSWORD_RESET_TTL_MS = 3_600_000;

export type ResetLinkProblem =
  /** No such token, or one of a user whose other link was used. */
  | 'unknown'
  | 'expired'
  | 'used'
  /** The password changed after the link was sent. */
  | 'superseded';

export type ResetLinkCheck = { status: 'valid'; user: UserRow } | { status: ResetLinkProblem };

export type ResetResult = { status: 'reset'; user: UserRow; endedSessions: number } | { status: ResetLinkProblem };

export class PasswordResets {
  readonly #database: Database;
  readonly #users: Users;
  readonly #clock: () => number;

  constructor(database: Database, users: Users, clock: () => number = Date.now) {
    this.#database = database;
    this.#users = users;
    this.#clock = clock;
  }

  /** A new token for the user; throttling who may ask is the caller's business. */
  async issue(userId: string): Promise<{ token: string; expiresAt: string }> {
    const now = this.#clock();
    const token = newSecretToken();
    const expiresAt = new Date(now + PASSWORD_RESET_TTL_MS).toISOString();
    await this.#database.db.deleteFrom('password_resets').where('user_id', '=', userId).where('expires_at', '<=', new Date(now).toISOString()).execute();
    await this.#database.db
      .insertInto('password_resets')
      .values({ token_hash: secretTokenHash(token), user_id: userId, created_at: new Date(now).toISOString(), expires_at: expiresAt, used_at: null })
      .execute();
    return { token, expiresAt };
  }

  /** Whether the link works now, and whose it is; uses nothing up. */
  async check(token: string): Promise<ResetLinkCheck> {
    if (!isSecretToken(token)) return { status: 'unknown' };
    const row = await this.#database.db.selectFrom('password_resets').selectAll().where('token_hash', '=', secretTokenHash(token)).executeTakeFirst();
    if (!row) return { status: 'unknown' };
    if (row.used_at !== null) return { status: 'used' };
    if (row.expires_at <= new Date(this.#clock()).toISOString()) return { status: 'expired' };
    const user = await this.#users.get(row.user_id);
    if (!user) return { status: 'unknown' };
    return user.password_changed_at > row.created_at ? { status: 'superseded' } : { status: 'valid', user };
  }

  /**
   * Uses the link and sets the password (hashed by the caller, after checking it against the
   * user's rules), ends the user's sessions and audits it. Of two completions racing with one
   * link, one succeeds and the other finds it used.
   */
  async complete(token: string, passwordHash: string): Promise<ResetResult> {
    if (!isSecretToken(token)) return { status: 'unknown' };
    const hash = secretTokenHash(token);
    const at = new Date(this.#clock()).toISOString();
    return this.#database.db.transaction().execute(async (trx): Promise<ResetResult> => {
      const link = await useLink(trx, 'password_resets', hash, at);
      if (link.status !== 'open') return link;
      const user = await trx.selectFrom('users').selectAll().where('id', '=', link.userId).executeTakeFirst();
      if (!user) return { status: 'unknown' };
      // The link stays used: it was sent for a password that is no longer the user's.
      if (user.password_changed_at > link.createdAt) return { status: 'superseded' };
      await this.#users.setPasswordHash(user.id, passwordHash, trx);
      await trx.deleteFrom('password_resets').where('user_id', '=', user.id).where('token_hash', '<>', hash).execute();
      const endedSessions = await revokeSessionsOf(trx, user.id, at);
      const memberships = await trx.selectFrom('memberships').select('org_id').where('user_id', '=', user.id).execute();
      for (const { org_id } of memberships) {
        await appendAudit(trx, { orgId: org_id, actor: `user:${user.id}`, action: 'password.reset', target: user.id, detail: { ended_sessions: endedSessions }, at });
      }
      return { status: 'reset', user, endedSessions };
    });
  }
}
