// The rows of `planned_arrivals` (0016_planned_arrivals). Times are ISO 8601 UTC text with
// milliseconds, so they sort as text on both back ends.

export interface PlannedArrivalRow {
  /** `arr_` and 16 base62 characters. */
  id: string;
  /** The organisation, or the API key for keys outside any; the vehicle's owner. */
  org_id: string;
  /** The vehicle landing; its arrivals go with it. */
  vehicle_id: string;
  destination_icao: string;
  eta_utc: string;
  created_at: string;
  updated_at: string;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    planned_arrivals: PlannedArrivalRow;
  }
}
