// The rows of `vessels` and `vessel_positions` (0001_vessels).

export interface VesselsTable {
  mmsi: number;
  imo: number | null;
  name: string | null;
  category: string;
  /** ISO 3166-1 alpha-2 of the flag state derived from the MMSI, or null. */
  flag: string | null;
  source: string;
  /** ISO 8601 time of the last position, null when the vessel has sent none. */
  position_time: string | null;
  last_update: string;
  /** JSON: the rest of the Vessel (see repository.ts, `VesselData`). */
  data: string;
}

export interface VesselPositionsTable {
  mmsi: number;
  /** Unix milliseconds. */
  time: number;
  lat: number;
  lon: number;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  nav_status: number | null;
  source: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    vessels: VesselsTable;
    vessel_positions: VesselPositionsTable;
  }
}
