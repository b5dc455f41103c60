// Walking a route: the position and course at a given distance from its start.
import { distanceNm, initialBearingDeg, interpolateGreatCircle } from './geo.ts';
import type { Position } from './geo.ts';

export interface PointAlong {
  position: Position;
  /** True course (0..360) of the great circle at that position, towards the next vertex. */
  course: number;
  /** Segment the position is on: between path[segment] and path[segment + 1]. */
  segment: number;
}

/** Index i with cumulative[i] <= distance < cumulative[i + 1], clamped to the segments. */
function segmentAt(cumulative: readonly number[], distance: number, hint: number): number {
  const last = cumulative.length - 2;
  if (last < 0) return 0;
  // Movers ask for nearby distances in order; a short forward scan from the hint beats a search.
  if (hint >= 0 && hint <= last && cumulative[hint]! <= distance) {
    let i = hint;
    for (let step = 0; step < 8 && i < last && cumulative[i + 1]! <= distance; step++) i++;
    if (i === last || cumulative[i + 1]! > distance) return i;
  }
  let low = 0;
  let high = last;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (cumulative[mid]! <= distance) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * The point `distance` nm along a path whose vertex distances are `cumulative` (clamped to the
 * ends). `hint` is the segment of a previous call, to make sequential walks O(1).
 */
export function pointAlong(
  path: readonly Position[],
  cumulative: readonly number[],
  distance: number,
  hint = 0,
): PointAlong {
  if (path.length < 2) return { position: path[0] ?? [0, 0], course: 0, segment: 0 };
  const total = cumulative[cumulative.length - 1]!;
  const d = Math.min(total, Math.max(0, Number.isFinite(distance) ? distance : 0));
  let segment = segmentAt(cumulative, d, hint);
  // Skip zero-length segments so the course is defined.
  while (segment < path.length - 2 && cumulative[segment + 1]! - cumulative[segment]! <= 0) segment++;
  const a = path[segment]!;
  const b = path[segment + 1]!;
  const length = cumulative[segment + 1]! - cumulative[segment]!;
  const fraction = length > 0 ? Math.min(1, (d - cumulative[segment]!) / length) : 0;
  const position = interpolateGreatCircle(a, b, fraction);
  // At the very end of a segment the bearing to b is undefined; use the segment's own course there.
  const course = distanceNm(position, b) > 1e-6 ? initialBearingDeg(position, b) : finalCourse(a, b);
  return { position, course, segment };
}

/** Course on arrival at b when sailing the great circle from a. */
function finalCourse(a: Position, b: Position): number {
  return (initialBearingDeg(b, a) + 180) % 360;
}
