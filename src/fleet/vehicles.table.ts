// The rows of `fleet_vehicles` (0007_fleet). Times are ISO 8601 UTC text with milliseconds; lists
// are JSON text.

export interface FleetVehicleRow {
  /** `veh_` and 16 base62 characters. */
  id: string;
  /** The organisation, or the API key for keys outside any organisation. No foreign key: keys have no row. */
  org_id: string;
  vehicle_type: string;
  /** Envelope token of the registration, context `fleet.registration:<org>:<id>`; null when there is none. */
  registration_sealed: string | null;
  /** Blind index of the normalised registration; unique per organisation. */
  registration_index: string | null;
  icao_type: string | null;
  home_base_icao: string | null;
  /** JSON array of ICAO region and FIR codes. */
  operational_regions: string;
  mmsi: number | null;
  imo: number | null;
  /** The operator's own figures, replacing the aircraft type's. */
  crosswind_limit_kt: number | null;
  min_runway_m: number | null;
  /** The Idempotency-Key of the request that created it, unique per organisation. */
  idempotency_key: string | null;
  /** Digest of that request's fields, to tell a retry from a key reused for another vehicle. */
  idempotency_fingerprint: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    fleet_vehicles: FleetVehicleRow;
  }
}
