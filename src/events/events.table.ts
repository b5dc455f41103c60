// The rows of `events` (0015_events). `subject` and `data` are JSON text on both back ends; times
// are ISO 8601 UTC text with milliseconds.

export interface EventsTable {
  id: string;
  org_id: string;
  kind: string;
  /** `open` or `cleared`. */
  state: string;
  /** `info`, `warning` or `critical`. */
  severity: string;
  subject_type: string;
  subject_id: string;
  subject: string;
  /** The kind and the subject's identity: one open event per key and organisation. */
  dedupe_key: string;
  summary: string;
  data: string;
  opened_at: string;
  updated_at: string;
  cleared_at: string | null;
  acknowledged_at: string | null;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    events: EventsTable;
  }
}
