// The rows of `invitations` (0009_teams).
import type { Role } from './roles.ts';

export interface InvitationRow {
  /** `inv_` and 16 base62 characters: names the invitation in lists, not secret. */
  id: string;
  org_id: string;
  /** As `normaliseEmail` gave it: where the mail goes. */
  email: string;
  /** The address lower-cased: what the accepting account's address must match. */
  email_key: string;
  role: Role;
  /** SHA-256 of the token in the link, hex. */
  token_hash: string;
  /** The user who invited. */
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    invitations: InvitationRow;
  }
}
