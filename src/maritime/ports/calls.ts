// Port calls read from AIS positions: when a vessel stops in a port's area (areas.ts) it has
// arrived; when it leaves the area it has departed. The rules:
//
// - Stopped: navigation status 5 (moored) or 1 (at anchor) at 3 kn or less, or any status below
//   0.5 kn. Under way: 1 kn or more with another status, or more than 3 kn whatever the status.
//   Between those (0.5-1 kn, or no speed) a report changes nothing.
// - Arrival: a stopped vessel inside the area of a port (where areas overlap, areas.ts says
//   which). A status of moored or at anchor counts at once; a stop told by speed alone must last
//   STOP_CONFIRM_MS, so a vessel that slows for its pilot on the way through is not in port.
//   `arrival_observed` is false when LAMIS had not heard the vessel within MAX_GAP_MS before (it
//   was already there when its reports started to arrive): the time is then when it was first seen.
// - Berthing: the first report as moored (status 5, or a stop by speed alone) sets `berthed_at`
//   and the berth position; a vessel that waited at anchor and then went alongside has both times.
// - Departure: the first report outside the area (with EXIT_MARGIN_NM to spare, so a vessel at
//   the edge does not come and go). It departed when it got under way, if it did so in the area;
//   otherwise when it was last seen there. A vessel that gets under way and stops again inside
//   the area (anchorage to berth, a shift between berths) stays on the same call.
// - A call whose vessel has not been heard for LOST_AFTER_MS ends at its last report in the area,
//   with `departure_observed` false.
// - Harbour craft work in port and make no calls: pilot vessels, tugs and towing vessels, search
//   and rescue, law enforcement, port tenders and other special craft (by AIS ship type), and
//   stations that are not ships (base stations, aids to navigation, SAR aircraft).
//
// Finding the port for a stopped vessel reads the 1° grid of port areas (a box test, then the
// polygon), never the whole list, and vessels under way need no lookup at all.
import { createHash } from 'node:crypto';
import type { LatLon } from '../../platform/geo/great-circle.ts';
import { BASE62 } from '../../platform/ids.ts';
import { timeOf } from '../../platform/iso-time.ts';
import type { VesselCategory } from '../vessels/reference/index.ts';
import type { FeedSource, Vessel, VesselPosition } from '../vessels/store.ts';
import { AT_ANCHOR_STATUS, MOORED_STATUS, PortAreas, STOPPED_KN } from './areas.ts';
import type { Port } from './model.ts';

export type ArrivalStatus = 'moored' | 'anchored' | 'stopped';

export type PortCall = {
  /** `call_` and 16 letters or digits, from the vessel, port and arrival time (`callId`). */
  readonly id: string;
  readonly mmsi: number;
  readonly port_id: string;
  /** Name, IMO number and ship type as the vessel reported them when it arrived. */
  readonly vessel_name: string | null;
  readonly imo: number | null;
  readonly ship_type: number | null;
  readonly arrived_at: string;
  /** false: the vessel was already in the area when LAMIS first heard it (after a silence). */
  readonly arrival_observed: boolean;
  /** What said it had arrived. */
  readonly arrival_status: ArrivalStatus;
  readonly arrival_lat: number;
  readonly arrival_lon: number;
  /** The first report as moored, and where; null while it has only anchored. */
  readonly berthed_at: string | null;
  readonly berth_lat: number | null;
  readonly berth_lon: number | null;
  readonly departed_at: string | null;
  /** null while in port; false when the vessel fell silent or reappeared elsewhere. */
  readonly departure_observed: boolean | null;
  /** Metres, as reported on arrival and on departure: the difference is cargo worked. */
  readonly draught_arrival_m: number | null;
  readonly draught_departure_m: number | null;
  /** The source of the report that started the call. */
  readonly source: FeedSource;
};

export type PortCallEvent = {
  readonly kind: 'arrival' | 'berthed' | 'departure';
  readonly call: PortCall;
};

/** Where a vessel in port is now: its last report in the area. */
export type InPortStatus = ArrivalStatus | 'under_way';

export { AT_ANCHOR_STATUS, MOORED_STATUS, STOPPED_KN };
/** Above this a report of moored or at anchor is not believed. */
export const STATUS_MAX_KN = 3;
/** From this on a vessel not reporting moored or at anchor is under way. */
export const UNDER_WAY_KN = 1;
export const STOP_CONFIRM_MS = 5 * 60_000;
export const MAX_GAP_MS = 60 * 60_000;
export const LOST_AFTER_MS = 24 * 3_600_000;

/** Vessels that work in port rather than call at it. */
const HARBOUR_CRAFT: ReadonlySet<VesselCategory> = new Set(['PILOT', 'TUG', 'SAR', 'LAW_ENFORCEMENT', 'SPECIAL']);

export type Motion = ArrivalStatus | 'under_way' | 'unclear';

/** What a position report says about the vessel's motion (see the rules above). */
export function motionOf(position: Pick<VesselPosition, 'sog' | 'nav_status'>): Motion {
  const { sog, nav_status: status } = position;
  const statusBelievable = sog === null || sog <= STATUS_MAX_KN;
  if (status === MOORED_STATUS && statusBelievable) return 'moored';
  if (status === AT_ANCHOR_STATUS && statusBelievable) return 'anchored';
  if (sog === null) return 'unclear';
  if (sog < STOPPED_KN) return 'stopped';
  if (sog > STATUS_MAX_KN || (sog >= UNDER_WAY_KN && status !== MOORED_STATUS && status !== AT_ANCHOR_STATUS)) return 'under_way';
  return 'unclear';
}

/**
 * A call's id follows from the vessel, the port and the arrival time, so instances that read the
 * same feed with the receivers' own times (tag blocks) make the same call. Without them each
 * instance stamps its own arrival time: storage keeps the first one's call (`PortCallStore.arrive`),
 * which the others take over (`adoptCall`).
 */
export function callId(mmsi: number, portId: string, arrivedAt: string): string {
  const digest = createHash('sha256').update(`${mmsi} ${portId} ${arrivedAt}`).digest();
  let id = 'call_';
  for (let i = 0; i < 16; i++) id += BASE62[digest[i]! % 62];
  return id;
}

/**
 * The call as storage holds it (another instance's, with its id and arrival), with what this
 * instance has seen of it since: a berthing storage lacks, and the departure.
 */
export function adoptCall(stored: PortCall, ours: PortCall): PortCall {
  const berth = stored.berthed_at === null ? { berthed_at: ours.berthed_at, berth_lat: ours.berth_lat, berth_lon: ours.berth_lon } : {};
  return { ...stored, ...berth, departed_at: ours.departed_at, departure_observed: ours.departure_observed, draught_departure_m: ours.draught_departure_m };
}

/** Whether the vessel makes port calls at all. */
export function makesCalls(vessel: Pick<Vessel, 'mmsi_kind' | 'category'>): boolean {
  return vessel.mmsi_kind === 'ship' && !HARBOUR_CRAFT.has(vessel.category);
}

type OpenCall = {
  call: PortCall;
  port: Port;
  /** The last report inside the area. */
  lastInAreaMs: number;
  /** When it got under way in the area; null while stopped. */
  underWaySince: number | null;
  status: InPortStatus;
};

type PendingStop = { portId: string; sinceMs: number; lat: number; lon: number };

export type DetectorPorts = { readonly ports: readonly Port[]; get(id: string): Port | null };

export class PortCallDetector {
  readonly #ports: DetectorPorts;
  /** The port areas the detector reads, and learns berths and anchorages into. */
  readonly areas: PortAreas;
  readonly #open = new Map<number, OpenCall>();
  readonly #lastSeen = new Map<number, number>();
  readonly #pending = new Map<number, PendingStop>();
  /** The last finished call of each vessel, for "has it called there since it set its destination". */
  readonly #lastCall = new Map<number, { portId: string; arrivedMs: number }>();

  constructor(ports: DetectorPorts, areas: PortAreas = new PortAreas(ports)) {
    this.#ports = ports;
    this.areas = areas;
  }

  /**
   * Takes back the calls storage holds as open, and when each vessel was last heard. A call whose
   * port is no longer in the index (port data re-imported without it) is returned, to be closed.
   */
  restore(calls: readonly PortCall[], lastHeard: (mmsi: number) => number | null): PortCall[] {
    const orphans: PortCall[] = [];
    for (const call of calls) {
      const port = this.#ports.get(call.port_id);
      if (port === null) {
        orphans.push(call);
        continue;
      }
      const arrivedMs = Date.parse(call.arrived_at);
      const heard = lastHeard(call.mmsi);
      this.#open.set(call.mmsi, {
        call,
        port,
        lastInAreaMs: Math.max(arrivedMs, heard ?? arrivedMs),
        underWaySince: null,
        status: call.berthed_at !== null ? 'moored' : call.arrival_status,
      });
      if (heard !== null) this.#lastSeen.set(call.mmsi, heard);
    }
    return orphans;
  }

  /** Takes over the call storage holds for the vessel's open call `id` (see `adoptCall`). */
  adopt(mmsi: number, id: string, stored: PortCall): void {
    const open = this.#open.get(mmsi);
    if (open !== undefined && open.call.id === id) open.call = adoptCall(stored, open.call);
  }

  /** Remembers when a vessel was last heard, so its next arrival can count as observed. */
  heard(mmsi: number, atMs: number): void {
    this.#lastSeen.set(mmsi, Math.max(atMs, this.#lastSeen.get(mmsi) ?? 0));
  }

  /** The events one position report of `vessel` causes, in order. */
  observe(vessel: Vessel): PortCallEvent[] {
    const position = vessel.position;
    if (position === null) return [];
    const at = timeOf(position.timestamp);
    const previous = this.#lastSeen.get(vessel.mmsi);
    // Reports from several feeds can interleave slightly out of order: an older one changes nothing.
    if (previous !== undefined && at < previous) return [];
    this.#lastSeen.set(vessel.mmsi, at);
    if (!makesCalls(vessel)) return [];

    const events: PortCallEvent[] = [];
    const motion = motionOf(position);
    let arrivalObservable = previous !== undefined && at - previous <= MAX_GAP_MS;
    const open = this.#open.get(vessel.mmsi);
    if (open !== undefined) {
      if (this.areas.holds(open.port, position, true)) {
        this.#stayed(open, position, motion, at, events);
        return events;
      }
      const observed = at - open.lastInAreaMs <= MAX_GAP_MS;
      events.push(this.#close(open, vessel, open.underWaySince ?? open.lastInAreaMs, observed));
      arrivalObservable &&= observed;
    }

    if (motion === 'under_way') {
      this.#pending.delete(vessel.mmsi);
      return events;
    }
    if (motion === 'unclear') return events;
    const port = this.areas.portAt(position);
    if (port === null) {
      this.#pending.delete(vessel.mmsi);
      return events;
    }
    let arrivedMs = at;
    let arrivalAt: LatLon = position;
    if (motion === 'stopped') {
      // A stop told by speed alone counts once it has lasted; the call starts when it began.
      const pending = this.#pending.get(vessel.mmsi);
      if (pending === undefined || pending.portId !== port.id) {
        this.#pending.set(vessel.mmsi, { portId: port.id, sinceMs: at, lat: position.lat, lon: position.lon });
        return events;
      }
      if (at - pending.sinceMs < STOP_CONFIRM_MS) return events;
      arrivedMs = pending.sinceMs;
      arrivalAt = pending;
    }
    this.#pending.delete(vessel.mmsi);
    events.push(this.#arrive(vessel, port, motion, arrivedMs, arrivalAt, arrivalObservable));
    return events;
  }

  /** Ends the calls of vessels not heard for LOST_AFTER_MS. */
  closeLost(nowMs: number): PortCallEvent[] {
    const events: PortCallEvent[] = [];
    for (const open of [...this.#open.values()]) {
      const heard = this.#lastSeen.get(open.call.mmsi) ?? open.lastInAreaMs;
      if (nowMs - heard > LOST_AFTER_MS) events.push(this.#close(open, null, open.lastInAreaMs, false));
    }
    return events;
  }

  /** The open call of a vessel, with where it is in the port. */
  openFor(mmsi: number): { call: PortCall; status: InPortStatus } | null {
    const open = this.#open.get(mmsi);
    return open === undefined ? null : { call: open.call, status: open.status };
  }

  /** The open calls at a port. */
  openAt(portId: string): { call: PortCall; status: InPortStatus }[] {
    const calls: { call: PortCall; status: InPortStatus }[] = [];
    for (const open of this.#open.values()) if (open.port.id === portId) calls.push({ call: open.call, status: open.status });
    return calls;
  }

  /** Whether the vessel's last finished call was at `portId` and began at or after `sinceMs`. */
  calledSince(mmsi: number, portId: string, sinceMs: number): boolean {
    const last = this.#lastCall.get(mmsi);
    return last !== undefined && last.portId === portId && last.arrivedMs >= sinceMs;
  }

  get openCount(): number {
    return this.#open.size;
  }

  #stayed(open: OpenCall, position: VesselPosition, motion: Motion, at: number, events: PortCallEvent[]): void {
    open.lastInAreaMs = at;
    if (motion === 'under_way') {
      open.underWaySince ??= at;
      open.status = 'under_way';
      return;
    }
    if (motion === 'unclear') return;
    open.underWaySince = null;
    open.status = motion;
    if (motion !== 'anchored' && open.call.berthed_at === null) {
      open.call = { ...open.call, berthed_at: new Date(at).toISOString(), berth_lat: position.lat, berth_lon: position.lon };
      events.push({ kind: 'berthed', call: open.call });
    }
  }

  #arrive(vessel: Vessel, port: Port, status: ArrivalStatus, arrivedMs: number, at: LatLon, observed: boolean): PortCallEvent {
    const arrivedAt = new Date(arrivedMs).toISOString();
    const berthed = status !== 'anchored';
    const call: PortCall = {
      id: callId(vessel.mmsi, port.id, arrivedAt),
      mmsi: vessel.mmsi,
      port_id: port.id,
      vessel_name: vessel.name,
      imo: vessel.imo,
      ship_type: vessel.ship_type,
      arrived_at: arrivedAt,
      arrival_observed: observed,
      arrival_status: status,
      arrival_lat: at.lat,
      arrival_lon: at.lon,
      berthed_at: berthed ? arrivedAt : null,
      berth_lat: berthed ? at.lat : null,
      berth_lon: berthed ? at.lon : null,
      departed_at: null,
      departure_observed: null,
      draught_arrival_m: vessel.draught,
      draught_departure_m: null,
      source: vessel.source,
    };
    this.#open.set(vessel.mmsi, { call, port, lastInAreaMs: arrivedMs, underWaySince: null, status });
    return { kind: 'arrival', call };
  }

  #close(open: OpenCall, vessel: Vessel | null, departedMs: number, observed: boolean): PortCallEvent {
    this.#open.delete(open.call.mmsi);
    const departed = Math.max(departedMs, Date.parse(open.call.arrived_at));
    const call: PortCall = {
      ...open.call,
      departed_at: new Date(departed).toISOString(),
      departure_observed: observed,
      draught_departure_m: vessel?.draught ?? null,
    };
    this.#lastCall.set(call.mmsi, { portId: call.port_id, arrivedMs: Date.parse(call.arrived_at) });
    return { kind: 'departure', call };
  }
}
