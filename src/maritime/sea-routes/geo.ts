// Spherical geometry in nautical miles. Positions are [lon, lat] in degrees, as in GeoJSON.
import { EARTH_RADIUS_NM, haversineNm, type LatLon } from '../../platform/geo/great-circle.ts';

export { EARTH_RADIUS_NM, haversineNm, type LatLon };

export type Position = [lon: number, lat: number];

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

/** True for finite numbers with lat in [-90, 90] and lon in [-180, 180]. */
export function isValidLatLon(point: unknown): point is LatLon {
  if (typeof point !== 'object' || point === null) return false;
  const { lat, lon } = point as Record<string, unknown>;
  return (
    typeof lat === 'number' &&
    typeof lon === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lon) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lon) <= 180
  );
}

/** Longitude wrapped into [-180, 180). */
export function normalizeLon(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** Distance between two [lon, lat] positions. */
export function distanceNm(a: Position, b: Position): number {
  return haversineNm(a[1], a[0], b[1], b[0]);
}

/** Initial true bearing (0..360) of the great circle from a to b. */
export function initialBearingDeg(a: Position, b: Position): number {
  const lat1 = a[1] * RAD;
  const lat2 = b[1] * RAD;
  const dLon = (b[0] - a[0]) * RAD;
  const y = Math.sin(dLon) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  const bearing = Math.atan2(y, x) * DEG;
  return bearing < 0 ? bearing + 360 : bearing;
}

/** Unit vector of a position on the sphere. */
export function toVector(lon: number, lat: number): [number, number, number] {
  const cosLat = Math.cos(lat * RAD);
  return [cosLat * Math.cos(lon * RAD), cosLat * Math.sin(lon * RAD), Math.sin(lat * RAD)];
}

/** Position of a (not necessarily unit) vector. */
export function fromVector(x: number, y: number, z: number): Position {
  const lat = Math.atan2(z, Math.hypot(x, y)) * DEG;
  const lon = Math.hypot(x, y) < 1e-15 ? 0 : Math.atan2(y, x) * DEG;
  return [lon, lat];
}

/** The point a fraction f (0..1) of the way along the great circle from a to b. */
export function interpolateGreatCircle(a: Position, b: Position, f: number): Position {
  const va = toVector(a[0], a[1]);
  const vb = toVector(b[0], b[1]);
  const dot = Math.max(-1, Math.min(1, va[0] * vb[0] + va[1] * vb[1] + va[2] * vb[2]));
  const angle = Math.acos(dot);
  if (angle < 1e-12) return [a[0], a[1]];
  const sin = Math.sin(angle);
  const ka = Math.sin((1 - f) * angle) / sin;
  const kb = Math.sin(f * angle) / sin;
  return fromVector(ka * va[0] + kb * vb[0], ka * va[1] + kb * vb[1], ka * va[2] + kb * vb[2]);
}

/** The position at a given distance and true bearing from a start position. */
export function destinationPoint(from: Position, bearingDeg: number, distance: number): Position {
  const angular = distance / EARTH_RADIUS_NM;
  const lat1 = from[1] * RAD;
  const bearing = bearingDeg * RAD;
  const lat2 = Math.asin(
    Math.sin(lat1) * Math.cos(angular) + Math.cos(lat1) * Math.sin(angular) * Math.cos(bearing),
  );
  const lon2 =
    from[0] * RAD +
    Math.atan2(Math.sin(bearing) * Math.sin(angular) * Math.cos(lat1), Math.cos(angular) - Math.sin(lat1) * Math.sin(lat2));
  return [normalizeLon(lon2 * DEG), lat2 * DEG];
}

/** Shortest distance from p to the great-circle arc a-b (the arc shorter than 180 degrees). */
export function distanceToArcNm(p: Position, a: Position, b: Position): number {
  const vp = toVector(p[0], p[1]);
  const va = toVector(a[0], a[1]);
  const vb = toVector(b[0], b[1]);
  const nx = va[1] * vb[2] - va[2] * vb[1];
  const ny = va[2] * vb[0] - va[0] * vb[2];
  const nz = va[0] * vb[1] - va[1] * vb[0];
  const nLength = Math.hypot(nx, ny, nz);
  const toEnds = Math.min(distanceNm(p, a), distanceNm(p, b));
  if (nLength < 1e-15) return toEnds;
  // The foot of the perpendicular lies on the arc when it is on the b side of a and the a side of b.
  const [ux, uy, uz] = [nx / nLength, ny / nLength, nz / nLength];
  const sideA = vp[0] * (uy * va[2] - uz * va[1]) + vp[1] * (uz * va[0] - ux * va[2]) + vp[2] * (ux * va[1] - uy * va[0]);
  const sideB = vp[0] * (vb[1] * uz - vb[2] * uy) + vp[1] * (vb[2] * ux - vb[0] * uz) + vp[2] * (vb[0] * uy - vb[1] * ux);
  if (sideA < 0 || sideB < 0) return toEnds;
  const offPlane = vp[0] * ux + vp[1] * uy + vp[2] * uz;
  return Math.asin(Math.min(1, Math.abs(offPlane))) * EARTH_RADIUS_NM;
}

/** Shortest distance from p to a polyline of great-circle arcs. */
export function distanceToPathNm(p: Position, path: readonly Position[]): number {
  if (path.length === 0) return Number.POSITIVE_INFINITY;
  if (path.length === 1) return distanceNm(p, path[0]!);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < path.length; i++) best = Math.min(best, distanceToArcNm(p, path[i - 1]!, path[i]!));
  return best;
}
