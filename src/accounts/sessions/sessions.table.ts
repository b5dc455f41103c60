// The rows of `sessions` (0008_users): dashboard sessions, by the SHA-256 of their cookie.

export interface SessionRow {
  /** `ses_` and 16 base62 characters: names the session in lists, not secret. */
  id: string;
  /** SHA-256 of the cookie value, hex. */
  secret_hash: string;
  user_id: string;
  created_at: string;
  /** Written at most once a minute. */
  last_seen_at: string;
  /** The absolute end, whatever the activity. */
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  address: string | null;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    sessions: SessionRow;
  }
}
