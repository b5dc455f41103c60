// E-mail verification links: a random token (32 bytes, base64url) in the link, only its SHA-256
// stored, valid once and for 24 hours. A user may ask for a link once a minute and five times in
// 24 hours; every link sent stays valid until it expires or the address is verified, so an older
// mail still works after a resend.
import type { Database } from '../../platform/db/database.ts';
import { isSecretToken, newSecretToken, secretTokenHash } from '../secret-tokens.ts';
import { useLink } from '../single-use-links.ts';
import type { Limit, Throttle } from '../sessions/throttle.ts';

export const VERIFICATION_TTL_MS = 24 * 3_600_000;
export const VERIFICATION_MAIL_LIMITS: readonly Limit[] = [
  { count: 1, windowMs: 60_000 },
  { count: 5, windowMs: 24 * 3_600_000 },
];

export type IssueResult = { status: 'issued'; token: string; expiresAt: string } | { status: 'throttled'; retryAfterSeconds: number };

export type RedeemResult =
  | { status: 'verified'; userId: string }
  /** No such token, or one for an address verified since (through another link). */
  | { status: 'unknown' }
  | { status: 'expired' }
  | { status: 'used' };

export class EmailVerifications {
  readonly #database: Database;
  readonly #throttle: Throttle;
  readonly #clock: () => number;

  constructor(database: Database, throttle: Throttle, clock: () => number = Date.now) {
    this.#database = database;
    this.#throttle = throttle;
    this.#clock = clock;
  }

  /** A new token for the user's address, unless they asked for too many lately. */
  async issue(userId: string): Promise<IssueResult> {
    const retryAfterSeconds = await this.#throttle.take(`verification-mail:${userId}`, VERIFICATION_MAIL_LIMITS);
    if (retryAfterSeconds > 0) return { status: 'throttled', retryAfterSeconds };
    const now = this.#clock();
    const token = newSecretToken();
    const expiresAt = new Date(now + VERIFICATION_TTL_MS).toISOString();
    await this.#database.db.deleteFrom('email_verifications').where('user_id', '=', userId).where('expires_at', '<=', new Date(now).toISOString()).execute();
    await this.#database.db
      .insertInto('email_verifications')
      .values({ token_hash: secretTokenHash(token), user_id: userId, created_at: new Date(now).toISOString(), expires_at: expiresAt, used_at: null })
      .execute();
    return { status: 'issued', token, expiresAt };
  }

  /** Marks the token used and the user's address verified, in one transaction. */
  async redeem(token: string): Promise<RedeemResult> {
    if (!isSecretToken(token)) return { status: 'unknown' };
    const hash = secretTokenHash(token);
    const at = new Date(this.#clock()).toISOString();
    return this.#database.db.transaction().execute(async (trx): Promise<RedeemResult> => {
      const link = await useLink(trx, 'email_verifications', hash, at);
      if (link.status !== 'open') return link;
      await trx.updateTable('users').set({ email_verified_at: at }).where('id', '=', link.userId).where('email_verified_at', 'is', null).execute();
      // The other links of this address have nothing left to do.
      await trx.deleteFrom('email_verifications').where('user_id', '=', link.userId).where('token_hash', '<>', hash).execute();
      return { status: 'verified', userId: link.userId };
    });
  }
}
