// The `position` frame's data made from a vessel. It imports nothing, so the web map can build the
// same frame from a vessel search result as the server builds from its live index.

/** The members of a vessel (the server's record or a search result) the frame is made from. */
export interface PositionedVessel<Category extends string, Source extends string> {
  mmsi: number;
  name: string | null;
  imo: number | null;
  category: Category;
  flag: { alpha2: string } | null;
  source: Source;
  position: Pick<PositionFrameData<Category, Source>, 'lat' | 'lon' | 'sog' | 'cog' | 'heading' | 'nav_status' | 'timestamp'> | null;
}

export interface PositionFrameData<Category extends string, Source extends string> {
  mmsi: number;
  name: string | null;
  lat: number;
  lon: number;
  imo: number | null;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  nav_status: number | null;
  vessel_type: Category;
  flag: string | null;
  timestamp: string;
  source: Source;
}

/** null for a vessel with no position yet. */
export function positionFrameData<Category extends string, Source extends string>(
  vessel: PositionedVessel<Category, Source>,
): PositionFrameData<Category, Source> | null {
  const position = vessel.position;
  if (!position) return null;
  return {
    mmsi: vessel.mmsi,
    name: vessel.name,
    lat: position.lat,
    lon: position.lon,
    imo: vessel.imo,
    sog: position.sog,
    cog: position.cog,
    heading: position.heading,
    nav_status: position.nav_status,
    vessel_type: vessel.category,
    flag: vessel.flag?.alpha2 ?? null,
    timestamp: position.timestamp,
    source: vessel.source,
  };
}
