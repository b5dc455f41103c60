// Land, for telling whether a straight connector between a point and the sea-lane network crosses
// it. The land is Natural Earth's 1:10m land polygons (world-atlas land-10m.json, TopoJSON): the
// 1:50m set is six times smaller and loads in a sixth of the time, but it is too coarse for the
// narrow headlands, spits and islands beside ports that connectors must not cut (a few km of its
// coastline collapse into one edge). The coastline edges are bucketed by the 1-degree cells their
// bounding boxes touch, so a short connector looks at a handful of cells.
//
// Geometry is planar in longitude and latitude, which is how the polygons are drawn; a connector
// is cut into pieces of at most PIECE_NM along its great circle first, so that the planar pieces
// follow it closely. Polygons crossing the antimeridian are split there in the data, so each ring is
// planar in [-180, 180]; a connector crossing the antimeridian is unwrapped and each cell it touches
// is shifted by a whole turn to meet the edges stored there.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { transform } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { distanceNm, interpolateGreatCircle } from './geo.ts';
import type { Position } from './geo.ts';

export interface LandIndex {
  /** Coastline edges: edge i runs from (x1[i], y1[i]) to (x2[i], y2[i]), lon and lat in degrees. */
  edgeCount: number;
  x1: Float64Array;
  y1: Float64Array;
  x2: Float64Array;
  y2: Float64Array;
  /** Edges touching cell c: cellEdges[cellStart[c] .. cellStart[c + 1]). Cell = row * 360 + column. */
  cellStart: Int32Array;
  cellEdges: Int32Array;
  stats: { rings: number; edges: number; buildMs: number };
}

export type LandResult = { ok: true; land: LandIndex } | { ok: false; message: string };

const LAND_PACKAGE_PATH = 'world-atlas/land-10m.json';
const COLUMNS = 360;
const ROWS = 180;
/** Longest planar piece of a connector (its great circle sags off the planar chord by < 0.01 nm). */
const PIECE_NM = 10;

let cached: LandResult | undefined;

/**
 * The land index, read and built on first use (or handed over by `keepLand`) and then kept for the
 * life of the process.
 */
export function loadLand(): LandResult {
  if (cached !== undefined) return cached;
  try {
    const require = createRequire(import.meta.url);
    const topology = JSON.parse(readFileSync(require.resolve(LAND_PACKAGE_PATH), 'utf8')) as Topology;
    const land = topology.objects.land;
    if (land === undefined) throw new Error('no "land" object');
    cached = { ok: true, land: landFromTopology(topology, land as GeometryCollection) };
  } catch (error) {
    cached = { ok: false, message: `cannot read ${LAND_PACKAGE_PATH}: ${String(error)}` };
  }
  return cached;
}

/** Whether this thread has the land index (built or handed over). */
export const landLoaded = (): boolean => cached !== undefined;

/** Keeps a land index built on another thread (sea-routes/loading.ts) as the one `loadLand` answers, unless it has one. */
export function keepLand(result: LandResult): LandResult {
  cached ??= result;
  return cached;
}

const column = (lon: number): number => Math.min(COLUMNS - 1, Math.max(0, Math.floor(lon + 180)));
const row = (lat: number): number => Math.min(ROWS - 1, Math.max(0, Math.floor(lat + 90)));

/** Calls `visit` with every coastline edge, the same edges in the same order each time. */
type EdgeSource = (visit: (ax: number, ay: number, bx: number, by: number) => void) => void;

/** Indexes closed rings of [lon, lat] positions (first point repeated last, as in GeoJSON). */
export function buildLandIndex(rings: readonly (readonly Position[])[]): LandIndex {
  return indexEdges(rings.length, (visit) => {
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i++) visit(ring[i - 1]![0], ring[i - 1]![1], ring[i]![0], ring[i]![1]);
    }
  });
}

/**
 * The land polygons' rings read straight from the topology's arcs, as GeoJSON would draw them (each
 * arc's positions decoded once by topojson-client's transform; a ring's arcs joined end to start,
 * a reversed one read backwards; a ring of fewer than four positions closed once more), without
 * making the GeoJSON: with 1:10m land as GeoJSON the heap peaked at 147 MB while the index was
 * built, without it at 61 MB, for typed arrays of 13 MB.
 */
function landFromTopology(topology: Topology, land: GeometryCollection): LandIndex {
  const decode = transform(topology.transform ?? null);
  const arcStart = new Int32Array(topology.arcs.length + 1);
  topology.arcs.forEach((arc, a) => (arcStart[a + 1] = arcStart[a]! + arc.length));
  const arcLon = new Float64Array(arcStart[topology.arcs.length]!);
  const arcLat = new Float64Array(arcLon.length);
  topology.arcs.forEach((arc, a) => arc.forEach((point, i) => {
    const [lon, lat] = decode(point, i > 0);
    arcLon[arcStart[a]! + i] = lon!;
    arcLat[arcStart[a]! + i] = lat!;
  }));
  const rings: number[][] = [];
  for (const geometry of land.geometries) {
    if (geometry.type === 'Polygon') rings.push(...geometry.arcs);
    else if (geometry.type === 'MultiPolygon') for (const polygon of geometry.arcs) rings.push(...polygon);
  }
  return indexEdges(rings.length, (visit) => {
    for (const ring of rings) {
      let first = -1;
      let previous = -1;
      let positions = 0;
      const step = (point: number) => {
        if (previous >= 0) visit(arcLon[previous]!, arcLat[previous]!, arcLon[point]!, arcLat[point]!);
        if (first < 0) first = point;
        previous = point;
        positions++;
      };
      ring.forEach((reference, k) => {
        const reversed = reference < 0;
        const from = arcStart[reversed ? ~reference : reference]!;
        const to = arcStart[(reversed ? ~reference : reference) + 1]!;
        // The first position of every arc after the first is the last of the one before it.
        const skip = k > 0 ? 1 : 0;
        if (reversed) for (let p = to - 1 - skip; p >= from; p--) step(p);
        else for (let p = from + skip; p < to; p++) step(p);
      });
      if (positions > 0 && positions < 4) step(first);
    }
  });
}

/** The edges `edges` gives, in typed arrays and bucketed by cell; `rings` is only counted in `stats`. */
function indexEdges(rings: number, edges: EdgeSource): LandIndex {
  const started = performance.now();
  // Rings are split at the antimeridian; an edge spanning half the world would be an artefact.
  const kept = (ax: number, ay: number, bx: number, by: number) => !((ax === bx && ay === by) || Math.abs(bx - ax) > 180);
  let edgeCount = 0;
  edges((ax, ay, bx, by) => {
    if (kept(ax, ay, bx, by)) edgeCount++;
  });
  const x1 = new Float64Array(edgeCount);
  const y1 = new Float64Array(edgeCount);
  const x2 = new Float64Array(edgeCount);
  const y2 = new Float64Array(edgeCount);
  let filled = 0;
  edges((ax, ay, bx, by) => {
    if (!kept(ax, ay, bx, by)) return;
    x1[filled] = ax;
    y1[filled] = ay;
    x2[filled] = bx;
    y2[filled] = by;
    filled++;
  });
  // Two passes over the cells each edge's bounding box touches: count, then fill.
  const cellStart = new Int32Array(COLUMNS * ROWS + 1);
  const eachCell = (e: number, visit: (cell: number) => void): void => {
    const c0 = column(Math.min(x1[e]!, x2[e]!));
    const c1 = column(Math.max(x1[e]!, x2[e]!));
    const r0 = row(Math.min(y1[e]!, y2[e]!));
    const r1 = row(Math.max(y1[e]!, y2[e]!));
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(r * COLUMNS + c);
  };
  for (let e = 0; e < edgeCount; e++) eachCell(e, (cell) => cellStart[cell + 1]!++);
  for (let cell = 0; cell < COLUMNS * ROWS; cell++) cellStart[cell + 1]! += cellStart[cell]!;
  const cellEdges = new Int32Array(cellStart[COLUMNS * ROWS]!);
  const fill = cellStart.slice(0, COLUMNS * ROWS);
  for (let e = 0; e < edgeCount; e++) eachCell(e, (cell) => (cellEdges[fill[cell]!++] = e));
  return { edgeCount, x1, y1, x2, y2, cellStart, cellEdges, stats: { rings, edges: edgeCount, buildMs: performance.now() - started } };
}

/**
 * Whether a point is on land: the parity of coastline edges crossed by a ray due north. North,
 * because no land polygon holds the North Pole, while Antarctica's is closed along the South Pole.
 */
export function isOnLand(land: LandIndex, point: Position): boolean {
  const [lon, lat] = point;
  const { x1, y1, x2, y2, cellStart, cellEdges } = land;
  const c = column(lon);
  let inside = false;
  const firstRow = row(lat);
  for (let r = firstRow; r < ROWS; r++) {
    const cell = r * COLUMNS + c;
    for (let k = cellStart[cell]!; k < cellStart[cell + 1]!; k++) {
      const e = cellEdges[k]!;
      const ax = x1[e]!;
      const bx = x2[e]!;
      if (ax > lon === bx > lon) continue;
      const ay = y1[e]!;
      const by = y2[e]!;
      // An edge listed in several rows of the column counts once, in the lowest it shares with the ray.
      if (Math.max(row(Math.min(ay, by)), firstRow) !== r) continue;
      const crossing = ay + ((lon - ax) / (bx - ax)) * (by - ay);
      if (crossing > lat) inside = !inside;
    }
  }
  return inside;
}

/** The stretches of land along the segment from `from` to `to`, as [start, end] nm from `from`. */
export function landRunsAlong(land: LandIndex, from: Position, to: Position): [number, number][] {
  const length = distanceNm(from, to);
  if (length === 0) return [];
  const runs: [number, number][] = [];
  let onLand = isOnLand(land, from);
  let previous = 0;
  for (const stop of [...crossingsAlong(land, from, to, length), length]) {
    if (onLand && stop > previous) runs.push([previous, stop]);
    onLand = !onLand;
    previous = stop;
  }
  return runs;
}

/**
 * Nautical miles of land in `runs` (from landRunsAlong over a segment `length` nm long), not
 * counting up to `fromAllowanceNm` of the stretch touching the start nor `toAllowanceNm` of the one
 * touching the end.
 */
export function landBeyondNm(runs: readonly [number, number][], length: number, fromAllowanceNm: number, toAllowanceNm: number): number {
  let total = 0;
  for (const [start, end] of runs) {
    let run = end - start;
    if (start === 0) run -= fromAllowanceNm;
    if (end === length) run -= toAllowanceNm;
    total += Math.max(0, run);
  }
  return total;
}

/**
 * Per land index, the piece of a connector that last tested each edge: an edge in several cells of
 * a piece is tested once, with no set filled and emptied for every piece (which made most of a
 * route's garbage).
 */
type TestedEdges = { readonly pieceOf: Int32Array; piece: number };
const testedEdges = new WeakMap<LandIndex, TestedEdges>();

function testedEdgesOf(land: LandIndex): TestedEdges {
  let tested = testedEdges.get(land);
  if (tested === undefined) testedEdges.set(land, (tested = { pieceOf: new Int32Array(land.edgeCount), piece: 0 }));
  return tested;
}

/** A number no edge is marked with yet. */
function nextPiece(tested: TestedEdges): number {
  if (tested.piece === 0x7fffffff) {
    tested.pieceOf.fill(0);
    tested.piece = 0;
  }
  return ++tested.piece;
}

/** Distances from `from` at which the connector crosses a coastline edge, ascending. */
function crossingsAlong(land: LandIndex, from: Position, to: Position, length: number): number[] {
  const { x1, y1, x2, y2, cellStart, cellEdges } = land;
  const pieces = Math.max(1, Math.ceil(length / PIECE_NM));
  const pieceNm = length / pieces;
  const found: number[] = [];
  const tested = testedEdgesOf(land);
  const { pieceOf } = tested;
  let px = from[0];
  let py = from[1];
  for (let i = 1; i <= pieces; i++) {
    const next = i === pieces ? to : interpolateGreatCircle(from, to, i / pieces);
    // Unwrapped: the piece never jumps by more than half a turn, even across the antimeridian.
    let qx = next[0];
    while (qx - px > 180) qx -= 360;
    while (px - qx > 180) qx += 360;
    const qy = next[1];
    const piece = nextPiece(tested);
    for (let ci = Math.floor(Math.min(px, qx)); ci <= Math.floor(Math.max(px, qx)); ci++) {
      const wrapped = (((ci + 180) % COLUMNS) + COLUMNS) % COLUMNS;
      const shift = ci + 180 - wrapped;
      for (let r = row(Math.min(py, qy)); r <= row(Math.max(py, qy)); r++) {
        const cell = r * COLUMNS + wrapped;
        for (let k = cellStart[cell]!; k < cellStart[cell + 1]!; k++) {
          const e = cellEdges[k]!;
          if (pieceOf[e] === piece) continue;
          pieceOf[e] = piece;
          const t = segmentCrossing(px, py, qx, qy, x1[e]! + shift, y1[e]!, x2[e]! + shift, y2[e]!);
          if (t >= 0) found.push((i - 1 + t) * pieceNm);
        }
      }
    }
    px = qx;
    py = qy;
  }
  return found.sort((a, b) => a - b);
}

/**
 * Where segment p-q crosses edge a-b, as a fraction of p-q, or -1. Both are half-open (p and a
 * count, q and b do not), so a connector through a shared vertex, or pieces meeting on an edge,
 * cross once, not twice or never.
 */
export function segmentCrossing(px: number, py: number, qx: number, qy: number, ax: number, ay: number, bx: number, by: number): number {
  const rx = qx - px;
  const ry = qy - py;
  const sx = bx - ax;
  const sy = by - ay;
  const denominator = rx * sy - ry * sx;
  if (denominator === 0) return -1;
  const t = ((ax - px) * sy - (ay - py) * sx) / denominator;
  const u = ((ax - px) * ry - (ay - py) * rx) / denominator;
  return t >= 0 && t < 1 && u >= 0 && u < 1 ? t : -1;
}
