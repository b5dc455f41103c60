// Live vessel state per MMSI, built from decoded AIS messages, with a 1° grid over live positions
// so a bounding-box query touches only the cells it covers.
import { isoTime } from '../../platform/iso-time.ts';
import type { AisMessage, Dimensions, Eta, TurnDirection } from '../ais/index.ts';
import { categoryForShipType, classifyMmsi, type MmsiKind, type VesselCategory } from './reference/index.ts';

/** Where a message came from; every response names it. */
export type FeedSource = 'live' | 'simulated' | 'replay' | 'upload';

export interface VesselPosition {
  lat: number;
  lon: number;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  /** Degrees per minute; null with a direction when the vessel turns faster than its AIS can say. */
  rot: number | null;
  rot_direction: TurnDirection | null;
  nav_status: number | null;
  position_accuracy: boolean;
  /** When the position was received (or the receiver's tag-block time), ISO 8601 UTC. */
  timestamp: string;
}

export interface Vessel {
  mmsi: number;
  mmsi_kind: MmsiKind;
  flag: { alpha2: string; country: string } | null;
  /** A: SOTDMA ships (types 1-3, 5); B: small craft (types 18, 19, 24). */
  ais_class: 'A' | 'B' | null;
  name: string | null;
  callsign: string | null;
  imo: number | null;
  ship_type: number | null;
  category: VesselCategory;
  dimensions: Dimensions | null;
  destination: string | null;
  /** The reported ETA, placed in the year that makes it the next such time after the report. */
  eta: string | null;
  /** Metres. */
  draught: number | null;
  position: VesselPosition | null;
  /** The source of the latest message. */
  source: FeedSource;
  /** Every source that has reported this vessel, in the order they first did. */
  sources: FeedSource[];
  last_update: string;
  static_updated_at: string | null;
}

export interface BBox {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

export interface Change {
  vessel: Vessel;
  position: boolean;
  /** Static or voyage data changed. */
  static: boolean;
}

const CELLS_PER_ROW = 360;

function cellOf(lat: number, lon: number): number {
  const row = Math.min(179, Math.floor(lat + 90));
  const column = Math.min(359, Math.floor(lon + 180));
  return row * CELLS_PER_ROW + column;
}

/** The longitude ranges a box covers: two when it crosses the antimeridian (minLon > maxLon). */
export function longitudeRanges(box: BBox): [number, number][] {
  return box.minLon <= box.maxLon ? [[box.minLon, box.maxLon]] : [[box.minLon, 180], [-180, box.maxLon]];
}

export function inBox(box: BBox, lat: number, lon: number): boolean {
  if (lat < box.minLat || lat > box.maxLat) return false;
  return longitudeRanges(box).some(([from, to]) => lon >= from && lon <= to);
}

/** AIS ETAs carry no year: take the first occurrence not more than a month before the report. */
export function etaToIso(eta: Eta | null, reportedAt: number): string | null {
  if (!eta || eta.month === null || eta.day === null) return null;
  const reported = new Date(reportedAt);
  for (const year of [reported.getUTCFullYear(), reported.getUTCFullYear() + 1]) {
    const time = Date.UTC(year, eta.month - 1, eta.day, eta.hour ?? 0, eta.minute ?? 0);
    const date = new Date(time);
    if (date.getUTCMonth() !== eta.month - 1) return null; // 30 February and the like
    if (time >= reportedAt - 31 * 86_400_000) return date.toISOString();
  }
  return null;
}

function dimensionsOf(d: Dimensions): Dimensions | null {
  if (d.length === null && d.beam === null) return null;
  return { to_bow: d.to_bow, to_stern: d.to_stern, to_port: d.to_port, to_starboard: d.to_starboard, length: d.length, beam: d.beam };
}

/** A position object to write a report's fields into. */
export function emptyPosition(): VesselPosition {
  return { lat: 0, lon: 0, sog: null, cog: null, heading: null, rot: null, rot_direction: null, nav_status: null, position_accuracy: false, timestamp: '' };
}

/** A vessel first heard now: its identity from the MMSI, nothing reported yet. */
export function newVessel(mmsi: number, source: FeedSource, time: string): Vessel {
  const identity = classifyMmsi(mmsi);
  return {
    mmsi,
    mmsi_kind: identity.kind,
    flag: identity.flag ? { alpha2: identity.flag.alpha2, country: identity.flag.country } : null,
    ais_class: null,
    name: null,
    callsign: null,
    imo: null,
    ship_type: null,
    category: 'OTHER',
    dimensions: null,
    destination: null,
    eta: null,
    draught: null,
    position: null,
    source,
    sources: [source],
    last_update: time,
    static_updated_at: null,
  };
}

export class VesselStore {
  readonly #vessels = new Map<number, Vessel>();
  readonly #byImo = new Map<number, number>();
  readonly #grid = new Map<number, Set<number>>();
  readonly #cellOfVessel = new Map<number, number>();

  get size(): number {
    return this.#vessels.size;
  }

  /** Vessels with a position in the live index. */
  get liveCount(): number {
    return this.#cellOfVessel.size;
  }

  get(mmsi: number): Vessel | undefined {
    return this.#vessels.get(mmsi);
  }

  byImo(imo: number): Vessel | undefined {
    const mmsi = this.#byImo.get(imo);
    const vessel = mmsi === undefined ? undefined : this.#vessels.get(mmsi);
    // A vessel put back with another IMO number leaves the old one here (see `put`).
    return vessel?.imo === imo ? vessel : undefined;
  }

  all(): IterableIterator<Vessel> {
    return this.#vessels.values();
  }

  /** Applies one decoded message; returns what changed, or null when it carries no vessel data. */
  apply(message: AisMessage, receivedAt: number, source: FeedSource): Change | null {
    const m = message.scaled;
    const time = isoTime(receivedAt);
    switch (m.type) {
      case 1:
      case 2:
      case 3:
      case 18:
      case 19:
      case 27: {
        const vessel = this.#vessel(m.mmsi, source, time);
        vessel.ais_class = m.type === 18 || m.type === 19 ? 'B' : m.type === 27 ? vessel.ais_class : 'A';
        let staticChanged = false;
        if (m.type === 19) staticChanged = this.#setStatic(vessel, { name: m.shipname, ship_type: m.ship_type, dimensions: dimensionsOf(m) }, time);
        // A report older than the position held (a feed replaying, a late satellite relay) does not move the vessel back.
        if (m.lat === null || m.lon === null || (vessel.position !== null && vessel.position.timestamp > time)) {
          return { vessel, position: false, static: staticChanged };
        }
        // One position object per vessel, written over: a new one a report lived until the next
        // report and reached the heap's old generation (changes.ts says the same of the copies).
        const navStatus = 'nav_status' in m ? m.nav_status : (vessel.position?.nav_status ?? null);
        const position = vessel.position ?? (vessel.position = emptyPosition());
        position.lat = m.lat;
        position.lon = m.lon;
        position.sog = m.sog;
        position.cog = m.cog;
        position.heading = 'heading' in m ? m.heading : null;
        position.rot = 'rot' in m ? m.rot : null;
        position.rot_direction = 'rot_direction' in m ? m.rot_direction : null;
        position.nav_status = navStatus;
        position.position_accuracy = m.position_accuracy;
        position.timestamp = time;
        this.#index(vessel.mmsi, position);
        return { vessel, position: true, static: staticChanged };
      }
      case 5: {
        const vessel = this.#vessel(m.mmsi, source, time);
        vessel.ais_class = 'A';
        const changed = this.#setStatic(vessel, {
          name: m.shipname,
          callsign: m.callsign,
          imo: m.imo,
          ship_type: m.ship_type,
          dimensions: dimensionsOf(m),
          destination: m.destination,
          eta: etaToIso(m.eta, receivedAt),
          draught: m.draught,
        }, time);
        return { vessel, position: false, static: changed };
      }
      case 24: {
        const vessel = this.#vessel(m.mmsi, source, time);
        vessel.ais_class = 'B';
        const changed = m.part === 0
          ? this.#setStatic(vessel, { name: m.shipname }, time)
          : this.#setStatic(vessel, { callsign: m.callsign, ship_type: m.ship_type, dimensions: dimensionsOf(m) }, time);
        return { vessel, position: false, static: changed };
      }
      default:
        return null;
    }
  }

  /** Live vessels whose position lies in the box. */
  *inBox(box: BBox): Generator<Vessel> {
    const minRow = Math.max(0, Math.floor(box.minLat + 90));
    const maxRow = Math.min(179, Math.floor(box.maxLat + 90));
    for (const [from, to] of longitudeRanges(box)) {
      const minColumn = Math.max(0, Math.floor(from + 180));
      const maxColumn = Math.min(359, Math.floor(to + 180));
      for (let row = minRow; row <= maxRow; row++) {
        for (let column = minColumn; column <= maxColumn; column++) {
          const cell = this.#grid.get(row * CELLS_PER_ROW + column);
          if (!cell) continue;
          // Only edge cells can hold positions outside the box; a position on 180° sits in both ranges.
          const edge = row === minRow || row === maxRow || column === minColumn || column === maxColumn;
          for (const mmsi of cell) {
            const vessel = this.#vessels.get(mmsi)!;
            if (!edge) {
              yield vessel;
              continue;
            }
            const { lat, lon } = vessel.position!;
            if (lat >= box.minLat && lat <= box.maxLat && lon >= from && lon <= to) yield vessel;
          }
        }
      }
    }
  }

  /** Takes positions older than the cut-off out of the live index; the vessels stay known. */
  expire(olderThan: number): number {
    const cutoff = new Date(olderThan).toISOString();
    let expired = 0;
    for (const mmsi of this.#cellOfVessel.keys()) {
      const vessel = this.#vessels.get(mmsi);
      if (vessel?.position && vessel.position.timestamp < cutoff) {
        this.#unindex(mmsi);
        expired++;
      }
    }
    return expired;
  }

  /** Puts back a vessel read from storage (its position is indexed if still fresh). */
  restore(vessel: Vessel, freshAfter: number): void {
    this.#vessels.set(vessel.mmsi, vessel);
    if (vessel.imo !== null) this.#byImo.set(vessel.imo, vessel.mmsi);
    if (vessel.position && Date.parse(vessel.position.timestamp) >= freshAfter) this.#index(vessel.mmsi, vessel.position);
  }

  /**
   * Puts a vessel's whole state in place of what is held, or puts back the object held once it was
   * updated (the read copy of another thread's store does; see changes.ts). `positioned`: its
   * position is new and goes into the live index. The IMO number it had before is not known then:
   * `byImo` passes over an entry the vessel no longer holds.
   */
  put(vessel: Vessel, positioned: boolean): void {
    if (vessel.imo !== null) this.#byImo.set(vessel.imo, vessel.mmsi);
    this.#vessels.set(vessel.mmsi, vessel);
    if (positioned && vessel.position) this.#index(vessel.mmsi, vessel.position);
  }

  #vessel(mmsi: number, source: FeedSource, time: string): Vessel {
    let vessel = this.#vessels.get(mmsi);
    if (!vessel) {
      vessel = newVessel(mmsi, source, time);
      this.#vessels.set(mmsi, vessel);
    }
    vessel.source = source;
    if (!vessel.sources.includes(source)) vessel.sources.push(source);
    if (time > vessel.last_update) vessel.last_update = time;
    return vessel;
  }

  /** Sets the given static/voyage fields; true when any value changed. */
  #setStatic(vessel: Vessel, fields: Partial<Pick<Vessel, 'name' | 'callsign' | 'imo' | 'ship_type' | 'dimensions' | 'destination' | 'eta' | 'draught'>>, time: string): boolean {
    let changed = false;
    for (const [key, value] of Object.entries(fields) as [keyof typeof fields, unknown][]) {
      if (JSON.stringify(vessel[key]) === JSON.stringify(value)) continue;
      if (key === 'imo') {
        if (vessel.imo !== null) this.#byImo.delete(vessel.imo);
        if (value !== null) this.#byImo.set(value as number, vessel.mmsi);
      }
      (vessel as unknown as Record<string, unknown>)[key] = value;
      changed = true;
    }
    if ('ship_type' in fields) vessel.category = categoryForShipType(vessel.ship_type);
    if (changed) vessel.static_updated_at = time;
    return changed;
  }

  #index(mmsi: number, position: VesselPosition): void {
    const cell = cellOf(position.lat, position.lon);
    const previous = this.#cellOfVessel.get(mmsi);
    if (previous === cell) return;
    if (previous !== undefined) this.#grid.get(previous)?.delete(mmsi);
    let set = this.#grid.get(cell);
    if (!set) this.#grid.set(cell, (set = new Set()));
    set.add(mmsi);
    this.#cellOfVessel.set(mmsi, cell);
  }

  #unindex(mmsi: number): void {
    const cell = this.#cellOfVessel.get(mmsi);
    if (cell === undefined) return;
    this.#grid.get(cell)?.delete(mmsi);
    this.#cellOfVessel.delete(mmsi);
  }
}
