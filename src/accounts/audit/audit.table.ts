// The rows of `audit_log` (0006_accounts).
import type { Generated } from 'kysely';

export interface AuditLogRow {
  /** Ascending in the order entries were appended. */
  id: Generated<number>;
  org_id: string;
  /** `operator`, `key:<key id>` or `user:<user id>`. */
  actor: string;
  action: string;
  /** The id of what the action was done to (a key, the organisation, a user). */
  target: string;
  /** A JSON object. */
  detail: string;
  at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    audit_log: AuditLogRow;
  }
}
