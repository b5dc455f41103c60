// Whether a closed ring of positions holds a point, planar in degrees (the way GeoJSON rings are
// drawn). The caller unwraps rings and points near the antimeridian first. Rings are kept flat,
// [lon0, lat0, lon1, lat1, ...], the first position repeated last: a ring held for long (a port's
// area, a zone) then costs 16 bytes a position instead of an array of two numbers each.

export type FlatRing = ArrayLike<number>;

/** A ring of [lon, lat] pairs, flat. */
export function flatRing(ring: readonly (readonly [number, number])[]): Float64Array {
  const flat = new Float64Array(ring.length * 2);
  ring.forEach(([lon, lat], i) => {
    flat[2 * i] = lon;
    flat[2 * i + 1] = lat;
  });
  return flat;
}

/** A flat ring as [lon, lat] pairs. */
export function ringPositions(ring: FlatRing): [number, number][] {
  return Array.from({ length: ring.length / 2 }, (_, i) => [ring[2 * i]!, ring[2 * i + 1]!]);
}

/** Even-odd ray casting; a point on an edge may fall either way. */
export function ringHolds(ring: FlatRing, lon: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const xi = ring[i]!;
    const yi = ring[i + 1]!;
    const xj = ring[j]!;
    const yj = ring[j + 1]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
