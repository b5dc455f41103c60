// Vessel changes travel on the bus by region: a 10° cell of the vessel's position (`r<row>c<column>`,
// rows from 90° S, columns from 180° W), or `none` for a vessel without one. An instance takes the
// regions its AIS streams' boxes touch, and every region only while one of its streams has no box.
import type { Parts } from '../platform/bus/index.ts';
import { longitudeRanges, type BBox, type Change } from './vessels/store.ts';

const REGION_DEG = 10;
const ROWS = 180 / REGION_DEG;
const COLUMNS = 360 / REGION_DEG;
/** Past this many regions an instance takes them all: one subscription instead of hundreds. */
const MOST_REGIONS = (ROWS * COLUMNS) / 4;

const rowOf = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / REGION_DEG)));
const columnOf = (lon: number) => Math.min(COLUMNS - 1, Math.max(0, Math.floor((lon + 180) / REGION_DEG)));

/** Every region's name, by row and column: a change's region is looked up, not made. */
const REGION_NAMES = Array.from({ length: ROWS }, (_, row) => Array.from({ length: COLUMNS }, (_, column) => `r${row}c${column}`));

/** The region a change travels on. */
export function regionOf(change: Change): string {
  const position = change.vessel.position;
  return position ? REGION_NAMES[rowOf(position.lat)]![columnOf(position.lon)]! : 'none';
}

/** The regions a box touches. */
export function regionsOfBox(box: BBox): string[] {
  const regions: string[] = [];
  for (const [from, to] of longitudeRanges(box)) {
    for (let row = rowOf(box.minLat); row <= rowOf(box.maxLat); row++) {
      for (let column = columnOf(from); column <= columnOf(to); column++) regions.push(REGION_NAMES[row]![column]!);
    }
  }
  return regions;
}

/**
 * The regions the streams of one instance need, counted per region so that a stream's coming and
 * going costs its own boxes, not a pass over every stream. A filter with boxes needs their regions
 * (a vessel outside every box never passes, whatever else the filter says); one without needs all.
 */
export class RegionInterest<S> {
  readonly #of = new Map<S, string[] | 'all'>();
  readonly #counts = new Map<string, number>();
  #everywhere = 0;
  #before: Parts = new Set();

  /** Sets (or replaces) what a subscriber needs; true when the instance's parts changed. */
  set(subscriber: S, boxes: readonly BBox[]): boolean {
    this.#drop(subscriber);
    if (boxes.length === 0) {
      this.#of.set(subscriber, 'all');
      this.#everywhere++;
    } else {
      const regions = [...new Set(boxes.flatMap(regionsOfBox))];
      this.#of.set(subscriber, regions);
      for (const region of regions) this.#counts.set(region, (this.#counts.get(region) ?? 0) + 1);
    }
    return this.#changed();
  }

  /** True when the instance's parts changed. */
  delete(subscriber: S): boolean {
    this.#drop(subscriber);
    return this.#changed();
  }

  parts(): Parts {
    return this.#everywhere > 0 || this.#counts.size > MOST_REGIONS ? 'all' : new Set(this.#counts.keys());
  }

  #drop(subscriber: S): void {
    const held = this.#of.get(subscriber);
    if (held === undefined) return;
    this.#of.delete(subscriber);
    if (held === 'all') {
      this.#everywhere--;
      return;
    }
    for (const region of held) {
      const count = this.#counts.get(region)! - 1;
      if (count === 0) this.#counts.delete(region);
      else this.#counts.set(region, count);
    }
  }

  #changed(): boolean {
    const now = this.parts();
    const before = this.#before;
    this.#before = now;
    if (now === 'all' || before === 'all') return now !== before;
    return now.size !== before.size || [...now].some((region) => !before.has(region));
  }
}

/** The regions several takers need together. */
export function unionOfParts(parts: readonly Parts[]): Parts {
  if (parts.includes('all')) return 'all';
  const union = new Set<string>();
  for (const each of parts as ReadonlySet<string>[]) for (const region of each) union.add(region);
  return union.size > MOST_REGIONS ? 'all' : union;
}
