// Natural Earth (world-atlas TopoJSON) turned into GeoJSON that MapLibre draws without seams. The
// topology is spherical: a ring across the antimeridian (Chukotka, Fiji) jumps from 180° to -180°.
// Unwrapped, it carries on past 180° instead, which MapLibre draws across both copies of the world;
// a ring round a pole (Antarctica) does not close once unwrapped, so it is closed along the edge of
// the Mercator world.
import type { Feature, FeatureCollection, MultiLineString, MultiPolygon, Point, Polygon, Position } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** Web Mercator stops here; a polar ring is closed along it. */
const MERCATOR_EDGE = 85.0511;

/** Longitudes made continuous: each point within 180° of the one before. */
export function unwrapLine(line: readonly Position[]): Position[] {
  const out: Position[] = [];
  let previous = line[0]?.[0] ?? 0;
  for (const [rawLon, lat] of line) {
    let lon = rawLon!;
    while (lon - previous > 180) lon -= 360;
    while (lon - previous < -180) lon += 360;
    previous = lon;
    out.push([lon, lat!]);
  }
  return out;
}

/** A ring unwrapped, closed along the Mercator edge when it goes round a pole, and moved by whole worlds to start within [-180, 180]. */
export function unwrapRing(ring: readonly Position[]): Position[] {
  const out = unwrapLine(ring);
  if (out.length > 1 && Math.abs(out.at(-1)![0]! - out[0]![0]!) > 180) {
    const edge = out.reduce((sum, point) => sum + point[1]!, 0) < 0 ? -MERCATOR_EDGE : MERCATOR_EDGE;
    const last = out.at(-1)!;
    out.push([last[0]!, edge], [out[0]![0]!, edge], out[0]!);
  }
  const shift = Math.floor((Math.min(...out.map((point) => point[0]!)) + 180) / 360) * 360;
  return shift ? out.map(([lon, lat]) => [lon! - shift, lat!]) : out;
}

function polygons(geometry: Polygon | MultiPolygon): Position[][][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

function objectOf(topology: Topology, name: string): GeometryCollection {
  const object = topology.objects[name];
  if (!object || object.type !== 'GeometryCollection') throw new Error(`the Natural Earth topology has no ${name} collection`);
  return object as GeometryCollection;
}

/** The land polygons of a world-atlas `land-*` (or `countries-*`) topology. */
export function landFromTopology(topology: Topology): FeatureCollection<MultiPolygon> {
  const land = feature(topology, objectOf(topology, 'land')) as FeatureCollection<Polygon | MultiPolygon>;
  const coordinates: Position[][][] = [];
  for (const item of land.features) {
    for (const polygon of polygons(item.geometry)) coordinates.push(polygon.map(unwrapRing));
  }
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates } }] };
}

/** Borders between countries (each shared arc once; coasts left out) of a world-atlas `countries-*` topology. */
export function bordersFromTopology(topology: Topology): FeatureCollection<MultiLineString> {
  const borders = mesh(topology, objectOf(topology, 'countries'), (a, b) => a !== b);
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'MultiLineString', coordinates: borders.coordinates.map(unwrapLine) } }] };
}

/** Twice the signed area and the area-weighted centre of a ring (planar, in degrees: good enough to place a label). */
function ringCentre(ring: readonly Position[]): { area: number; lon: number; lat: number } {
  let area = 0;
  let lon = 0;
  let lat = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x0, y0] = ring[j]! as [number, number];
    const [x1, y1] = ring[i]! as [number, number];
    const cross = x0 * y1 - x1 * y0;
    area += cross;
    lon += (x0 + x1) * cross;
    lat += (y0 + y1) * cross;
  }
  if (area === 0) return { area: 0, lon: ring[0]?.[0] ?? 0, lat: ring[0]?.[1] ?? 0 };
  return { area, lon: lon / (3 * area), lat: lat / (3 * area) };
}

/**
 * One label point per country: the centre of its largest polygon (so France is labelled in Europe,
 * not between its overseas departments), with the polygon's area for ranking labels.
 */
export function countryLabels(topology: Topology): FeatureCollection<Point, { name: string; area: number }> {
  const countries = feature(topology, objectOf(topology, 'countries')) as FeatureCollection<Polygon | MultiPolygon | null, { name?: string }>;
  const features: Feature<Point, { name: string; area: number }>[] = [];
  for (const country of countries.features) {
    const name = country.properties?.name;
    if (!name || !country.geometry) continue;
    let best: { area: number; lon: number; lat: number } | null = null;
    for (const polygon of polygons(country.geometry)) {
      const centre = ringCentre(unwrapRing(polygon[0]!));
      if (!best || Math.abs(centre.area) > Math.abs(best.area)) best = centre;
    }
    if (!best || Math.abs(best.lat) > 80) continue;
    const lon = ((best.lon + 540) % 360) - 180;
    features.push({ type: 'Feature', properties: { name, area: Math.abs(best.area) / 2 }, geometry: { type: 'Point', coordinates: [lon, best.lat] } });
  }
  // Larger countries first, so they win when labels collide.
  features.sort((a, b) => b.properties.area - a.properties.area);
  return { type: 'FeatureCollection', features };
}
