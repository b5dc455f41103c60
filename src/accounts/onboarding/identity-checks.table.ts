// The rows of `identity_checks` (0008_users). Identity documents are kept only sealed.
import type { DocumentType } from './identity/index.ts';

export type IdentityStatus = 'pending' | 'manual_review' | 'verified' | 'rejected';

export interface IdentityCheckRow {
  /** `idc_` and 16 base62 characters. */
  id: string;
  user_id: string;
  status: IdentityStatus;
  /** Envelope token of the uploaded bytes; null once the check is settled. */
  document_sealed: string | null;
  document_type: DocumentType;
  document_sha256: string;
  /** JSON array of `{ code, field?, message }`. */
  reasons: string;
  /** JSON object of the MRZ summary (no name, no birth date), or null. */
  document_summary: string | null;
  created_at: string;
  /** When a worker took the check; a claim older than the job timeout may be taken again. */
  started_at: string | null;
  checked_at: string | null;
  settled_at: string | null;
  settled_by: 'automatic' | 'operator' | null;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    identity_checks: IdentityCheckRow;
  }
}
