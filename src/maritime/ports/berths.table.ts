// The rows of `berths` (0011_port_calls, 0014_berth_owners): shared berth records and
// organisations' own.

export interface BerthsTable {
  /** `brt_` and 16 base62 characters. */
  id: string;
  port_id: string;
  name: string;
  /** The name folded for comparison; unique per port and owner. */
  name_key: string;
  length_m: number | null;
  depth_m: number | null;
  /** JSON array of cargo types. */
  cargo_types: string;
  lat: number | null;
  lon: number | null;
  /** The organisation that made the record, which alone sees it; null for the instance's operators (shared). */
  organisation_id: string | null;
  /** The organisation, or the operator key's id: who may repeat an Idempotency-Key. */
  created_by: string;
  idempotency_key: string | null;
  /** Digest of the creating request's fields, to tell a retry from a key reused for another berth. */
  idempotency_fingerprint: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    berths: BerthsTable;
  }
}
