// Encounters: a fleet vessel and another vessel that stay within ENCOUNTER_DISTANCE_M of each
// other, both slower than SLOW_KN, for ENCOUNTER_MS, outside every port's area: a
// ship-to-ship transfer, or a rendezvous, to look at. `vessel.encounter` (warning) opens then, for
// every owner whose fleet holds either vessel (subject `{type: "vessel_pair", id: "<lower
// mmsi>-<higher mmsi>"}`), and clears when they part (more than PARTED_DISTANCE_M apart, so GPS
// jitter around 500 m does not flap it) or when either has not been heard for LOST_AFTER_MS.
//
// Cost: slow vessels sit in a grid of 0.01° cells (about 1 km north-south), and a report looks only
// at the cells within 500 m of it: a fleet vessel's report at every slow vessel near it, another
// vessel's report only at the fleet's slow vessels near it (a grid of their own, mostly empty). A
// vessel under way costs one look-up. Times are the reports' own, so a replay decides alike.
import type { EventSubject, NewEvent } from '../events/index.ts';
import type { Port, Vessel, VesselPosition } from '../maritime/index.ts';
import { haversineNm, type LatLon } from '../platform/geo/great-circle.ts';
import type { EventEdge } from './edges.ts';
import type { FleetMember } from './fleet-index.ts';
import { vesselName } from './vessel-facts.ts';

export const ENCOUNTER_DISTANCE_M = 500;
export const PARTED_DISTANCE_M = 1000;
export const SLOW_KN = 2;
export const ENCOUNTER_MS = 30 * 60_000;
export const LOST_AFTER_MS = 60 * 60_000;

const METRES_PER_NM = 1852;
const CELL_DEG = 0.01;
const ROW_CELLS = Math.round(360 / CELL_DEG);
const METRES_PER_DEGREE = 111_320;

interface Pair {
  key: string;
  low: number;
  high: number;
  /** When both were first seen close and slow (report time). */
  sinceMs: number;
  /** The owners its event was opened for; null while not raised. */
  raisedFor: FleetMember[] | null;
}

/** What the encounter watch asks of the vessel picture and the fleets. */
export interface EncounterLookup {
  vessel(mmsi: number): Vessel | undefined;
  membersOf(mmsi: number): readonly FleetMember[] | undefined;
  portAreaAt(position: LatLon): Port | null;
}

/** An open encounter event, as storage holds it at start. */
export interface OpenEncounterEvent {
  org_id: string;
  subject: EventSubject;
}

const pairKey = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`);
const isSlow = (position: VesselPosition) => position.sog !== null && position.sog < SLOW_KN;
const distanceM = (a: LatLon, b: LatLon) => haversineNm(a.lat, a.lon, b.lat, b.lon) * METRES_PER_NM;

/** Slow vessels by 0.01° cell. */
class SlowGrid {
  readonly #cells = new Map<number, Set<number>>();
  readonly #cellOf = new Map<number, number>();

  place(mmsi: number, position: LatLon): void {
    const cell = Math.floor((position.lat + 90) / CELL_DEG) * ROW_CELLS + (Math.floor((position.lon + 180) / CELL_DEG) % ROW_CELLS);
    const previous = this.#cellOf.get(mmsi);
    if (previous === cell) return;
    if (previous !== undefined) this.#leave(mmsi, previous);
    let members = this.#cells.get(cell);
    if (members === undefined) this.#cells.set(cell, (members = new Set()));
    members.add(mmsi);
    this.#cellOf.set(mmsi, cell);
  }

  remove(mmsi: number): void {
    const cell = this.#cellOf.get(mmsi);
    if (cell !== undefined) this.#leave(mmsi, cell);
  }

  members(): IterableIterator<number> {
    return this.#cellOf.keys();
  }

  /**
   * The vessels in the cells within `metres` of the position (a superset of those within it), put in
   * `into` (emptied first; a list a report, reused, where a generator a report was garbage).
   */
  near(position: LatLon, metres: number, into: number[]): number[] {
    into.length = 0;
    if (this.#cells.size === 0) return into;
    const row = Math.floor((position.lat + 90) / CELL_DEG);
    const column = Math.floor((position.lon + 180) / CELL_DEG);
    const rows = Math.ceil(metres / METRES_PER_DEGREE / CELL_DEG);
    const cos = Math.max(Math.cos((position.lat * Math.PI) / 180), 0.01);
    const columns = Math.min(ROW_CELLS / 2, Math.ceil(metres / (METRES_PER_DEGREE * cos) / CELL_DEG));
    for (let r = row - rows; r <= row + rows; r++) {
      for (let c = column - columns; c <= column + columns; c++) {
        const members = this.#cells.get(r * ROW_CELLS + (((c % ROW_CELLS) + ROW_CELLS) % ROW_CELLS));
        if (members !== undefined) for (const mmsi of members) into.push(mmsi);
      }
    }
    return into;
  }

  #leave(mmsi: number, cell: number): void {
    const members = this.#cells.get(cell)!;
    members.delete(mmsi);
    if (members.size === 0) this.#cells.delete(cell);
    this.#cellOf.delete(mmsi);
  }
}

export class EncounterWatch {
  readonly #lookup: EncounterLookup;
  readonly #slow = new SlowGrid();
  readonly #slowFleet = new SlowGrid();
  readonly #pairs = new Map<string, Pair>();
  readonly #pairsOf = new Map<number, Set<string>>();
  readonly #nearby: number[] = [];

  constructor(lookup: EncounterLookup) {
    this.#lookup = lookup;
  }

  /** One position report of a vessel; `fleet`: whether any fleet holds it. */
  observe(vessel: Vessel, fleet: boolean, edges: EventEdge[]): void {
    const position = vessel.position;
    if (position === null) return;
    const { mmsi } = vessel;
    const pairs = this.#pairsOf.get(mmsi);
    if (!isSlow(position)) {
      this.#slow.remove(mmsi);
      this.#slowFleet.remove(mmsi);
    } else {
      this.#slow.place(mmsi, position);
      if (fleet) this.#slowFleet.place(mmsi, position);
      else this.#slowFleet.remove(mmsi);
      const at = Date.parse(position.timestamp);
      for (const other of (fleet ? this.#slow : this.#slowFleet).near(position, ENCOUNTER_DISTANCE_M, this.#nearby)) {
        if (other === mmsi) continue;
        const near = this.#lookup.vessel(other)?.position;
        // The pair's key (a string) only for a vessel close enough.
        if (near == null || !isSlow(near) || distanceM(position, near) > ENCOUNTER_DISTANCE_M || this.#pairs.has(pairKey(mmsi, other))) continue;
        this.#track(mmsi, other, at);
      }
    }
    const tracked = pairs ?? this.#pairsOf.get(mmsi);
    if (tracked !== undefined) for (const key of [...tracked]) this.#evaluate(this.#pairs.get(key)!, edges);
  }

  /** Drops vessels not heard for LOST_AFTER_MS from the grids, and clears their encounters. */
  expire(nowMs: number, edges: EventEdge[]): void {
    // ISO times compare as text.
    const lostBefore = new Date(nowMs - LOST_AFTER_MS).toISOString();
    const lost = (mmsi: number) => {
      const timestamp = this.#lookup.vessel(mmsi)?.position?.timestamp;
      return timestamp === undefined || timestamp < lostBefore;
    };
    for (const mmsi of [...this.#slow.members()]) {
      if (!lost(mmsi)) continue;
      this.#slow.remove(mmsi);
      this.#slowFleet.remove(mmsi);
    }
    for (const pair of [...this.#pairs.values()]) if (lost(pair.low) || lost(pair.high)) this.#end(pair, edges);
  }

  /** The vessel is in no fleet any more: only the grid of every slow vessel keeps it. */
  leftEveryFleet(mmsi: number): void {
    this.#slowFleet.remove(mmsi);
  }

  /** At start: the encounters storage holds open are taken back as raised. */
  restore(open: readonly OpenEncounterEvent[]): void {
    for (const event of open) {
      const match = /^(\d+)-(\d+)$/.exec(event.subject.id);
      if (match === null) continue;
      const [low, high] = [Number(match[1]), Number(match[2])];
      const key = pairKey(low, high);
      const pair = this.#pairs.get(key) ?? this.#track(low, high, 0);
      const member = { owner: event.org_id, vehicle_id: event.subject.vehicle_id ?? '' };
      pair.raisedFor = [...(pair.raisedFor ?? []), member];
    }
  }

  #track(a: number, b: number, sinceMs: number): Pair {
    const pair: Pair = { key: pairKey(a, b), low: Math.min(a, b), high: Math.max(a, b), sinceMs, raisedFor: null };
    this.#pairs.set(pair.key, pair);
    for (const mmsi of [a, b]) {
      let keys = this.#pairsOf.get(mmsi);
      if (keys === undefined) this.#pairsOf.set(mmsi, (keys = new Set()));
      keys.add(pair.key);
    }
    return pair;
  }

  #evaluate(pair: Pair, edges: EventEdge[]): void {
    const low = this.#lookup.vessel(pair.low);
    const high = this.#lookup.vessel(pair.high);
    const a = low?.position;
    const b = high?.position;
    if (a == null || b == null) return;
    const distance = distanceM(a, b);
    if (pair.raisedFor !== null) {
      if (distance > PARTED_DISTANCE_M) this.#end(pair, edges);
      return;
    }
    if (distance > ENCOUNTER_DISTANCE_M || !isSlow(a) || !isSlow(b)) {
      this.#end(pair, edges);
      return;
    }
    const latest = Math.max(Date.parse(a.timestamp), Date.parse(b.timestamp));
    if (latest - pair.sinceMs <= ENCOUNTER_MS) return;
    // In a port's area vessels lie close by the nature of the place.
    if (this.#lookup.portAreaAt(a) !== null || this.#lookup.portAreaAt(b) !== null) return;
    const raisedFor: FleetMember[] = [];
    // An owner with both vessels in its fleet gets one event, about the lower MMSI.
    for (const [own, other] of [[low!, high!], [high!, low!]]) {
      for (const member of this.#lookup.membersOf(own.mmsi) ?? []) {
        if (raisedFor.some((raised) => raised.owner === member.owner)) continue;
        raisedFor.push(member);
        edges.push({ action: 'open', owner: member.owner, event: encounterEvent(pair, own, other, member, distance, latest) });
      }
    }
    pair.raisedFor = raisedFor;
  }

  /** Stops watching the pair; an open event clears. */
  #end(pair: Pair, edges: EventEdge[]): void {
    this.#pairs.delete(pair.key);
    for (const mmsi of [pair.low, pair.high]) {
      const keys = this.#pairsOf.get(mmsi);
      keys?.delete(pair.key);
      if (keys?.size === 0) this.#pairsOf.delete(mmsi);
    }
    for (const member of pair.raisedFor ?? []) {
      edges.push({ action: 'clear', owner: member.owner, kind: 'vessel.encounter', subject: { type: 'vessel_pair', id: pair.key } });
    }
  }
}

function encounterEvent(pair: Pair, own: Vessel, other: Vessel, member: FleetMember, distance: number, latestMs: number): NewEvent {
  const minutes = Math.round((latestMs - pair.sinceMs) / 60_000);
  const at = own.position!;
  return {
    kind: 'vessel.encounter',
    severity: 'warning',
    subject: { type: 'vessel_pair', id: pair.key, mmsi: own.mmsi, vehicle_id: member.vehicle_id },
    summary: `${vesselName(own)} has been within ${Math.round(distance)} m of ${vesselName(other)} at under ${SLOW_KN} kn for ${minutes} minutes, outside any port.`,
    data: {
      distance_m: Math.round(distance),
      threshold_m: ENCOUNTER_DISTANCE_M,
      minutes,
      since: new Date(pair.sinceMs).toISOString(),
      position: { lat: at.lat, lon: at.lon },
      vessels: [own, other].map((vessel) => ({
        mmsi: vessel.mmsi, name: vessel.name, category: vessel.category, flag: vessel.flag?.alpha2 ?? null, sog: vessel.position!.sog,
      })),
    },
  };
}
