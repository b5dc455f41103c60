// Joins an arbitrary point to the sea-lane graph at the nearest point of an edge (not the nearest
// vertex: marnet edges in open ocean are hundreds of miles long, and a vertex snap would add a long
// detour). The search is exact on the sphere and scans all edges with a few multiplications each
// (~8k edges, well under a millisecond), which needs no spatial index.
//
// The nearest edge alone is not a safe place to join: marnet has branches and port approaches that
// run close beside the main lanes but meet them only far away. In the English Channel a lane from
// off Cape Finisterre runs up the middle to the Dover Strait, where it ends a few miles short of the
// other lanes; it meets the network only off Finisterre and north-west of the Channel Islands (a
// link to the Brest approaches), so a point beside it would sail back west round Ushant to go east. A route
// therefore gets every edge whose nearest point is at most SNAP_MARGIN_NM further than the nearest
// one, and the route search picks the joining point (see route.ts).
import { EARTH_RADIUS_NM, fromVector, haversineNm, toVector } from './geo.ts';
import type { LatLon, Position } from './geo.ts';
import type { SeaGraph } from './graph.ts';

export interface EdgeSnap {
  edge: number;
  /** Fraction of the edge from edgeA to edgeB where the point joins it. */
  fraction: number;
  /** The joining point. */
  position: Position;
  /** Great-circle distance from the given point to the joining point. */
  distance_nm: number;
}

/**
 * How much longer than the nearest connector a route's connector may be. Wide enough to reach the
 * main lane past a nearby branch or port approach (in marnet they can lie 20 nm and more apart);
 * the route search, which charges connectors by length and heavily for any land they cross
 * (CONNECTOR_WEIGHT and LAND_PENALTY in route.ts), decides whether the longer connector is worth
 * it. The bound keeps the candidates few, and so the land tests cheap.
 */
export const SNAP_MARGIN_NM = 30;

const NO_EDGE = -2;
const INTERIOR = 0;
const ENDPOINT_A = 1;
const ENDPOINT_B = 2;

/** Nearest point of the graph's edges to `point`; null only for a graph without edges. */
export function snapToEdge(graph: SeaGraph, point: LatLon): EdgeSnap | null {
  return snapCandidates(graph, point, 0)[0] ?? null;
}

/**
 * The nearest point of every edge whose nearest point is at most `marginNm` further from `point`
 * than the nearest edge's, nearest first (ties by edge index), among the edges `open` lets through.
 * Empty only when no edge is left.
 */
export function snapCandidates(graph: SeaGraph, point: LatLon, marginNm: number, open: (edge: number) => boolean = () => true): EdgeSnap[] {
  const [px, py, pz] = toVector(point.lon, point.lat);
  const { edgeFrame: frame, edgeA, edgeB, vec } = graph;
  // Per edge: cosine of the angle to its nearest point (larger is nearer) and where that point is.
  const edgeCos = new Float64Array(graph.edgeCount).fill(NO_EDGE);
  const edgeKind = new Uint8Array(graph.edgeCount);
  let bestCos = NO_EDGE;
  for (let e = 0; e < graph.edgeCount; e++) {
    if (!open(e)) continue;
    const o = e * 9;
    const nx = frame[o]!;
    const ny = frame[o + 1]!;
    const nz = frame[o + 2]!;
    // The foot of the perpendicular is on the arc when p lies on the b side of a and the a side of b;
    // its angular distance is then asin(|p . n|), compared here through cos = sqrt(1 - (p . n)^2).
    const sideA = px * frame[o + 3]! + py * frame[o + 4]! + pz * frame[o + 5]!;
    const sideB = px * frame[o + 6]! + py * frame[o + 7]! + pz * frame[o + 8]!;
    let cos: number;
    let kind: number;
    if (sideA >= 0 && sideB >= 0 && (nx !== 0 || ny !== 0 || nz !== 0)) {
      const off = px * nx + py * ny + pz * nz;
      cos = Math.sqrt(Math.max(0, 1 - off * off));
      kind = INTERIOR;
    } else {
      const a = edgeA[e]! * 3;
      const b = edgeB[e]! * 3;
      const cosA = px * vec[a]! + py * vec[a + 1]! + pz * vec[a + 2]!;
      const cosB = px * vec[b]! + py * vec[b + 1]! + pz * vec[b + 2]!;
      cos = cosA >= cosB ? cosA : cosB;
      kind = cosA >= cosB ? ENDPOINT_A : ENDPOINT_B;
    }
    edgeCos[e] = cos;
    edgeKind[e] = kind;
    if (cos > bestCos) bestCos = cos;
  }
  if (bestCos === NO_EDGE) return [];

  // An angle grown by the margin, as a cosine; never above the best itself, whatever the rounding.
  const widest = Math.min(Math.PI, Math.acos(Math.min(1, bestCos)) + Math.max(0, marginNm) / EARTH_RADIUS_NM);
  const threshold = Math.min(bestCos, Math.cos(widest));
  const candidates: EdgeSnap[] = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    if (edgeCos[e]! >= threshold) candidates.push(joiningPoint(graph, e, edgeKind[e]!, point, px, py, pz));
  }
  candidates.sort((x, y) => x.distance_nm - y.distance_nm || x.edge - y.edge);
  return candidates;
}

/** The EdgeSnap of edge e, whose nearest point to p (unit vector px, py, pz) is of the given kind. */
function joiningPoint(graph: SeaGraph, e: number, kind: number, point: LatLon, px: number, py: number, pz: number): EdgeSnap {
  const a = graph.edgeA[e]!;
  const b = graph.edgeB[e]!;
  let position: Position;
  let fraction: number;
  if (kind === ENDPOINT_A) {
    position = [graph.lon[a]!, graph.lat[a]!];
    fraction = 0;
  } else if (kind === ENDPOINT_B) {
    position = [graph.lon[b]!, graph.lat[b]!];
    fraction = 1;
  } else {
    const frame = graph.edgeFrame;
    const o = e * 9;
    const off = px * frame[o]! + py * frame[o + 1]! + pz * frame[o + 2]!;
    position = fromVector(px - off * frame[o]!, py - off * frame[o + 1]!, pz - off * frame[o + 2]!);
    const length = graph.edgeLength[e]!;
    const fromA = haversineNm(graph.lat[a]!, graph.lon[a]!, position[1], position[0]);
    fraction = length > 0 ? Math.min(1, Math.max(0, fromA / length)) : 0;
  }
  return {
    edge: e,
    fraction,
    position,
    // Haversine rather than acos(cos), which loses precision for points on the lane.
    distance_nm: haversineNm(point.lat, point.lon, position[1], position[0]),
  };
}
