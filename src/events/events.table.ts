// The rows of `events` (0015_events), of their change log `event_changes` (0024_event_changes) and of
// the log's horizons `event_log_horizons` (0027_event_log_horizons); `observed_at` came with 0028_event_observed_at.
// `subject` and `data` are JSON text on both back ends; times are ISO 8601 UTC text with milliseconds.
import type { Generated } from 'kysely';

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
  /** The observation behind the latest opening or clearing, when the rule knows it. */
  observed_at: string | null;
}

export interface EventChangesTable {
  /** Rises with every change on the storage; changes commit in its order. */
  seq: Generated<number>;
  org_id: string;
  event_id: string;
  /** What the transition did: `opened`, `escalated`, `updated`, `cleared` or `acknowledged`. */
  change: string;
  changed_at: string;
}

export interface EventLogHorizonsTable {
  org_id: string;
  /** The last change of the organisation's that retention took out of the log with its event. */
  pruned_through: number;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    events: EventsTable;
    event_changes: EventChangesTable;
    event_log_horizons: EventLogHorizonsTable;
  }
}
