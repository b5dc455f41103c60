// The area the map shows, as the stream's bounding box. MapLibre's bounds run past ±180° when the
// view crosses the antimeridian (or shows the world more than once); the stream wants longitudes
// in [-180, 180], a box across the antimeridian having minLon > maxLon.

/** A box in degrees as the stream takes it; minLon > maxLon crosses the antimeridian. */
export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

/** West, south, east, north in degrees, as MapLibre's LngLatBounds gives them (west and east may pass ±180°). */
export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** Web Mercator ends here: a view reaching it sees every latitude there is. */
const MERCATOR_EDGE = 85.0511;

const round = (value: number) => Math.round(value * 1e4) / 1e4;

function normaliseLongitude(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/**
 * The box of `bounds` widened by `margin` (a fraction of its size on each side): null when it takes
 * in every longitude and latitude (subscribe to everything).
 */
export function boxOfBounds(bounds: Bounds, margin = 0): Box | null {
  const width = bounds.east - bounds.west;
  const height = bounds.north - bounds.south;
  const north = bounds.north + height * margin;
  const south = bounds.south - height * margin;
  const maxLat = north >= MERCATOR_EDGE ? 90 : round(north);
  const minLat = south <= -MERCATOR_EDGE ? -90 : round(south);
  const everyLongitude = width * (1 + 2 * margin) >= 360;
  if (everyLongitude && minLat === -90 && maxLat === 90) return null;
  if (everyLongitude) return { minLat, maxLat, minLon: -180, maxLon: 180 };
  const west = round(normaliseLongitude(bounds.west - width * margin));
  let east = round(normaliseLongitude(bounds.east + width * margin));
  // The eastern edge exactly on the antimeridian is 180, not -180.
  if (east === -180) east = 180;
  return { minLat, maxLat, minLon: west, maxLon: east };
}

/** Whether a position lies in a box (edges included; a box may cross the antimeridian). */
export function boxContains(box: Box, lat: number, lon: number): boolean {
  if (lat < box.minLat || lat > box.maxLat) return false;
  return box.minLon <= box.maxLon ? lon >= box.minLon && lon <= box.maxLon : lon >= box.minLon || lon <= box.maxLon;
}

/** Degrees of longitude a box spans (one across the antimeridian included). */
export function longitudeSpan(box: Box): number {
  return box.minLon <= box.maxLon ? box.maxLon - box.minLon : box.maxLon + 360 - box.minLon;
}

export function sameBox(a: Box | null, b: Box | null): boolean {
  return a === b || (!!a && !!b && a.minLat === b.minLat && a.maxLat === b.maxLat && a.minLon === b.minLon && a.maxLon === b.maxLon);
}
