// The rows of the notifications tables (0020_notifications). Times are ISO 8601 UTC text with
// milliseconds; an hour is the text of its first instant (`2026-11-26T14:00:00.000Z`).

/** A member's choice for one severity in one organisation; without a row the default applies. */
export interface NotificationPreferencesTable {
  org_id: string;
  user_id: string;
  /** `info`, `warning` or `critical`. */
  severity: string;
  /** `immediately`, `hourly` or `off`. */
  delivery: string;
  updated_at: string;
}

/** One change of an event recorded for one member: mailed at once, or a line of that hour's digest. */
export interface NotificationLinesTable {
  org_id: string;
  user_id: string;
  event_id: string;
  /** `opened`, `escalated` or `cleared`. */
  change: string;
  /** The severity the event had after the change. */
  severity: string;
  /** `immediately` or `hourly`. */
  delivery: string;
  /** The hour the change fell in: the digest it belongs to. */
  hour: string;
  summary: string;
  recorded_at: string;
}

/** One member's digest of one hour; `sent_at` set by the instance that claimed it. */
export interface NotificationDigestsTable {
  org_id: string;
  user_id: string;
  hour: string;
  sent_at: string | null;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    notification_preferences: NotificationPreferencesTable;
    notification_lines: NotificationLinesTable;
    notification_digests: NotificationDigestsTable;
  }
}
