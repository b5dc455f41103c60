// The rows of `arrival_landing_state` (0022_arrival_landing_state).

export interface ArrivalLandingStateRow {
  arrival_id: string;
  /** The arrival's owner: an organisation, or an API key outside any. */
  org_id: string;
  vehicle_id: string;
  /** The recommended runway end; null when none could be recommended, or without a METAR. */
  runway: string | null;
  /** The recommended approach as the landing answer says it ("ILS RWY 27L", "NONE"); null without a METAR. */
  approach: string | null;
  /** The destination's status: OPERATIONAL, LIMITED, CLOSED or UNKNOWN. */
  status: string;
  /** An hour after the ETA: the arrival is archived from then on. */
  watched_until: string;
  updated_at: string;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    arrival_landing_state: ArrivalLandingStateRow;
  }
}
