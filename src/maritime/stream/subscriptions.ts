// Which subscriptions a vessel update goes to, without testing every subscription for every update.
// Each subscription is filed once, under the most selective kind it has: its MMSIs, else its IMO
// numbers, else its boxes (in grid cells), else its flags, else its categories; one without any
// filter is filed under "everything". An update looks up only the entries its vessel can hit and
// tests those with the full filter, so the cost follows the subscriptions that can match, not all.
//
// Boxes go into a grid of several cell sizes: each box into the finest size at which it covers at
// most MAX_CELLS_PER_BOX cells, a box wider than the coarsest into a "global" list. So a port's box
// takes a few 1/16° cells (where ports are busy, boxes crowd), a sea a few 1° or 4° cells, an ocean
// a few 16° cells, and a position looks up one cell per size: in a busy area it meets only the
// boxes around it. A cell keeps its boxes' bounds side by side in one array, and a lookup compares
// the position with them before it tests a filter: in a busy cell most boxes do not hold it.
import { longitudeRanges, type BBox, type Vessel } from '../vessels/store.ts';
import type { Filter } from './stream.schemas.ts';

/** A subscription's filter, ready to test vessels against. */
export class CompiledFilter {
  readonly mmsi: ReadonlySet<number> | null;
  readonly imo: ReadonlySet<number> | null;
  readonly flags: ReadonlySet<string> | null;
  readonly vesselTypes: ReadonlySet<string> | null;
  readonly boxes: readonly BBox[];
  /** The boxes' longitude ranges with their latitude bounds, four numbers each (see BOUNDS). */
  readonly #areas: Float64Array;

  constructor(filter: Filter) {
    const set = <T>(values: readonly T[]) => (values.length ? new Set(values) : null);
    this.mmsi = set(filter.mmsi);
    this.imo = set(filter.imo);
    this.flags = set(filter.flags);
    this.vesselTypes = set(filter.vesselTypes);
    this.boxes = filter.bboxes;
    this.#areas = Float64Array.from(filter.bboxes.flatMap((box) => longitudeRanges(box).flatMap(([west, east]) => [box.minLat, box.maxLat, west, east])));
  }

  matches(vessel: Vessel): boolean {
    return this.passesAttributes(vessel) && this.#holds(vessel);
  }

  /** Every part of the filter but its boxes: for a vessel a box is already known to hold. */
  passesAttributes(vessel: Vessel): boolean {
    if (this.mmsi && !this.mmsi.has(vessel.mmsi)) return false;
    if (this.imo && (vessel.imo === null || !this.imo.has(vessel.imo))) return false;
    if (this.vesselTypes && !this.vesselTypes.has(vessel.category)) return false;
    if (this.flags && (vessel.flag === null || !this.flags.has(vessel.flag.alpha2))) return false;
    return true;
  }

  #holds(vessel: Vessel): boolean {
    const areas = this.#areas;
    if (areas.length === 0) return true;
    const position = vessel.position;
    if (position === null) return false;
    return holds(areas, areas.length, position.lat, position.lon) >= 0;
  }
}

/** Numbers per box range in a bounds array: south, north, west, east. */
const BOUNDS = 4;

/** The offset of the first range in `bounds` (up to `length`) that holds the position, or -1. */
function holds(bounds: Float64Array, length: number, lat: number, lon: number, from = 0): number {
  for (let at = from; at < length; at += BOUNDS) {
    if (lat >= bounds[at]! && lat <= bounds[at + 1]! && lon >= bounds[at + 2]! && lon <= bounds[at + 3]!) return at;
  }
  return -1;
}

/** Cell sizes in degrees, finest first. */
const CELL_SIZES = [0.0625, 0.25, 1, 4, 16] as const;
const MAX_CELLS_PER_BOX = 64;
/** Cell keys: size index, row, column in one number (at most 2,880 rows and 5,760 columns). */
const KEY_LEVEL = 100_000_000;
const KEY_ROW = 10_000;

function rowOf(lat: number, size: number): number {
  return Math.min(Math.ceil(180 / size) - 1, Math.max(0, Math.floor((lat + 90) / size)));
}

function columnOf(lon: number, size: number): number {
  return Math.min(Math.ceil(360 / size) - 1, Math.max(0, Math.floor((lon + 180) / size)));
}

/** The keys of the cells a box covers at one size. */
function cellsOf(box: BBox, level: number): number[] {
  const size = CELL_SIZES[level]!;
  const keys: number[] = [];
  for (const [from, to] of longitudeRanges(box)) {
    for (let row = rowOf(box.minLat, size); row <= rowOf(box.maxLat, size); row++) {
      for (let column = columnOf(from, size); column <= columnOf(to, size); column++) keys.push(level * KEY_LEVEL + row * KEY_ROW + column);
    }
  }
  return keys;
}

function cellCount(box: BBox, size: number): number {
  const rows = rowOf(box.maxLat, size) - rowOf(box.minLat, size) + 1;
  const columns = longitudeRanges(box).reduce((sum, [from, to]) => sum + columnOf(to, size) - columnOf(from, size) + 1, 0);
  return rows * columns;
}

/** The finest cell size at which the box covers at most MAX_CELLS_PER_BOX cells; -1 when none does. */
function gridLevelFor(box: BBox): number {
  return CELL_SIZES.findIndex((size) => cellCount(box, size) <= MAX_CELLS_PER_BOX);
}

/** The grid cells a box is filed under, or null for the global list. */
export function gridCellsFor(box: BBox): number[] | null {
  const level = gridLevelFor(box);
  return level < 0 ? null : cellsOf(box, level);
}

interface Entry<S> {
  subscriber: S;
  filter: CompiledFilter;
  /** Undoes the filing. */
  unfile: () => void;
  /** The last lookup that visited this entry, so an entry filed in several cells is tested once. */
  visited: number;
}

/** The boxes filed in one grid cell: an entry per box (per longitude range of a box across the antimeridian). */
class CellBoxes<S> {
  readonly entries: Entry<S>[] = [];
  #bounds = new Float64Array(BOUNDS * 8);

  add(entry: Entry<S>, south: number, north: number, west: number, east: number): void {
    const at = BOUNDS * this.entries.length;
    if (at + BOUNDS > this.#bounds.length) {
      const grown = new Float64Array(this.#bounds.length * 2);
      grown.set(this.#bounds);
      this.#bounds = grown;
    }
    this.entries.push(entry);
    this.#bounds.set([south, north, west, east], at);
  }

  /** Removes each of the entry's boxes: the last box moves into the freed place. */
  remove(entry: Entry<S>): void {
    for (let slot = this.entries.length - 1; slot >= 0; slot--) {
      if (this.entries[slot] !== entry) continue;
      const last = this.entries.length - 1;
      this.entries[slot] = this.entries[last]!;
      this.#bounds.copyWithin(BOUNDS * slot, BOUNDS * last, BOUNDS * last + BOUNDS);
      this.entries.pop();
    }
  }

  /** Calls `visit` for each entry whose box holds the position. */
  forEachHolding(lat: number, lon: number, visit: (entry: Entry<S>) => void): void {
    const length = BOUNDS * this.entries.length;
    for (let at = holds(this.#bounds, length, lat, lon); at >= 0; at = holds(this.#bounds, length, lat, lon, at + BOUNDS)) visit(this.entries[at / BOUNDS]!);
  }
}

function file<K, S>(map: Map<K, Set<Entry<S>>>, key: K, entry: Entry<S>): () => void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(entry);
  return () => {
    set.delete(entry);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}

export class SubscriptionIndex<S> {
  readonly #entries = new Map<S, Entry<S>>();
  readonly #byMmsi = new Map<number, Set<Entry<S>>>();
  readonly #byImo = new Map<number, Set<Entry<S>>>();
  readonly #byCell = new Map<number, CellBoxes<S>>();
  /** Boxes filed at each cell size: a lookup skips the sizes nobody uses. */
  readonly #cellFilings = CELL_SIZES.map(() => 0);
  readonly #byFlag = new Map<string, Set<Entry<S>>>();
  readonly #byType = new Map<string, Set<Entry<S>>>();
  /** Boxes too wide for the grid. */
  readonly #global = new Set<Entry<S>>();
  /** Subscriptions without any filter. */
  readonly #everything = new Set<Entry<S>>();
  #lookups = 0;

  get size(): number {
    return this.#entries.size;
  }

  /** Files the subscriber under its filter, replacing what it had. */
  set(subscriber: S, filter: CompiledFilter): void {
    this.delete(subscriber);
    const entry: Entry<S> = { subscriber, filter, unfile: () => {}, visited: 0 };
    const undo: (() => void)[] = [];
    const fileAll = <K>(map: Map<K, Set<Entry<S>>>, keys: Iterable<K>) => {
      for (const key of keys) undo.push(file(map, key, entry));
    };
    if (filter.mmsi) fileAll(this.#byMmsi, filter.mmsi);
    else if (filter.imo) fileAll(this.#byImo, filter.imo);
    else if (filter.boxes.length) {
      for (const box of filter.boxes) {
        const level = gridLevelFor(box);
        if (level < 0) {
          this.#global.add(entry);
          undo.push(() => this.#global.delete(entry));
          continue;
        }
        this.#cellFilings[level]!++;
        undo.push(() => this.#cellFilings[level]!--);
        for (const [west, east] of longitudeRanges(box)) {
          for (const key of cellsOf({ ...box, minLon: west, maxLon: east }, level)) undo.push(this.#fileInCell(key, entry, box, west, east));
        }
      }
    } else if (filter.flags) fileAll(this.#byFlag, filter.flags);
    else if (filter.vesselTypes) fileAll(this.#byType, filter.vesselTypes);
    else {
      this.#everything.add(entry);
      undo.push(() => this.#everything.delete(entry));
    }
    entry.unfile = () => undo.forEach((step) => step());
    this.#entries.set(subscriber, entry);
  }

  #fileInCell(key: number, entry: Entry<S>, box: BBox, west: number, east: number): () => void {
    let cell = this.#byCell.get(key);
    if (!cell) this.#byCell.set(key, (cell = new CellBoxes()));
    cell.add(entry, box.minLat, box.maxLat, west, east);
    return () => {
      cell.remove(entry);
      if (cell.entries.length === 0 && this.#byCell.get(key) === cell) this.#byCell.delete(key);
    };
  }

  delete(subscriber: S): void {
    const entry = this.#entries.get(subscriber);
    if (!entry) return;
    entry.unfile();
    this.#entries.delete(subscriber);
  }

  /** Calls `visit` once for every subscriber whose filter the vessel passes. */
  forEachMatch(vessel: Vessel, visit: (subscriber: S) => void): void {
    const lookup = ++this.#lookups;
    const test = (entry: Entry<S>) => {
      if (entry.visited === lookup) return;
      entry.visited = lookup;
      if (entry.filter.matches(vessel)) visit(entry.subscriber);
    };
    this.#byMmsi.get(vessel.mmsi)?.forEach(test);
    if (vessel.imo !== null) this.#byImo.get(vessel.imo)?.forEach(test);
    const position = vessel.position;
    if (position) {
      const { lat, lon } = position;
      // A box of the cell holds the position: only the rest of its filter is left to test.
      const testHeld = (entry: Entry<S>) => {
        if (entry.visited === lookup) return;
        entry.visited = lookup;
        if (entry.filter.passesAttributes(vessel)) visit(entry.subscriber);
      };
      for (let level = 0; level < CELL_SIZES.length; level++) {
        if (this.#cellFilings[level] === 0) continue;
        const size = CELL_SIZES[level]!;
        this.#byCell.get(level * KEY_LEVEL + rowOf(lat, size) * KEY_ROW + columnOf(lon, size))?.forEachHolding(lat, lon, testHeld);
      }
      this.#global.forEach(test);
    }
    if (vessel.flag) this.#byFlag.get(vessel.flag.alpha2)?.forEach(test);
    this.#byType.get(vessel.category)?.forEach(test);
    this.#everything.forEach(test);
  }
}
