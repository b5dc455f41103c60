// The rows of `port_stop_clusters` (0025_port_areas): the berth and anchorage clusters of port areas.

export interface PortStopClustersTable {
  id: string;
  port_id: string;
  /** `anchorage` or `berth`. */
  kind: string;
  lat: number;
  lon: number;
  radius_nm: number;
  stops: number;
  first_seen: string;
  last_seen: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    port_stop_clusters: PortStopClustersTable;
  }
}
