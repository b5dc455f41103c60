// Zone geometry: GeoJSON Polygon and MultiPolygon (RFC 7946) and circles, checked field by field,
// and the two questions the watcher asks of a zone: is a position inside, and did a move from one
// position to the next enter or leave it.
//
// The antimeridian: RFC 7946 asks for a shape crossing ±180° to be split in two, and split shapes
// work as they are. A ring may also simply jump across (lon 179 → -179): any step of more than
// 180° between consecutive positions is read as the short way round, so the ring is unwrapped to
// continuous longitudes (179 → 181) and a point is tested at its longitude and one turn either
// side. A ring that would go round a pole is refused: it has no inside in longitude and latitude.
// Edges are straight in longitude and latitude, as GeoJSON draws them; circles are measured by
// great-circle distance.
import { haversineNm, type LatLon } from '../platform/geo/great-circle.ts';
import { type FlatRing, flatRing, ringHolds } from '../platform/geo/ring.ts';

/** The largest circle: beyond it, a zone is better drawn as a polygon. */
export const MAX_RADIUS_NM = 500;
/** Positions of all rings of a zone together. */
export const MAX_VERTICES = 10_000;

type Position = [lon: number, lat: number];
type Ring = Position[];

export type ZoneGeometry =
  | { type: 'Polygon'; coordinates: Ring[] }
  | { type: 'MultiPolygon'; coordinates: Ring[][] }
  | { type: 'Circle'; center: LatLon; radius_nm: number };

export type Crossing = 'entered' | 'exited' | 'none';

export interface GeometryIssue {
  /** JSON pointer below the geometry, without the leading slash: `coordinates/0/3`. */
  field: string;
  message: string;
}

export class GeometryError extends Error {
  readonly issues: readonly GeometryIssue[];

  constructor(issues: readonly GeometryIssue[]) {
    super(issues.map((issue) => `${issue.field} ${issue.message}`).join('; '));
    this.name = 'GeometryError';
    this.issues = issues;
  }
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The geometry as given, checked; throws GeometryError naming each broken part (the first few). */
export function parseGeometry(input: unknown): ZoneGeometry {
  const issues: GeometryIssue[] = [];
  const add = (field: string, message: string) => issues.push({ field, message });
  const fail = () => new GeometryError(issues.slice(0, 20));
  if (!isObject(input)) throw new GeometryError([{ field: '', message: 'must be a GeoJSON Polygon or MultiPolygon, or a Circle' }]);

  if (input.type === 'Circle') {
    const { center, radius_nm: radius } = input;
    if (!isObject(center) || !isNumber(center.lat) || !isNumber(center.lon)) add('center', 'must be {lat, lon} in degrees');
    else {
      if (center.lat < -90 || center.lat > 90) add('center/lat', 'must be from -90 to 90');
      if (center.lon < -180 || center.lon > 180) add('center/lon', 'must be from -180 to 180');
    }
    if (!isNumber(radius) || radius <= 0 || radius > MAX_RADIUS_NM) add('radius_nm', `must be more than 0 and at most ${MAX_RADIUS_NM} nautical miles`);
    if (issues.length) throw fail();
    const c = center as { lat: number; lon: number };
    return { type: 'Circle', center: { lat: c.lat, lon: c.lon }, radius_nm: radius as number };
  }

  let vertices = 0;
  const polygon = (value: unknown, field: string): Ring[] => {
    if (!Array.isArray(value) || value.length === 0) {
      add(field, 'must be a list of linear rings, the outer ring first');
      return [];
    }
    return value.map((ring, r) => linearRing(ring, `${field}${field ? '/' : ''}${r}`));
  };
  const linearRing = (value: unknown, field: string): Ring => {
    if (!Array.isArray(value) || value.length < 4) {
      add(field, 'must be a closed ring of at least 4 positions, the last equal to the first');
      return [];
    }
    vertices += value.length;
    const ring: Ring = [];
    value.forEach((position, p) => {
      if (!Array.isArray(position) || position.length < 2 || position.length > 3 || !position.every(isNumber)) {
        add(`${field}/${p}`, 'must be a position [longitude, latitude]');
        return;
      }
      const [lon, lat] = position as number[] as [number, number];
      if (lon < -180 || lon > 180) add(`${field}/${p}/0`, 'must be a longitude from -180 to 180 (positions are [longitude, latitude])');
      if (lat < -90 || lat > 90) add(`${field}/${p}/1`, 'must be a latitude from -90 to 90 (positions are [longitude, latitude])');
      ring.push([lon, lat]);
    });
    if (ring.length !== value.length) return ring;
    const first = ring[0]!;
    const last = ring[ring.length - 1]!;
    if (first[0] !== last[0] || first[1] !== last[1]) add(field, 'must be closed: its last position must equal its first');
    else if (Math.abs(unwrap(ring).at(-1)![0] - first[0]) > 180) add(field, 'goes round a pole; draw it as a circle or as a ring that does not');
    return ring;
  };

  let geometry: ZoneGeometry;
  if (input.type === 'Polygon') {
    geometry = { type: 'Polygon', coordinates: polygon(input.coordinates, 'coordinates') };
  } else if (input.type === 'MultiPolygon') {
    const polygons = input.coordinates;
    if (!Array.isArray(polygons) || polygons.length === 0) {
      add('coordinates', 'must be a list of polygons');
      throw fail();
    }
    geometry = { type: 'MultiPolygon', coordinates: polygons.map((p, i) => polygon(p, `coordinates/${i}`)) };
  } else {
    add('type', 'must be Polygon, MultiPolygon or Circle');
    throw fail();
  }
  if (vertices > MAX_VERTICES) add('coordinates', `has ${vertices} positions; a zone takes at most ${MAX_VERTICES}`);
  if (issues.length) throw fail();
  return geometry;
}

/** The ring with continuous longitudes, each step taken the short way round; it starts within 180° of `near`. */
function unwrap(ring: Ring, near = ring[0]![0]): Ring {
  const start = ring[0]![0];
  const out: Ring = [[start + (start - near > 180 ? -360 : near - start > 180 ? 360 : 0), ring[0]![1]]];
  for (let i = 1; i < ring.length; i++) {
    let step = ring[i]![0] - ring[i - 1]![0];
    if (step > 180) step -= 360;
    else if (step < -180) step += 360;
    out.push([out[i - 1]![0] + step, ring[i]![1]]);
  }
  return out;
}

/** A polygon's rings unwrapped once: holes beside the outer ring, so all share one run of longitudes. */
function unwrapPolygon(rings: Ring[]): Ring[] {
  const outer = unwrap(rings[0]!);
  return [outer, ...rings.slice(1).map((hole) => unwrap(hole, outer[0]![0]))];
}

function inPolygon([outer, ...holes]: FlatRing[], point: LatLon): boolean {
  // The unwrapped ring may reach past ±180; the point is tried a turn either side as well.
  return [point.lon, point.lon + 360, point.lon - 360].some((lon) =>
    ringHolds(outer!, lon, point.lat) && !holes.some((hole) => ringHolds(hole, lon, point.lat)));
}

/** Latitudes and longitudes that hold a zone: longitude ranges within ±180°, two when it crosses the antimeridian. */
export interface GeometryBounds {
  minLat: number;
  maxLat: number;
  lonRanges: [from: number, to: number][];
}

/** A zone made ready for many questions: rings unwrapped once, and the box that holds it. */
export interface CompiledGeometry {
  contains(point: LatLon): boolean;
  bounds: GeometryBounds;
}

/** A longitude span (possibly past ±180 or wider than a turn) as ranges within ±180. */
function lonRanges(from: number, to: number): [number, number][] {
  if (to - from >= 360) return [[-180, 180]];
  const start = ((((from + 180) % 360) + 360) % 360) - 180;
  const end = start + (to - from);
  return end <= 180 ? [[start, end]] : [[start, 180], [-180, end - 360]];
}

const DEG = 180 / Math.PI;

export function compileGeometry(geometry: ZoneGeometry): CompiledGeometry {
  if (geometry.type === 'Circle') {
    const { center, radius_nm: radius } = geometry;
    // A minute of latitude is a nautical mile.
    const radiusDeg = radius / 60;
    const minLat = Math.max(-90, center.lat - radiusDeg);
    const maxLat = Math.min(90, center.lat + radiusDeg);
    const spread = Math.sin(radiusDeg / DEG) / Math.cos(center.lat / DEG);
    const allLongitudes = minLat <= -90 || maxLat >= 90 || spread >= 1;
    const halfWidth = allLongitudes ? 180 : Math.asin(spread) * DEG;
    return {
      contains: (point) => haversineNm(center.lat, center.lon, point.lat, point.lon) <= radius,
      bounds: { minLat, maxLat, lonRanges: allLongitudes ? [[-180, 180]] : lonRanges(center.lon - halfWidth, center.lon + halfWidth) },
    };
  }
  const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates).map(unwrapPolygon);
  let minLat = 90;
  let maxLat = -90;
  const ranges: [number, number][] = [];
  for (const [outer] of polygons) {
    let west = Infinity;
    let east = -Infinity;
    for (const [lon, lat] of outer!) {
      minLat = Math.min(minLat, lat);
      maxLat = Math.max(maxLat, lat);
      west = Math.min(west, lon);
      east = Math.max(east, lon);
    }
    ranges.push(...lonRanges(west, east));
  }
  const flat = polygons.map((rings) => rings.map(flatRing));
  return { contains: (point) => flat.some((rings) => inPolygon(rings, point)), bounds: { minLat, maxLat, lonRanges: ranges } };
}

/** Whether the position is inside the zone (for a circle: within its radius). */
export function contains(geometry: ZoneGeometry, point: LatLon): boolean {
  return compileGeometry(geometry).contains(point);
}

/**
 * What a move between two consecutive positions did: `entered` from outside to inside, `exited`
 * the other way. Only the two positions count: a path through a zone between them is not seen.
 */
export function crossing(geometry: ZoneGeometry, from: LatLon, to: LatLon): Crossing {
  const before = contains(geometry, from);
  const now = contains(geometry, to);
  return before === now ? 'none' : now ? 'entered' : 'exited';
}
