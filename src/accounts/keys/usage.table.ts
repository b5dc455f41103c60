// The rows of `usage_daily` (0006_accounts): requests and streams per organisation, key and UTC day.

export interface UsageDailyRow {
  org_id: string;
  key_id: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  requests: number;
  streams: number;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    usage_daily: UsageDailyRow;
  }
}
