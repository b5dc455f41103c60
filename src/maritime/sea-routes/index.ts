// Public surface of the sea-routing module.
export { routeBetween, routeOnGraph, snapToNetwork, splitAtAntimeridian } from './route.ts';
export type { RefusedPassage, RouteError, RouteErrorCode, RouteGeometry, RouteLeg, RouteEnd, RouteOptions, RouteResult, RouteSnap, SeaRoute } from './route.ts';
export { passageById } from './passages.ts';
export type { VesselDimensions } from './passages.ts';
export { buildSeaGraph, loadSeaGraph, MERGE_TOLERANCE_DEG } from './graph.ts';
export type { SeaGraph, SeaGraphErrorCode, SeaGraphResult, SeaGraphStats } from './graph.ts';
export {
  destinationPoint,
  distanceNm,
  distanceToArcNm,
  distanceToPathNm,
  EARTH_RADIUS_NM,
  haversineNm,
  initialBearingDeg,
  interpolateGreatCircle,
  isValidLatLon,
  normalizeLon,
} from './geo.ts';
export type { LatLon, Position } from './geo.ts';
export { isOnLand, landBeyondNm, landRunsAlong, loadLand } from './land.ts';
export type { LandIndex, LandResult } from './land.ts';
export { MinHeap } from './heap.ts';
export { pointAlong } from './along.ts';
export type { PointAlong } from './along.ts';
