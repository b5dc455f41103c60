// Vessel changes in a compact form, for the hop from the ingest thread (feeds, decoding, the
// authoritative store, the track recorder) to the thread that serves HTTP and streams, which keeps a
// read copy of vessel state. One batch is one Float64Array of fixed-width rows (transferred, not
// copied) plus a flat array of the static fields of the rows whose static data changed: no object
// per change crosses the threads.
//
// A row carries the vessel's state as the change left it. While the serving thread keeps up, every
// change has its row; once it falls behind, positions of a vessel merge into its waiting row (the
// latest wins), and a static change is never lost. A copy keeps one Vessel object per vessel and
// updates it in place: a new object for every change lived until the vessel's next report, long
// enough to reach the heap's old generation, where 20,000 changes a second left 5 MB of garbage a
// second (bench/README "stream"). The serving thread's copy gives each position change a new
// position object, which whoever takes it may keep, and a vessel that changes twice in one slice of
// rows a new object the second time, for the bus delivers the slice's changes after it; a stream
// process's copy, whose listeners keep nothing of a change past their return, updates its positions
// in place too.
import { isoTime, timeOf } from '../../platform/iso-time.ts';
import type { TurnDirection } from '../ais/index.ts';
import { categoryForShipType } from './reference/index.ts';
import { emptyPosition, newVessel, type Change, type FeedSource, type Vessel, type VesselPosition, type VesselStore } from './store.ts';

export interface ChangeBatch {
  /** ROW_WIDTH numbers per vessel (see the offsets below); its buffer is transferred. */
  rows: Float64Array;
  /** For each row whose static data changed, in row order: the row, then STATIC_WIDTH values. */
  statics: (string | number | null)[];
}

const SOURCES: readonly FeedSource[] = ['live', 'simulated', 'replay', 'upload'];
const CLASSES = [null, 'A', 'B'] as const;
const TURNS: readonly (TurnDirection | null)[] = [null, 'port', 'starboard'];

const MMSI = 0;
/** Bit 0: position changed; bit 1: static changed; bits 2-3: AIS class; bits 4-6: source. */
const FLAGS = 1;
const LAST_UPDATE = 2;
/** Every source that reported the vessel, in order: base-5 digits of (source index + 1). */
const SOURCE_LIST = 3;
const LAT = 4;
const LON = 5;
const SOG = 6;
const COG = 7;
const HEADING = 8;
const ROT = 9;
const ROT_DIRECTION = 10;
const NAV_STATUS = 11;
const ACCURACY = 12;
const TIMESTAMP = 13;
export const ROW_WIDTH = 14;
/** name, callsign, imo, ship_type, the six dimensions (to_bow … beam, all null for none), destination, eta, draught, static_updated_at. */
const STATIC_WIDTH = 14;

const POSITION = 1;
const STATIC = 2;

const num = (value: number | null): number => (value === null ? Number.NaN : value);
const nullable = (value: number): number | null => (Number.isNaN(value) ? null : value);

/**
 * Changes waiting for the next batch, each as a row of its vessel's state when it happened, so that
 * every position and every static change reaches the copy in order (port calls are made of them).
 * Once `coalesceAfter` rows wait (the serving thread is behind), a position change of a vessel that
 * already has a row waiting overwrites that row instead: the latest wins. `coalesced` counts them.
 * A static change always gets a row of its own.
 */
export class PendingChanges {
  readonly #coalesceAfter: number;
  #rows = new Float64Array(256 * ROW_WIDTH);
  #count = 0;
  /** STATIC_WIDTH + 1 values per static change: its row, then the fields. */
  #statics: (string | number | null)[] = [];
  /**
   * Each vessel's latest row, numbered from the first row ever added: waiting if not below `#taken`.
   * Taking rows leaves the map as it is; it holds a number per vessel heard.
   */
  readonly #latest = new Map<number, number>();
  /** Rows ever taken. */
  #taken = 0;
  #coalesced = 0;

  constructor(coalesceAfter = 2_000) {
    this.#coalesceAfter = coalesceAfter;
  }

  /** Rows waiting. */
  get size(): number {
    return this.#count;
  }

  get coalesced(): number {
    return this.#coalesced;
  }

  /**
   * `mayCoalesce`: false for a change that must reach the copy whatever the backlog (an uploaded
   * track). `withStatics`: the row carries the static fields though they did not change (for a copy
   * that may not have them).
   */
  add(change: Change, mayCoalesce = true, withStatics = false): void {
    const { vessel } = change;
    const flags = (change.position ? POSITION : 0) | (change.static ? STATIC : 0);
    const statics = change.static || withStatics;
    const latest = (this.#latest.get(vessel.mmsi) ?? -1) - this.#taken;
    if (mayCoalesce && latest >= 0 && !statics && this.#count >= this.#coalesceAfter) {
      const at = latest * ROW_WIDTH;
      const before = this.#rows[at + FLAGS]! & (POSITION | STATIC);
      if (change.position && before & POSITION) this.#coalesced++;
      encodeRow(this.#rows, at, vessel, before | flags);
      return;
    }
    if ((this.#count + 1) * ROW_WIDTH > this.#rows.length) {
      const grown = new Float64Array(this.#rows.length * 2);
      grown.set(this.#rows);
      this.#rows = grown;
    }
    const row = this.#count++;
    encodeRow(this.#rows, row * ROW_WIDTH, vessel, flags);
    if (statics) {
      this.#statics.push(row);
      pushStatic(this.#statics, vessel);
    }
    this.#latest.set(vessel.mmsi, this.#taken + row);
  }

  /** Takes up to `max` waiting rows, the oldest first. */
  take(max: number): ChangeBatch {
    const n = Math.min(max, this.#count);
    const rows = this.#rows.slice(0, n * ROW_WIDTH);
    this.#rows.copyWithin(0, n * ROW_WIDTH, this.#count * ROW_WIDTH);
    this.#count -= n;
    let split = 0;
    while (split < this.#statics.length && (this.#statics[split] as number) < n) split += STATIC_WIDTH + 1;
    const statics = this.#statics.slice(0, split);
    const rest = this.#statics.slice(split);
    for (let i = 0; i < rest.length; i += STATIC_WIDTH + 1) (rest[i] as number) -= n;
    this.#statics = rest;
    this.#taken += n;
    return { rows, statics };
  }
}

function encodeRow(rows: Float64Array, at: number, vessel: Vessel, changed: number): void {
  const classCode = vessel.ais_class === 'A' ? 1 : vessel.ais_class === 'B' ? 2 : 0;
  rows[at + MMSI] = vessel.mmsi;
  rows[at + FLAGS] = changed | (classCode << 2) | (SOURCES.indexOf(vessel.source) << 4);
  rows[at + LAST_UPDATE] = timeOf(vessel.last_update);
  let list = 0;
  for (let i = vessel.sources.length - 1; i >= 0; i--) list = list * 5 + SOURCES.indexOf(vessel.sources[i]!) + 1;
  rows[at + SOURCE_LIST] = list;
  const p = vessel.position;
  if (!(changed & POSITION) || p === null) return;
  rows[at + LAT] = p.lat;
  rows[at + LON] = p.lon;
  rows[at + SOG] = num(p.sog);
  rows[at + COG] = num(p.cog);
  rows[at + HEADING] = num(p.heading);
  rows[at + ROT] = num(p.rot);
  rows[at + ROT_DIRECTION] = TURNS.indexOf(p.rot_direction);
  rows[at + NAV_STATUS] = num(p.nav_status);
  rows[at + ACCURACY] = p.position_accuracy ? 1 : 0;
  rows[at + TIMESTAMP] = timeOf(p.timestamp);
}

function pushStatic(out: (string | number | null)[], v: Vessel): void {
  const d = v.dimensions;
  out.push(v.name, v.callsign, v.imo, v.ship_type,
    d?.to_bow ?? null, d?.to_stern ?? null, d?.to_port ?? null, d?.to_starboard ?? null, d?.length ?? null, d?.beam ?? null,
    v.destination, v.eta, v.draught, v.static_updated_at);
}

/**
 * What a batch is applied to: the serving thread's read copy, or a stream process's. `inPlace`: what
 * of a vessel is updated in place. Its Vessel object always is, from one call of `applyChangeRows`
 * to the next (a listener that keeps a change longer keeps a copy). Its position too, for a copy
 * whose listeners keep nothing of a change past their return; otherwise each position is a new
 * object, never changed afterwards.
 */
export type VesselCopy = Pick<VesselStore, 'get' | 'put'> & { readonly inPlace: 'vessel' | 'vessel and position' };

/** The serving thread's read copy of vessel state as a batch updates it. */
export function readCopy(store: VesselStore): VesselCopy {
  return { get: (mmsi) => store.get(mmsi), put: (vessel, positioned) => store.put(vessel, positioned), inPlace: 'vessel' };
}

/** Applies a batch to a copy; `onChange` hears each vessel's change, in row order. */
export function applyChangeBatch(store: VesselCopy, batch: ChangeBatch, onChange: (change: Change) => void): number {
  const count = batch.rows.length / ROW_WIDTH;
  applyChangeRows(store, batch, { from: 0, to: count, statics: 0 }, onChange);
  return count;
}

/** Where a batch applied in parts stands: the rows `from` to `to` come next, their static fields at `statics`. */
export interface BatchCursor {
  from: number;
  to: number;
  statics: number;
}

/** Applies the batch's rows `cursor.from` to `cursor.to` and moves the cursor's `statics` past them. */
export function applyChangeRows(store: VesselCopy, batch: ChangeBatch, cursor: BatchCursor, onChange: (change: Change) => void): void {
  const { rows, statics } = batch;
  let s = cursor.statics;
  // The vessels handed out by this call: the in-process bus delivers their changes once it returns,
  // so a vessel's second change here goes to a copy, and the first is heard as it left the vessel.
  const handedOut = store.inPlace === 'vessel' ? new Set<number>() : null;
  for (let row = cursor.from; row < cursor.to; row++) {
    const at = row * ROW_WIDTH;
    const mmsi = rows[at + MMSI]!;
    const flags = rows[at + FLAGS]!;
    const held = store.get(mmsi);
    const vessel = held === undefined ? newVessel(mmsi, SOURCES[(flags >> 4) & 7]!, '') : handedOut?.has(mmsi) ? { ...held } : held;
    handedOut?.add(mmsi);
    vessel.ais_class = CLASSES[(flags >> 2) & 3]!;
    vessel.source = SOURCES[(flags >> 4) & 7]!;
    vessel.last_update = isoTime(rows[at + LAST_UPDATE]!);
    const sourceList = rows[at + SOURCE_LIST]!;
    if (!isSourceList(vessel.sources, sourceList)) vessel.sources = sourcesOf(sourceList);
    const position = (flags & POSITION) !== 0 && !Number.isNaN(rows[at + LAT]!);
    if (position) {
      const into = store.inPlace === 'vessel and position' ? vessel.position : null;
      vessel.position = writePosition(into ?? emptyPosition(), rows, at);
    }
    const changedStatic = (flags & STATIC) !== 0;
    if (statics[s] === row) {
      readStatic(vessel, statics, s + 1);
      s += STATIC_WIDTH + 1;
    }
    store.put(vessel, position);
    onChange({ vessel, position, static: changedStatic });
  }
  cursor.statics = s;
}

/** Whether `sources` is the list a row's SOURCE_LIST encodes (compared without making the list). */
function isSourceList(sources: readonly FeedSource[], list: number): boolean {
  for (const source of sources) {
    if (list === 0 || SOURCES[(list % 5) - 1] !== source) return false;
    list = Math.floor(list / 5);
  }
  return list === 0;
}

function sourcesOf(list: number): FeedSource[] {
  const sources: FeedSource[] = [];
  for (; list > 0; list = Math.floor(list / 5)) sources.push(SOURCES[(list % 5) - 1]!);
  return sources;
}

/** The row's position written field by field into `into`: no other object made, not even one that dies young. */
function writePosition(into: VesselPosition, rows: Float64Array, at: number): VesselPosition {
  into.lat = rows[at + LAT]!;
  into.lon = rows[at + LON]!;
  into.sog = nullable(rows[at + SOG]!);
  into.cog = nullable(rows[at + COG]!);
  into.heading = nullable(rows[at + HEADING]!);
  into.rot = nullable(rows[at + ROT]!);
  into.rot_direction = TURNS[rows[at + ROT_DIRECTION]!] ?? null;
  into.nav_status = nullable(rows[at + NAV_STATUS]!);
  into.position_accuracy = rows[at + ACCURACY] === 1;
  into.timestamp = isoTime(rows[at + TIMESTAMP]!);
  return into;
}

function readStatic(vessel: Vessel, statics: (string | number | null)[], s: number): void {
  const value = (i: number) => statics[s + i] ?? null;
  vessel.name = value(0) as string | null;
  vessel.callsign = value(1) as string | null;
  vessel.imo = value(2) as number | null;
  vessel.ship_type = value(3) as number | null;
  const [to_bow, to_stern, to_port, to_starboard, length, beam] = [4, 5, 6, 7, 8, 9].map((i) => value(i) as number | null);
  vessel.dimensions = length === null && beam === null ? null : { to_bow: to_bow!, to_stern: to_stern!, to_port: to_port!, to_starboard: to_starboard!, length, beam };
  vessel.destination = value(10) as string | null;
  vessel.eta = value(11) as string | null;
  vessel.draught = value(12) as number | null;
  vessel.static_updated_at = value(13) as string | null;
  vessel.category = categoryForShipType(vessel.ship_type);
}
