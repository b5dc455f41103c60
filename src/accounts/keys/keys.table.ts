// The rows of `api_keys` (0006_accounts).
import type { Principal } from '../../platform/http/auth.ts';

export type Environment = Principal['environment'];

export interface ApiKeyRow {
  /** `key_` and 16 base62 characters; not secret. */
  id: string;
  org_id: string;
  name: string;
  environment: Environment;
  /** The secret's environment prefix, `lamis_live_` or `lamis_test_`. */
  prefix: string;
  /** The secret's last four characters, so owners can tell keys apart. */
  last4: string;
  /** SHA-256 of the whole secret, hex. */
  secret_hash: string;
  created_at: string;
  /** null: the key never expires. */
  expires_at: string | null;
  revoked_at: string | null;
  /** Written at most once a minute per key. */
  last_used_at: string | null;
  /** The key this one replaced by rotation. */
  rotated_from: string | null;
  /** Set when the key was rotated: it keeps working until then. */
  overlap_until: string | null;
  /** The user who created the key; null for operators and keys made before users existed. */
  created_by: string | null;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    api_keys: ApiKeyRow;
  }
}
