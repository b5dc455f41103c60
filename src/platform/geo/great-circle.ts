// Great-circle distance on a spherical Earth, in nautical miles: the one measure every feature
// uses, so a distance shown by one list is the distance another filters by. The sphere's error
// against WGS84 (up to about 0.5 %) is well below what searching places and sea lanes needs.

export type LatLon = { readonly lat: number; readonly lon: number };

/** Mean Earth radius, 6371 km, in nautical miles (1 nm = 1852 m exactly). */
export const EARTH_RADIUS_NM = 3440.065;

const RAD = Math.PI / 180;

/** Great-circle distance by the haversine formula; the short way round across the antimeridian. */
export function haversineNm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_NM * Math.asin(Math.min(1, Math.sqrt(s)));
}
