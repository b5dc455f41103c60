// Shortest sea route between two points over the marnet graph.
//
// Each endpoint joins the network by a straight connector to a point of an edge. Not only the
// nearest edge is offered but every edge whose nearest point is at most SNAP_MARGIN_NM further (see
// snap.ts for why the nearest alone goes wrong), and the search picks the pair of joining points: it
// starts from all of the origin's at once, each seeding both ends of its edge with its connector's
// cost plus the stretch of edge to that end, and finishes through whichever of the destination's
// joining points is cheapest. The route's snap is the pair it chose. A connector is a straight line
// that knows nothing of the coast, so its cost adds a heavy charge for the land it crosses (land.ts,
// LAND_PENALTY), and the route's snap says when the chosen one still crosses land.
//
// The search is A* with the chord to the destination itself as heuristic. Every way on from a node
// (edges, which are great-circle arcs, then a connector costing at least its great-circle length) is
// at least as long as that chord, so the heuristic is admissible whichever joining point wins, and it
// is consistent (the chord obeys the triangle inequality and is never longer than an edge's arc); it
// lets the search skip most of the world for regional routes.
//
// Named passages (passages.ts) can be avoided, and a vessel's dimensions must fit the ones it sails
// through. The search first runs with every passage open but the avoided ones; if its route goes
// through passages the vessel does not fit, those are closed and the search runs again, until the
// route fits or no route is left. The route that fits is the shortest of those that fit (each
// search is the shortest over a network still holding every fitting route), usually found in one or
// two searches, and the passages closed on the way say why it is longer than the shortest one (or
// why there is none).
import { MinHeap } from './heap.ts';
import { distanceNm, EARTH_RADIUS_NM, isValidLatLon, toVector } from './geo.ts';
import type { LatLon, Position } from './geo.ts';
import { loadSeaGraph } from './graph.ts';
import { landBeyondNm, landRunsAlong, loadLand } from './land.ts';
import type { SeaGraph } from './graph.ts';
import { limitsExceeded, passageById, type LimitExceeded, type VesselDimensions } from './passages.ts';
import { SNAP_MARGIN_NM, snapCandidates, snapToEdge } from './snap.ts';
import type { EdgeSnap } from './snap.ts';

export interface RouteOptions {
  /** Ids of passages not to use (passages.ts). */
  avoid?: readonly string[];
  /** The vessel's dimensions; a dimension left out fits every passage. */
  vessel?: VesselDimensions;
}

/** A passage the vessel does not fit that the shortest route would have used, and why. */
export interface RefusedPassage {
  id: string;
  exceeded: LimitExceeded[];
}

export interface RouteSnap {
  /** Where the endpoint joins the network. */
  lat: number;
  lon: number;
  /** Length of the connector from the given point to the network. */
  distance_nm: number;
}

export interface RouteEnd extends RouteSnap {
  /** True when every connector on offer crossed land, so the route uses the one crossing least. */
  connector_crosses_land: boolean;
}

export interface RouteLeg {
  kind: 'origin_connector' | 'sea' | 'destination_connector';
  from: Position;
  to: Position;
  distance_nm: number;
}

export type RouteGeometry =
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] };

export interface SeaRoute {
  ok: true;
  distance_nm: number;
  /** [lon, lat] from the origin to the destination, both included; lon in [-180, 180]. */
  path: Position[];
  /** Distance from the origin to each path vertex; the last entry is distance_nm. */
  cumulative_nm: number[];
  /** The path as GeoJSON, split into a MultiLineString where it crosses the antimeridian. */
  geojson: RouteGeometry;
  /** Always three: origin connector, sea passage, destination connector (connectors may be 0 nm). */
  legs: RouteLeg[];
  snap: { from: RouteEnd; to: RouteEnd };
  crosses_antimeridian: boolean;
  /** Ids of the named passages the route sails through, in order. */
  passages: string[];
  /** Passages the vessel does not fit that a shorter route would have used. */
  refused: RefusedPassage[];
  /** Graph nodes the searches settled (a cost diagnostic). */
  settled_nodes: number;
}

/** `blocked`: a route exists, but only through passages the vessel does not fit (`refused`). */
export type RouteErrorCode = 'invalid_from' | 'invalid_to' | 'network_unavailable' | 'no_route' | 'blocked';
export interface RouteError {
  ok: false;
  error: RouteErrorCode;
  message: string;
  /** For `blocked`: the passages the vessel does not fit that every route needs one of. */
  refused?: RefusedPassage[];
}
export type RouteResult = SeaRoute | RouteError;

/**
 * Land a connector may cross at each end without counting, besides how far its endpoint lies
 * ashore (see joiningPoints): coastlines are drawn to a few hundred metres, and marnet lanes run up
 * rivers and canals that the land polygons fill in.
 */
export const CONNECTOR_LAND_ALLOWANCE_NM = 2;

/**
 * What a nm of land along a connector (past the allowance) adds to its search cost. Heavy enough
 * that cutting across a headland or a peninsula costs far more than sailing round (Istria is 29 nm
 * of land, 580 nm charged, against a 110 nm passage round it), and a charge rather than a ban so that a point well inland, whose every connector
 * crosses land, still joins the network, by the connector crossing least of it.
 */
export const LAND_PENALTY = 20;

/** Land along a connector, past the allowance, below which it is clear (a coastline grazed). */
const CONNECTOR_LAND_TOLERANCE_NM = 0.1;

/**
 * What a connector costs in the search per nm of its length (distances reported are true lengths).
 * Land is charged separately (LAND_PENALTY), so a clear connector may cost little more than sailing
 * the network; a little more, because a straight line off the charted lanes is the less certain
 * passage, and so that of two nearly equal routes the one joining nearer wins. (Routing the
 * simulator's ports against each other, at 5 and without the land charge 54 % of the routes joined
 * by a connector crossing land, 13 % at 1.2 with it, all from ports every connector of which does.)
 */
export const CONNECTOR_WEIGHT = 1.2;

/** Consecutive path points closer than this are one point. */
const SAME_POINT_NM = 1e-6;

function fail(error: RouteErrorCode, message: string): RouteError {
  return { ok: false, error, message };
}

/** The shortest sea route from `from` to `to` that avoids and fits what `options` say. Never throws. */
export function routeBetween(from: LatLon, to: LatLon, options: RouteOptions = {}): RouteResult {
  // Checked here too so that bad input never triggers the first (lazy) graph load.
  if (!isValidLatLon(from)) return fail('invalid_from', 'from needs finite lat in [-90, 90] and lon in [-180, 180]');
  if (!isValidLatLon(to)) return fail('invalid_to', 'to needs finite lat in [-90, 90] and lon in [-180, 180]');
  const loaded = loadSeaGraph();
  if (!loaded.ok) return fail('network_unavailable', loaded.message);
  return routeOnGraph(loaded.graph, from, to, options);
}

/** routeBetween on a given graph (e.g. one built from other GeoJSON). Never throws. */
export function routeOnGraph(graph: SeaGraph, from: LatLon, to: LatLon, options: RouteOptions = {}): RouteResult {
  if (!isValidLatLon(from)) return fail('invalid_from', 'from needs finite lat in [-90, 90] and lon in [-180, 180]');
  if (!isValidLatLon(to)) return fail('invalid_to', 'to needs finite lat in [-90, 90] and lon in [-180, 180]');
  const closed = new Uint8Array(graph.passageIds.length);
  const avoided = new Set(options.avoid ?? []);
  graph.passageIds.forEach((id, p) => (closed[p] = avoided.has(id) ? 1 : 0));
  const vessel = options.vessel ?? {};
  const refused: RefusedPassage[] = [];
  let settled = 0;
  for (;;) {
    const result = fittingRoute(graph, from, to, closed);
    if (!result.ok) {
      if (result.error !== 'no_route' || refused.length === 0) return result;
      const named = refused.map((passage) => passageById(passage.id)?.name ?? passage.id).join(', ');
      return { ok: false, error: 'blocked', message: `every sea route between the two points goes through a passage the vessel does not fit (${named})`, refused };
    }
    settled += result.settled_nodes;
    const unfit = result.passages.flatMap((id) => {
      const passage = passageById(id);
      const exceeded = passage === undefined ? [] : limitsExceeded(passage, vessel);
      return exceeded.length === 0 ? [] : [{ id, exceeded }];
    });
    if (unfit.length === 0) return { ...result, refused, settled_nodes: settled };
    for (const passage of unfit) {
      closed[graph.passageIds.indexOf(passage.id)] = 1;
      refused.push(passage);
    }
  }
}

/** The shortest route over the graph without the edges of the closed passages. */
function fittingRoute(graph: SeaGraph, from: LatLon, to: LatLon, closedPassages: Uint8Array): RouteResult {
  const open = (edge: number): boolean => {
    const passage = graph.edgePassage[edge]!;
    return passage < 0 || closedPassages[passage] === 0;
  };
  const starts = joiningPoints(graph, from, open);
  const ends = joiningPoints(graph, to, open);
  if (graph.edgeCount === 0) return fail('network_unavailable', 'the sea network has no edges');
  if (starts.length === 0 || ends.length === 0) return fail('no_route', 'every lane near an end lies in a closed passage');
  const search = searchBetween(graph, starts, ends, to, open);
  if (search === null) return fail('no_route', 'no sea path joins the two points');
  const start = search.start.snap;
  const end = search.end.snap;

  const originPoint: Position = [from.lon, from.lat];
  const destination: Position = [to.lon, to.lat];
  const path: Position[] = [];
  const add = (point: Position): void => {
    const last = path[path.length - 1];
    // Nodes on the antimeridian take the side of the point before them, avoiding a needless split.
    if (last !== undefined && Math.abs(point[0]) === 180 && last[0] !== 0) point = [Math.sign(last[0]) * 180, point[1]];
    if (last === undefined || distanceNm(last, point) > SAME_POINT_NM) path.push(point);
  };
  add(originPoint);
  add(start.position);
  for (const node of search.nodes) add([graph.lon[node]!, graph.lat[node]!]);
  add(end.position);
  add(destination);

  const cumulative_nm: number[] = [0];
  for (let i = 1; i < path.length; i++) cumulative_nm.push(cumulative_nm[i - 1]! + distanceNm(path[i - 1]!, path[i]!));
  const distance_nm = cumulative_nm[cumulative_nm.length - 1]!;
  const geojson = splitAtAntimeridian(path);
  return {
    ok: true,
    distance_nm,
    path,
    cumulative_nm,
    geojson,
    legs: [
      { kind: 'origin_connector', from: originPoint, to: start.position, distance_nm: start.distance_nm },
      {
        kind: 'sea',
        from: start.position,
        to: end.position,
        distance_nm: Math.max(0, distance_nm - start.distance_nm - end.distance_nm),
      },
      { kind: 'destination_connector', from: end.position, to: destination, distance_nm: end.distance_nm },
    ],
    snap: {
      from: { lon: start.position[0], lat: start.position[1], distance_nm: start.distance_nm, connector_crosses_land: search.start.landNm > CONNECTOR_LAND_TOLERANCE_NM },
      to: { lon: end.position[0], lat: end.position[1], distance_nm: end.distance_nm, connector_crosses_land: search.end.landNm > CONNECTOR_LAND_TOLERANCE_NM },
    },
    crosses_antimeridian: geojson.type === 'MultiLineString',
    passages: passagesAlong(graph, search.edges),
    refused: [],
    settled_nodes: search.settled,
  };
}

/** The named passages of the edges, in order, each once per time it is entered. */
function passagesAlong(graph: SeaGraph, edges: readonly number[]): string[] {
  const passages: string[] = [];
  let previous = -1;
  for (const edge of edges) {
    const passage = graph.edgePassage[edge]!;
    if (passage >= 0 && passage !== previous) passages.push(graph.passageIds[passage]!);
    previous = passage;
  }
  return passages;
}

/**
 * Where a point would join the sea network, without routing: the nearest point of the nearest edge.
 * A route may join a little further away when that makes it shorter (see snap.ts). Never throws.
 */
export function snapToNetwork(point: LatLon): { ok: true; snap: RouteSnap } | RouteError {
  if (!isValidLatLon(point)) return fail('invalid_from', 'point needs finite lat in [-90, 90] and lon in [-180, 180]');
  const loaded = loadSeaGraph();
  if (!loaded.ok) return fail('network_unavailable', loaded.message);
  const snap = snapToEdge(loaded.graph, point);
  if (snap === null) return fail('network_unavailable', 'the sea network has no edges');
  return { ok: true, snap: { lon: snap.position[0], lat: snap.position[1], distance_nm: snap.distance_nm } };
}

/** A place the search may join the network at, with what its connector costs. */
interface JoiningPoint {
  snap: EdgeSnap;
  /** The connector's search cost: CONNECTOR_WEIGHT per nm plus LAND_PENALTY per nm of land. */
  cost: number;
  /** Land the connector crosses, past the allowance at each end. */
  landNm: number;
}

/**
 * Every snap candidate of one endpoint, costed. The land a connector crosses is counted past the
 * stretch that the endpoint itself lies ashore in: a port's position is often inland (a city
 * centre, a berth up a river the polygons fill in), so all its connectors start on land. How far
 * ashore it lies is taken as its shortest way to water along any of its connectors (the whole
 * connector when one never leaves the land), and that plus CONNECTOR_LAND_ALLOWANCE_NM is forgiven
 * at the endpoint's end of every connector; only the allowance at the lane's end, where marnet runs
 * up rivers and canals. So Hamburg, ashore by the Elbe, may join the Elbe lane, but not the Weser
 * lane across the marshes. Without the land data (world-atlas missing) no connector crosses land.
 */
function joiningPoints(graph: SeaGraph, point: LatLon, open: (edge: number) => boolean): JoiningPoint[] {
  const candidates = snapCandidates(graph, point, SNAP_MARGIN_NM, open);
  const loaded = loadLand();
  if (!loaded.ok) return candidates.map((snap) => ({ snap, cost: CONNECTOR_WEIGHT * snap.distance_nm, landNm: 0 }));
  const here: Position = [point.lon, point.lat];
  const runs = candidates.map((snap) => landRunsAlong(loaded.land, here, snap.position));
  const ashoreNm = Math.min(...runs.map((connector) => (connector[0]?.[0] === 0 ? connector[0][1] : 0)));
  return candidates.map((snap, i) => {
    const landNm = landBeyondNm(runs[i]!, distanceNm(here, snap.position), ashoreNm + CONNECTOR_LAND_ALLOWANCE_NM, CONNECTOR_LAND_ALLOWANCE_NM);
    return { snap, cost: CONNECTOR_WEIGHT * snap.distance_nm + LAND_PENALTY * landNm, landNm };
  });
}

interface SearchResult {
  /** The joining points the cheapest route uses. */
  start: JoiningPoint;
  end: JoiningPoint;
  /** Graph nodes from the start's edge to the end's edge (empty when both are on one edge). */
  nodes: number[];
  /** The edges the route sails along, in order, partly sailed ones at the ends included. */
  edges: number[];
  settled: number;
}

function searchBetween(graph: SeaGraph, starts: readonly JoiningPoint[], ends: readonly JoiningPoint[], destination: LatLon, open: (edge: number) => boolean): SearchResult | null {
  const n = graph.nodeCount;
  const cost = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const previous = new Int32Array(n).fill(-1);
  /** The edge a node was reached by. */
  const previousEdge = new Int32Array(n).fill(-1);
  /** Which start a node's initial cost came from (read at the root of the chosen path). */
  const seededBy = new Int32Array(n).fill(-1);
  /** Cheapest way on from a node to the destination through one of the ends, and which end. */
  const finish = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const finishBy = new Int32Array(n).fill(-1);
  const settled = new Uint8Array(n);
  const heap = new MinHeap(256);
  const { vec, offsets, targets, weights, slotEdge, edgeA, edgeB, edgeLength } = graph;
  const [tx, ty, tz] = toVector(destination.lon, destination.lat);
  const heuristic = (node: number): number => {
    const o = node * 3;
    return EARTH_RADIUS_NM * Math.hypot(vec[o]! - tx, vec[o + 1]! - ty, vec[o + 2]! - tz);
  };

  let best = Number.POSITIVE_INFINITY;
  let bestStart = -1;
  let bestEnd = -1;
  let bestVia = -1;

  // A start and an end on one edge: sailing along it directly is a candidate like any other.
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i]!;
    for (let j = 0; j < ends.length; j++) {
      const e = ends[j]!;
      if (s.snap.edge !== e.snap.edge) continue;
      const value = s.cost + e.cost + Math.abs(s.snap.fraction - e.snap.fraction) * edgeLength[s.snap.edge]!;
      if (value < best) {
        best = value;
        bestStart = i;
        bestEnd = j;
      }
    }
  }

  const seed = (node: number, value: number, start: number): void => {
    if (value < cost[node]!) {
      cost[node] = value;
      seededBy[node] = start;
      heap.push(value + heuristic(node), node);
    }
  };
  const offerFinish = (node: number, value: number, end: number): void => {
    if (value < finish[node]!) {
      finish[node] = value;
      finishBy[node] = end;
    }
  };
  for (let i = 0; i < starts.length; i++) {
    const { snap, cost: connector } = starts[i]!;
    seed(edgeA[snap.edge]!, connector + snap.fraction * edgeLength[snap.edge]!, i);
    seed(edgeB[snap.edge]!, connector + (1 - snap.fraction) * edgeLength[snap.edge]!, i);
  }
  for (let j = 0; j < ends.length; j++) {
    const { snap, cost: connector } = ends[j]!;
    offerFinish(edgeA[snap.edge]!, connector + snap.fraction * edgeLength[snap.edge]!, j);
    offerFinish(edgeB[snap.edge]!, connector + (1 - snap.fraction) * edgeLength[snap.edge]!, j);
  }

  let settledCount = 0;
  while (heap.size > 0 && heap.peekPriority() < best) {
    const node = heap.pop();
    if (settled[node]) continue;
    settled[node] = 1;
    settledCount++;
    const g = cost[node]!;
    if (g + finish[node]! < best) {
      best = g + finish[node]!;
      bestEnd = finishBy[node]!;
      bestVia = node;
    }
    for (let k = offsets[node]!; k < offsets[node + 1]!; k++) {
      const next = targets[k]!;
      if (settled[next] || !open(slotEdge[k]!)) continue;
      const value = g + weights[k]!;
      if (value < cost[next]!) {
        cost[next] = value;
        previous[next] = node;
        previousEdge[next] = slotEdge[k]!;
        heap.push(value + heuristic(next), next);
      }
    }
  }
  if (best === Number.POSITIVE_INFINITY) return null;
  const nodes: number[] = [];
  const edges: number[] = [];
  if (bestVia === -1) {
    edges.push(starts[bestStart]!.snap.edge);
  } else {
    for (let node = bestVia; node !== -1; node = previous[node]!) nodes.push(node);
    nodes.reverse();
    // The root's cost was never improved by an edge, so it is still the one its start seeded.
    bestStart = seededBy[nodes[0]!]!;
    const root = nodes[0]!;
    const first = starts[bestStart]!.snap;
    if (sailedToward(first, root, edgeA, edgeLength) > 0) edges.push(first.edge);
    for (const node of nodes.slice(1)) edges.push(previousEdge[node]!);
    const last = ends[bestEnd]!.snap;
    if (sailedToward(last, bestVia, edgeA, edgeLength) > 0) edges.push(last.edge);
  }
  return { start: starts[bestStart]!, end: ends[bestEnd]!, nodes, edges, settled: settledCount };
}

/** How far along its edge a joining point lies from the edge's end `node`. */
function sailedToward(snap: EdgeSnap, node: number, edgeA: Int32Array, edgeLength: Float64Array): number {
  const share = node === edgeA[snap.edge] ? snap.fraction : 1 - snap.fraction;
  return share * edgeLength[snap.edge]!;
}

/**
 * Splits a path where consecutive points are more than 180 degrees of longitude apart (the short way
 * crosses the antimeridian), ending one line at ±180 and starting the next at ∓180.
 */
export function splitAtAntimeridian(path: readonly Position[]): RouteGeometry {
  const lines: Position[][] = [];
  let current: Position[] = [];
  const push = (line: Position[], point: Position): void => {
    const last = line[line.length - 1];
    if (last === undefined || last[0] !== point[0] || last[1] !== point[1]) line.push(point);
  };
  for (let i = 0; i < path.length; i++) {
    const point = path[i]!;
    const previousPoint = path[i - 1];
    if (previousPoint !== undefined && Math.abs(point[0] - previousPoint[0]) > 180) {
      // Unwrap the far end next to the near one, then find where the segment meets the meridian.
      const edge = previousPoint[0] > 0 ? 180 : -180;
      const unwrapped = point[0] + (edge > 0 ? 360 : -360);
      const span = unwrapped - previousPoint[0];
      const t = span === 0 ? 0 : (edge - previousPoint[0]) / span;
      const crossingLat = previousPoint[1] + t * (point[1] - previousPoint[1]);
      push(current, [edge, crossingLat]);
      if (current.length > 1) lines.push(current);
      current = [[-edge, crossingLat]];
    }
    push(current, point);
  }
  if (current.length > 1) lines.push(current);
  // A zero-length route is still a valid LineString: one point repeated.
  else if (lines.length === 0) lines.push(current.length === 1 ? [current[0]!, current[0]!] : current);
  return lines.length === 1 ? { type: 'LineString', coordinates: lines[0]! } : { type: 'MultiLineString', coordinates: lines };
}
