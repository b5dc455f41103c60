// The rows of `notification_settings` (0007_fleet): the organisation-wide alert thresholds and each
// vehicle's own.

export interface NotificationSettingsRow {
  org_id: string;
  /** null: the organisation-wide settings. */
  vehicle_id: string | null;
  /** JSON object of alert thresholds. */
  thresholds: string;
  updated_at: string;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    notification_settings: NotificationSettingsRow;
  }
}
