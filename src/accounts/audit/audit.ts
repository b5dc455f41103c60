// The audit log: security-relevant events of an organisation, appended in the same transaction as
// the change they record, so the log never shows a change that did not happen or misses one that
// did. Who may read it (owners and admins) is for the endpoint to decide.
import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../platform/db/database.ts';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor } from '../../platform/http/pagination.ts';

/**
 * Who acted: an operator of the instance (the `lamis` commands), an API key, a user, or the
 * instance itself on a schedule (the clean-up of unverified accounts).
 */
export type Actor = 'operator' | 'system' | `key:${string}` | `user:${string}`;

export type AuditAction =
  | 'org.created'
  | 'plan.changed'
  | 'key.created'
  | 'key.rotated'
  | 'key.revoked'
  | 'member.invited'
  | 'member.invitation_revoked'
  | 'member.added'
  | 'member.role_changed'
  | 'member.removed'
  | 'identity.result'
  | 'password.reset'
  | 'ais_upload.changed'
  | 'slot_share.changed';

export interface AuditEvent {
  orgId: string;
  actor: Actor;
  action: AuditAction;
  target: string;
  detail?: Record<string, unknown>;
  at: string;
}

export interface AuditEntry {
  id: number;
  org_id: string;
  actor: string;
  action: string;
  target: string;
  detail: Record<string, unknown>;
  at: string;
}

export async function appendAudit(db: Kysely<Tables>, event: AuditEvent): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      org_id: event.orgId,
      actor: event.actor,
      action: event.action,
      target: event.target,
      detail: JSON.stringify(event.detail ?? {}),
      at: event.at,
    })
    .execute();
}

/** Newest first; `cursor` is a `next_cursor` of an earlier page (a 400 problem otherwise). */
export async function listAudit(
  database: Database,
  orgId: string,
  page: { limit?: number; cursor?: string } = {},
): Promise<{ data: AuditEntry[]; next_cursor: string | null }> {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  let query = database.db.selectFrom('audit_log').selectAll().where('org_id', '=', orgId);
  if (page.cursor !== undefined) {
    const before = decodeCursor(page.cursor, (key): key is number => Number.isSafeInteger(key));
    query = query.where('id', '<', before);
  }
  const rows = await query.orderBy('id', 'desc').limit(limit + 1).execute();
  const data = rows.slice(0, limit).map((row) => ({ ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }));
  const last = data[data.length - 1];
  return { data, next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}
