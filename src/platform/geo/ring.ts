// Whether a closed ring of [lon, lat] positions holds a point, planar in degrees (the way GeoJSON
// rings are drawn). The caller unwraps rings and points near the antimeridian first.

export type PlanarRing = readonly (readonly [number, number])[];

/** Even-odd ray casting; a point on an edge may fall either way. */
export function ringHolds(ring: PlanarRing, lon: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
