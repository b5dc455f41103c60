// The rows of `port_calls` (0011_port_calls): one per call detected from AIS. Times are ISO 8601
// UTC text with milliseconds; flags are 0/1 integers.

export interface PortCallsTable {
  id: string;
  mmsi: number;
  port_id: string;
  vessel_name: string | null;
  imo: number | null;
  ship_type: number | null;
  arrived_at: string;
  /** 0 or 1. */
  arrival_observed: number;
  arrival_status: string;
  arrival_lat: number;
  arrival_lon: number;
  berthed_at: string | null;
  berth_lat: number | null;
  berth_lon: number | null;
  departed_at: string | null;
  /** 0 or 1; null while the vessel is in port. */
  departure_observed: number | null;
  draught_arrival_m: number | null;
  draught_departure_m: number | null;
  source: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    port_calls: PortCallsTable;
  }
}
