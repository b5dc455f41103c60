// The rows of `watch_list` (0023_watch_list). Times are ISO 8601 UTC text with milliseconds.

export interface WatchListRow {
  /** `wat_` and 16 base62 characters. */
  id: string;
  /** The organisation, or the API key for keys outside any. */
  org_id: string;
  /** `airport` or `port`. */
  type: string;
  /** The airport's ICAO code or the port's id (a UN/LOCODE or `WPI-<number>`), as the reference data names it. */
  target: string;
  note: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    watch_list: WatchListRow;
  }
}
