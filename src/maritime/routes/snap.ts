// Joins an arbitrary point to the sea-lane graph at the nearest point of the nearest edge (not the
// nearest vertex: marnet edges in open ocean are hundreds of miles long, and a vertex snap would add
// a long detour). The search is exact on the sphere and scans all edges with a few multiplications
// each (~8k edges, well under a millisecond), which needs no spatial index.
import { fromVector, haversineNm, toVector } from './geo.ts';
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

/** Nearest point of the graph's edges to `point`; null only for a graph without edges. */
export function snapToEdge(graph: SeaGraph, point: LatLon): EdgeSnap | null {
  const [px, py, pz] = toVector(point.lon, point.lat);
  const { edgeFrame: frame, edgeA, edgeB, vec } = graph;
  let bestCos = -2;
  let bestEdge = -1;
  let bestKind = 0; // 0: interior, 1: endpoint a, 2: endpoint b
  for (let e = 0; e < graph.edgeCount; e++) {
    const o = e * 9;
    const nx = frame[o]!;
    const ny = frame[o + 1]!;
    const nz = frame[o + 2]!;
    // The foot of the perpendicular is on the arc when p lies on the b side of a and the a side of b;
    // its angular distance is then asin(|p . n|), compared here through cos = sqrt(1 - (p . n)^2).
    const sideA = px * frame[o + 3]! + py * frame[o + 4]! + pz * frame[o + 5]!;
    const sideB = px * frame[o + 6]! + py * frame[o + 7]! + pz * frame[o + 8]!;
    if (sideA >= 0 && sideB >= 0 && (nx !== 0 || ny !== 0 || nz !== 0)) {
      const off = px * nx + py * ny + pz * nz;
      const cos = Math.sqrt(Math.max(0, 1 - off * off));
      if (cos > bestCos) {
        bestCos = cos;
        bestEdge = e;
        bestKind = 0;
      }
      continue;
    }
    const a = edgeA[e]! * 3;
    const b = edgeB[e]! * 3;
    const cosA = px * vec[a]! + py * vec[a + 1]! + pz * vec[a + 2]!;
    const cosB = px * vec[b]! + py * vec[b + 1]! + pz * vec[b + 2]!;
    if (cosA > bestCos) {
      bestCos = cosA;
      bestEdge = e;
      bestKind = 1;
    }
    if (cosB > bestCos) {
      bestCos = cosB;
      bestEdge = e;
      bestKind = 2;
    }
  }
  if (bestEdge < 0) return null;

  const a = edgeA[bestEdge]!;
  const b = edgeB[bestEdge]!;
  let position: Position;
  let fraction: number;
  if (bestKind === 1) {
    position = [graph.lon[a]!, graph.lat[a]!];
    fraction = 0;
  } else if (bestKind === 2) {
    position = [graph.lon[b]!, graph.lat[b]!];
    fraction = 1;
  } else {
    const o = bestEdge * 9;
    const off = px * frame[o]! + py * frame[o + 1]! + pz * frame[o + 2]!;
    position = fromVector(px - off * frame[o]!, py - off * frame[o + 1]!, pz - off * frame[o + 2]!);
    const length = graph.edgeLength[bestEdge]!;
    const fromA = haversineNm(graph.lat[a]!, graph.lon[a]!, position[1], position[0]);
    fraction = length > 0 ? Math.min(1, Math.max(0, fromA / length)) : 0;
  }
  return {
    edge: bestEdge,
    fraction,
    position,
    // Haversine rather than acos(bestCos), which loses precision for points on the lane.
    distance_nm: haversineNm(point.lat, point.lon, position[1], position[0]),
  };
}
