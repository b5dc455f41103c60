// Great-circle geometry on a spherical Earth: distances in nautical miles (the platform's, as
// every feature measures), bearings in degrees true. The sphere's error against WGS84 (up to about
// 0.5 %) is well below what airport search and runway bearings need.
import { haversineNm, type LatLon } from '../../platform/geo/great-circle.ts';

export type { LatLon };

const RAD = Math.PI / 180;

/** Great-circle (haversine) distance in nautical miles. */
export function distanceNm(from: LatLon, to: LatLon): number {
  return haversineNm(from.lat, from.lon, to.lat, to.lon);
}

/** Initial great-circle bearing from `from` towards `to`, degrees true in [0, 360). */
export function initialBearingDeg(from: LatLon, to: LatLon): number {
  const lat1 = from.lat * RAD;
  const lat2 = to.lat * RAD;
  const dLon = (to.lon - from.lon) * RAD;
  const y = Math.sin(dLon) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  return (Math.atan2(y, x) / RAD + 360) % 360;
}

/** A heading in (0, 360]: aviation writes north as 360, never 0. */
export function normaliseHeadingDeg(degrees: number): number {
  if (degrees > 0 && degrees <= 360) return degrees;
  const wrapped = ((degrees % 360) + 360) % 360;
  return wrapped === 0 ? 360 : wrapped;
}

/** The smaller angle between two directions, in [0, 180]. */
export function angleBetweenDeg(a: number, b: number): number {
  const difference = Math.abs((((a - b) % 360) + 360) % 360);
  return difference > 180 ? 360 - difference : difference;
}
