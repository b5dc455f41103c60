// The rows of `zones` (0017_zones). Times are ISO 8601 UTC text with milliseconds; the geometry
// and the filter are JSON text.

export interface ZoneRow {
  /** `zon_` and 16 base62 characters. */
  id: string;
  /** The organisation, or the API key for keys outside any. */
  org_id: string;
  name: string;
  description: string | null;
  /** The checked GeoJSON Polygon or MultiPolygon, or the circle, as given. */
  geometry: string;
  /** `{fleet: true, categories?, flags?}`. */
  applies_to: string;
  created_at: string;
  updated_at: string;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    zones: ZoneRow;
  }
}
