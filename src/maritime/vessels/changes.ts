// Vessel changes in a compact form, for the hop from the ingest thread (feeds, decoding, the
// authoritative store, the track recorder) to the thread that serves HTTP and streams, which keeps a
// read copy of vessel state. One batch is one Float64Array of fixed-width rows (transferred, not
// copied) plus a flat array of the static fields of the rows whose static data changed: no object
// per change crosses the threads.
//
// A row carries the vessel's state when the batch is taken, not the message that changed it, so
// changes to one vessel waiting for the same batch merge: the latest position wins, and a static
// change is never lost. The copy builds a new Vessel object for every row (its old object is never
// mutated), so what it hands its listeners can be published as it is.
import type { TurnDirection } from '../ais/index.ts';
import { categoryForShipType } from './reference/index.ts';
import { newVessel, type Change, type FeedSource, type Vessel, type VesselPosition, type VesselStore } from './store.ts';

export interface ChangeBatch {
  /** ROW_WIDTH numbers per vessel (see the offsets below); its buffer is transferred. */
  rows: Float64Array;
  /** STATIC_WIDTH values for each row whose static data changed, in row order. */
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
 * Changes waiting for the next batch, one entry per vessel. `coalesced` counts the position changes
 * merged into one still waiting (the earlier position was never sent on).
 */
export class PendingChanges {
  readonly #flags = new Map<number, number>();
  #coalesced = 0;

  get size(): number {
    return this.#flags.size;
  }

  get coalesced(): number {
    return this.#coalesced;
  }

  add(change: Change): void {
    const mmsi = change.vessel.mmsi;
    const before = this.#flags.get(mmsi);
    const flags = (change.position ? POSITION : 0) | (change.static ? STATIC : 0);
    if (before === undefined) {
      this.#flags.set(mmsi, flags);
      return;
    }
    if (change.position && before & POSITION) this.#coalesced++;
    this.#flags.set(mmsi, before | flags);
  }

  /** Takes up to `max` waiting vessels, in the order they first changed, as a batch of their state in `store`. */
  take(store: VesselStore, max: number): ChangeBatch {
    const count = Math.min(max, this.#flags.size);
    const rows = new Float64Array(count * ROW_WIDTH);
    const statics: (string | number | null)[] = [];
    let row = 0;
    for (const [mmsi, changed] of this.#flags) {
      if (row === count) break;
      this.#flags.delete(mmsi);
      const vessel = store.get(mmsi);
      if (!vessel) continue;
      encodeRow(rows, row * ROW_WIDTH, vessel, changed);
      if (changed & STATIC) pushStatic(statics, vessel);
      row++;
    }
    return { rows: row === count ? rows : rows.subarray(0, row * ROW_WIDTH), statics };
  }
}

function encodeRow(rows: Float64Array, at: number, vessel: Vessel, changed: number): void {
  const classCode = vessel.ais_class === 'A' ? 1 : vessel.ais_class === 'B' ? 2 : 0;
  rows[at + MMSI] = vessel.mmsi;
  rows[at + FLAGS] = changed | (classCode << 2) | (SOURCES.indexOf(vessel.source) << 4);
  rows[at + LAST_UPDATE] = Date.parse(vessel.last_update);
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
  rows[at + TIMESTAMP] = Date.parse(p.timestamp);
}

function pushStatic(out: (string | number | null)[], v: Vessel): void {
  const d = v.dimensions;
  out.push(v.name, v.callsign, v.imo, v.ship_type,
    d?.to_bow ?? null, d?.to_stern ?? null, d?.to_port ?? null, d?.to_starboard ?? null, d?.length ?? null, d?.beam ?? null,
    v.destination, v.eta, v.draught, v.static_updated_at);
}

/** Applies a batch to the read copy; `onChange` hears each vessel's change, in row order. */
export function applyChangeBatch(store: VesselStore, batch: ChangeBatch, onChange: (change: Change) => void): number {
  const { rows, statics } = batch;
  const count = rows.length / ROW_WIDTH;
  let s = 0;
  for (let row = 0; row < count; row++) {
    const at = row * ROW_WIDTH;
    const mmsi = rows[at + MMSI]!;
    const flags = rows[at + FLAGS]!;
    const previous = store.get(mmsi);
    const vessel: Vessel = previous ? { ...previous } : newVessel(mmsi, SOURCES[(flags >> 4) & 7]!, '');
    vessel.ais_class = CLASSES[(flags >> 2) & 3]!;
    vessel.source = SOURCES[(flags >> 4) & 7]!;
    vessel.last_update = new Date(rows[at + LAST_UPDATE]!).toISOString();
    const sources: FeedSource[] = [];
    for (let list = rows[at + SOURCE_LIST]!; list > 0; list = Math.floor(list / 5)) sources.push(SOURCES[(list % 5) - 1]!);
    vessel.sources = previous && sameList(previous.sources, sources) ? previous.sources : sources;
    const position = (flags & POSITION) !== 0 && !Number.isNaN(rows[at + LAT]!);
    if (position) vessel.position = positionOf(rows, at);
    const changedStatic = (flags & STATIC) !== 0;
    if (changedStatic) {
      readStatic(vessel, statics, s);
      s += STATIC_WIDTH;
    }
    store.put(vessel, position);
    onChange({ vessel, position, static: changedStatic });
  }
  return count;
}

function sameList(a: readonly FeedSource[], b: readonly FeedSource[]): boolean {
  return a.length === b.length && a.every((source, i) => source === b[i]);
}

function positionOf(rows: Float64Array, at: number): VesselPosition {
  return {
    lat: rows[at + LAT]!,
    lon: rows[at + LON]!,
    sog: nullable(rows[at + SOG]!),
    cog: nullable(rows[at + COG]!),
    heading: nullable(rows[at + HEADING]!),
    rot: nullable(rows[at + ROT]!),
    rot_direction: TURNS[rows[at + ROT_DIRECTION]!] ?? null,
    nav_status: nullable(rows[at + NAV_STATUS]!),
    position_accuracy: rows[at + ACCURACY] === 1,
    timestamp: new Date(rows[at + TIMESTAMP]!).toISOString(),
  };
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
