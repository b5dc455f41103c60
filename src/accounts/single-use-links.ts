// The step e-mail verification and password-reset links share: using a link up. Both tables hold
// one row a link sent, by the SHA-256 of its token, valid once until `expires_at`.
import type { Kysely } from 'kysely';
import type { Tables } from '../platform/db/database.ts';

export type UseLinkResult = { status: 'open'; userId: string; createdAt: string } | { status: 'unknown' | 'expired' | 'used' };

/**
 * Marks the link used if it is still open, inside the caller's transaction; of two callers racing
 * with one link, one gets it and the other finds it used.
 */
export async function useLink(trx: Kysely<Tables>, table: 'email_verifications' | 'password_resets', hash: string, at: string): Promise<UseLinkResult> {
  const used = await trx
    .updateTable(table)
    .set({ used_at: at })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning(['user_id', 'created_at'])
    .executeTakeFirst();
  if (used) return { status: 'open', userId: used.user_id, createdAt: used.created_at };
  const row = await trx.selectFrom(table).select('used_at').where('token_hash', '=', hash).executeTakeFirst();
  if (!row) return { status: 'unknown' };
  return row.used_at !== null ? { status: 'used' } : { status: 'expired' };
}
