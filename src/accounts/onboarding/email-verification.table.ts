// The rows of `email_verifications` (0008_users): links sent, by the SHA-256 of their token.

export interface EmailVerificationRow {
  /** SHA-256 of the token in the link, hex. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    email_verifications: EmailVerificationRow;
  }
}
