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
// boxes around it.
import { longitudeRanges, type BBox, type Vessel } from '../vessels/store.ts';
import type { Filter } from './protocol.ts';

/** A subscription's filter, ready to test vessels against. */
export class CompiledFilter {
  readonly mmsi: ReadonlySet<number> | null;
  readonly imo: ReadonlySet<number> | null;
  readonly flags: ReadonlySet<string> | null;
  readonly vesselTypes: ReadonlySet<string> | null;
  readonly boxes: readonly BBox[];
  /** The boxes as latitude bounds and longitude ranges, worked out once: they are tested per update. */
  readonly #areas: readonly { minLat: number; maxLat: number; lons: readonly [number, number][] }[];

  constructor(filter: Filter) {
    const set = <T>(values: readonly T[]) => (values.length ? new Set(values) : null);
    this.mmsi = set(filter.mmsi);
    this.imo = set(filter.imo);
    this.flags = set(filter.flags);
    this.vesselTypes = set(filter.vesselTypes);
    this.boxes = filter.bboxes;
    this.#areas = filter.bboxes.map((box) => ({ minLat: box.minLat, maxLat: box.maxLat, lons: longitudeRanges(box) }));
  }

  matches(vessel: Vessel): boolean {
    if (this.mmsi && !this.mmsi.has(vessel.mmsi)) return false;
    if (this.imo && (vessel.imo === null || !this.imo.has(vessel.imo))) return false;
    if (this.vesselTypes && !this.vesselTypes.has(vessel.category)) return false;
    if (this.flags && (vessel.flag === null || !this.flags.has(vessel.flag.alpha2))) return false;
    if (this.#areas.length === 0) return true;
    const position = vessel.position;
    if (position === null) return false;
    // Loops, not closures: every candidate box of every update is tested here.
    const { lat, lon } = position;
    for (const { minLat, maxLat, lons } of this.#areas) {
      if (lat < minLat || lat > maxLat) continue;
      for (const [from, to] of lons) if (lon >= from && lon <= to) return true;
    }
    return false;
  }
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

/** The grid cells a box is filed under, or null for the global list. */
export function gridCellsFor(box: BBox): number[] | null {
  const level = CELL_SIZES.findIndex((size) => cellCount(box, size) <= MAX_CELLS_PER_BOX);
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
  readonly #byCell = new Map<number, Set<Entry<S>>>();
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
        const cells = gridCellsFor(box);
        if (cells) fileAll(this.#byCell, cells);
        else {
          this.#global.add(entry);
          undo.push(() => this.#global.delete(entry));
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
      for (let level = 0; level < CELL_SIZES.length; level++) {
        const size = CELL_SIZES[level]!;
        this.#byCell.get(level * KEY_LEVEL + rowOf(position.lat, size) * KEY_ROW + columnOf(position.lon, size))?.forEach(test);
      }
      this.#global.forEach(test);
    }
    if (vessel.flag) this.#byFlag.get(vessel.flag.alpha2)?.forEach(test);
    this.#byType.get(vessel.category)?.forEach(test);
    this.#everything.forEach(test);
  }
}
