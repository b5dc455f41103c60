// Zones as the map draws them and as the API takes them: a circle (centre and radius in nautical
// miles) as the ring of points that far away on a sphere, a shape drawn on the map as the API's
// geometry, the box that holds a zone, and a zone's shape and watch in words. Pure, so it is
// tested without a browser.
import type { OperationResponse } from '@lamis/sdk';
import type { Feature, Polygon as GeoPolygon, MultiPolygon as GeoMultiPolygon, Position } from 'geojson';
import { formatNumber } from '../../app/format.ts';
import { countryName } from '../../../../common/countries.ts';
import { categoryStyle } from '../map/categories.ts';

type ApiZone = OperationResponse<'GET /v3/zones/{id}'>;
// The API's schema leaves the geometry open (geometry.ts on the server checks it); these are its three forms.
export type CircleGeometry = { type: 'Circle'; center: { lat: number; lon: number }; radius_nm: number };
export type PolygonGeometry = { type: 'Polygon'; coordinates: Position[][] };
export type ZoneGeometry = CircleGeometry | PolygonGeometry | { type: 'MultiPolygon'; coordinates: Position[][][] };
export type Zone = Omit<ApiZone, 'geometry'> & { geometry: ZoneGeometry };
export type AppliesTo = ApiZone['applies_to'];
export type VesselCategory = NonNullable<AppliesTo['categories']>[number];

/** The mean Earth radius in nautical miles, as LAMIS measures distances on the server. */
const EARTH_RADIUS_NM = 3440.065;
const KM_PER_NM = 1.852;
const RAD = Math.PI / 180;

/** The closed ring of `steps` points `radiusNm` from the centre, longitudes continuous around the centre's (so it may pass 180°). */
export function circleRing({ lat, lon }: { lat: number; lon: number }, radiusNm: number, steps = 96): Position[] {
  const angle = radiusNm / EARTH_RADIUS_NM;
  const lat1 = lat * RAD;
  const ring: Position[] = [];
  for (let i = 0; i < steps; i++) {
    const bearing = (i / steps) * 2 * Math.PI;
    const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(bearing));
    const dLon = Math.atan2(Math.sin(bearing) * Math.sin(angle) * Math.cos(lat1), Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2));
    ring.push([lon + dLon / RAD, lat2 / RAD]);
  }
  ring.push(ring[0]!);
  return ring;
}

/** The geometry as GeoJSON a map draws: a circle as its ring. */
export function drawnGeometry(geometry: ZoneGeometry): GeoPolygon | GeoMultiPolygon {
  if (geometry.type === 'Circle') return { type: 'Polygon', coordinates: [circleRing(geometry.center, geometry.radius_nm)] };
  return geometry;
}

export function zoneFeature(zone: Pick<Zone, 'id' | 'name' | 'geometry'>): Feature<GeoPolygon | GeoMultiPolygon, { id: string; name: string }> {
  return { type: 'Feature', id: zone.id, properties: { id: zone.id, name: zone.name }, geometry: drawnGeometry(zone.geometry) };
}

const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * RAD) / 2));
const latitudeOf = (y: number) => (2 * Math.atan(Math.exp(y)) - Math.PI / 2) / RAD;

/**
 * A circle drawn on the (Web Mercator) map as the API's circle: the drawing tool gives the ring it
 * drew around the centre, flat on the map, and the radius on the ground. The centre is the ring's
 * middle on the map, to a metre or so (6 decimals); the radius is kept to 0.01 nm.
 */
export function circleFromDrawn(ring: readonly Position[], radiusKm: number): CircleGeometry {
  const points = ring.length > 1 && ring[0]![0] === ring.at(-1)![0] && ring[0]![1] === ring.at(-1)![1] ? ring.slice(0, -1) : ring;
  const x = points.reduce((sum, [lon]) => sum + lon!, 0) / points.length;
  const y = points.reduce((sum, [, lat]) => sum + mercatorY(lat!), 0) / points.length;
  const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
  const lon = ((((x + 180) % 360) + 360) % 360) - 180;
  return { type: 'Circle', center: { lat: round(latitudeOf(y), 6), lon: round(lon, 6) }, radius_nm: Math.max(0.01, round(radiusKm / KM_PER_NM, 2)) };
}

/** A polygon drawn on the map as the API's: its ring, positions to 6 decimals (about 0.1 m). */
export function polygonFromDrawn(ring: readonly Position[]): PolygonGeometry {
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  return { type: 'Polygon', coordinates: [ring.map(([lon, lat]) => [round(lon!), round(lat!)])] };
}

/** [[west, south], [east, north]] holding the zone as drawn; east may pass 180° when it does. */
export function zoneBounds(geometry: ZoneGeometry): [[number, number], [number, number]] {
  const drawn = drawnGeometry(geometry);
  const rings = drawn.type === 'Polygon' ? [drawn.coordinates[0]!] : drawn.coordinates.map((polygon) => polygon[0]!);
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of rings) {
    for (const [lon, lat] of ring) {
      west = Math.min(west, lon!);
      east = Math.max(east, lon!);
      south = Math.min(south, lat!);
      north = Math.max(north, lat!);
    }
  }
  return [[west, south], [east, north]];
}

/** `Circle, 5 nm radius`, `Polygon, 6 corners`, `3 polygons`. */
export function shapeSummary(geometry: ZoneGeometry): string {
  if (geometry.type === 'Circle') return `Circle, ${formatNumber(geometry.radius_nm)} nm radius`;
  if (geometry.type === 'Polygon') {
    return `Polygon, ${formatNumber(geometry.coordinates[0]!.length - 1)} corners`;
  }
  const polygons = geometry.coordinates.length;
  return polygons === 1 ? 'Polygon' : `${formatNumber(polygons)} polygons`;
}

/** `Your fleet`; `Your fleet; also other vessels of type tanker or cargo under the flag of Netherlands`. */
export function appliesToSummary(appliesTo: AppliesTo): string {
  const categories = (appliesTo.categories ?? []).map((category) => categoryStyle(category).label.toLowerCase());
  const flags = (appliesTo.flags ?? []).map((flag) => countryName(flag) ?? flag);
  if (!categories.length && !flags.length) return 'Your fleet';
  const type = categories.length ? ` of type ${listed(categories)}` : '';
  return `Your fleet; also other vessels${type}${flags.length ? ` under the flag of ${listed(flags)}` : ''}`;
}

function listed(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** Flags typed as `GB, nl no`: upper-case codes, each once. */
export function parseFlags(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((flag) => flag.trim().toUpperCase()).filter(Boolean))];
}
