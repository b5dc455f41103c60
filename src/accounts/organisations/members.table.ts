// The rows of `memberships` (0008_users): who belongs to which organisation, with which role.
import type { Role } from './roles.ts';

export interface MembershipRow {
  org_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    memberships: MembershipRow;
  }
}
