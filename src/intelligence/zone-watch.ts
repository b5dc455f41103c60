// The zone watch: every organisation's zones in memory, and which watched vessel is inside which
// zone, so that a vessel's report is checked only against the zones whose box covers its grid cell
// (a 1° grid, and a 10° one for zones too large for it) and those it is inside, never all of them.
//
// Whom a zone watches: its owner's fleet vessels, always; and when `applies_to` names categories
// or flags, every other vessel of those categories and flags too (both must match when both are
// given).
//
// Life cycle, per zone and vessel (subject `{type: "zone_vessel", id: "<zone id>/<mmsi>"}`):
// - `vessel.zone_entered` (info) opens when a report inside follows one outside (or is the first
//   LAMIS hears from the vessel) and clears when the vessel leaves.
// - `vessel.zone_exited` (info) opens when it leaves and clears when it enters again, or after
//   NOTICE_MS: it is news for a day.
// - Vessels already inside when a zone is drawn or changed, when a vessel joins a fleet, or when
//   its static data first give it a category or flag the zone watches, are
//   taken as inside without an event (no boundary was crossed), as are the vessels inside when the
//   service starts that have no open event; when they leave, the exit opens. A zone changed so that
//   a vessel is no longer inside clears its entered event without an exit; a zone removed clears
//   all its events.
// - Cap: a zone keeps at most OTHER_EVENTS_CAP open events about vessels outside its owner's fleet.
//   Past that, one `vessel.zone_entered` about the zone itself (subject `{type: "zone"}`,
//   `data.capped` true) says so, and other vessels raise nothing there until the count is below
//   the cap again, which clears it. Fleet vessels are never capped.
// - An opening or clearing made by a report carries the report's time: an instance that reads the
//   same feed and comes late to an entry the other has already seen cleared does not open it again.
import type { EventSubject, NewEvent } from '../events/index.ts';
import type { Vessel } from '../maritime/index.ts';
import { compileGeometry, type CompiledGeometry, type OwnedZone } from '../zones/index.ts';
import type { EventEdge } from './edges.ts';
import { memberOf, type FleetMember } from './fleet-index.ts';
import { positionFacts, vesselName } from './vessel-facts.ts';

export const OTHER_EVENTS_CAP = 100;
/** How long an exit stays open as news. */
export const NOTICE_MS = 24 * 3_600_000;
/** A zone whose box covers more 1° cells than this goes in the 10° grid. */
const FINE_CELL_LIMIT = 100;

interface WatchedZone {
  id: string;
  owner: string;
  name: string;
  compiled: CompiledGeometry;
  /** Other vessels it watches, by category and flag; null: its owner's fleet only. */
  categories: ReadonlySet<string> | null;
  flags: ReadonlySet<string> | null;
  watchesOthers: boolean;
  /** Grid cells it is filed under, and in which grid. */
  cells: number[];
  coarse: boolean;
  /** Vessels inside it now. */
  members: Set<number>;
  /** Open events about other vessels (entered and exited). */
  otherEvents: number;
  /** Whether its capped event is open. */
  capped: boolean;
}

interface Presence {
  zone: WatchedZone;
  /** Whether its `zone_entered` event is open (not when taken as inside quietly, or capped). */
  event: boolean;
  /** Its place in the owner's fleet; undefined for another vessel. */
  member: FleetMember | undefined;
}

interface OpenExit {
  zone: WatchedZone;
  mmsi: number;
  other: boolean;
  openedAtMs: number;
}

/** An open event of the zone watch's kinds, as storage holds it at start. */
export interface OpenZoneEvent {
  org_id: string;
  kind: string;
  subject: EventSubject;
  opened_at: string;
  data: Record<string, unknown>;
}

const fineCell = (lat: number, lon: number) => Math.min(179, Math.floor(lat + 90)) * 360 + Math.min(359, Math.floor(lon + 180));
const coarseCell = (lat: number, lon: number) => Math.min(17, Math.floor((lat + 90) / 10)) * 36 + Math.min(35, Math.floor((lon + 180) / 10));
const visitKey = (zoneId: string, mmsi: number) => `${zoneId}/${mmsi}`;

/** What the zone watch asks of the vessel picture and the fleets. */
export interface ZoneLookup {
  vessel(mmsi: number): Vessel | undefined;
  /** Live vessels in a box (minLon ≤ maxLon). */
  inBox(box: { minLat: number; maxLat: number; minLon: number; maxLon: number }): Iterable<Vessel>;
  membersOf(mmsi: number): readonly FleetMember[] | undefined;
}

export class ZoneWatch {
  readonly #lookup: ZoneLookup;
  readonly #zones = new Map<string, WatchedZone>();
  readonly #fine = new Map<number, WatchedZone[]>();
  readonly #coarse = new Map<number, WatchedZone[]>();
  readonly #inside = new Map<number, Map<string, Presence>>();
  readonly #exits = new Map<string, OpenExit>();

  constructor(lookup: ZoneLookup) {
    this.#lookup = lookup;
  }

  /** The zones the vessel is inside now (for tests and restarts). */
  zonesOf(mmsi: number): string[] {
    return [...(this.#inside.get(mmsi)?.keys() ?? [])];
  }

  /**
   * One report of a vessel: the edges of the zones it entered and left. `quiet` takes entries as
   * they are without events (a vessel that joined a fleet where it lies).
   */
  observe(vessel: Vessel, members: readonly FleetMember[] | undefined, edges: EventEdge[], quiet = false): void {
    const position = vessel.position;
    if (position === null) return;
    const fine = this.#fine.get(fineCell(position.lat, position.lon));
    const coarse = this.#coarse.get(coarseCell(position.lat, position.lon));
    const presences = this.#inside.get(vessel.mmsi);
    if (fine === undefined && coarse === undefined && presences === undefined) return;
    if (presences !== undefined) {
      for (const presence of presences.values()) {
        if (!presence.zone.compiled.contains(position)) this.#left(vessel, presence, edges);
      }
    }
    if (fine !== undefined) for (const zone of fine) this.#check(zone, vessel, members, edges, quiet);
    if (coarse !== undefined) for (const zone of coarse) this.#check(zone, vessel, members, edges, quiet);
  }

  /** Clears exits older than NOTICE_MS. */
  expire(nowMs: number, edges: EventEdge[]): void {
    for (const [key, exit] of this.#exits) {
      if (nowMs - exit.openedAtMs < NOTICE_MS) continue;
      this.#exits.delete(key);
      edges.push(this.#clear('vessel.zone_exited', exit.zone, exit.mmsi));
      if (exit.other) this.#countOther(exit.zone, -1, edges);
    }
  }

  /** Files a new or changed zone. Vessels already inside are taken as inside quietly. */
  setZone(owned: OwnedZone, edges: EventEdge[]): void {
    const previous = this.#zones.get(owned.id);
    const { categories, flags } = owned.applies_to;
    const zone: WatchedZone = {
      id: owned.id,
      owner: owned.owner,
      name: owned.name,
      compiled: compileGeometry(owned.geometry),
      categories: categories?.length ? new Set(categories) : null,
      flags: flags?.length ? new Set(flags) : null,
      watchesOthers: Boolean(categories?.length || flags?.length),
      cells: [],
      coarse: false,
      members: new Set(),
      otherEvents: previous?.otherEvents ?? 0,
      capped: previous?.capped ?? false,
    };
    if (previous !== undefined) {
      this.#unfile(previous);
      for (const mmsi of previous.members) {
        const presence = this.#inside.get(mmsi)!.get(zone.id)!;
        const vessel = this.#lookup.vessel(mmsi);
        const position = vessel?.position ?? null;
        const watched = vessel !== undefined && (presence.member !== undefined
          ? memberOf(this.#lookup.membersOf(mmsi), zone.owner) !== undefined
          : this.#watchesOther(zone, vessel));
        if (watched && position !== null && zone.compiled.contains(position)) {
          presence.zone = zone;
          zone.members.add(mmsi);
          continue;
        }
        // The zone moved away from the vessel (or stopped watching it): no boundary was crossed.
        this.#unplace(mmsi, previous);
        if (presence.event) this.#dropEntered(zone, mmsi, presence, edges);
      }
      for (const exit of this.#exits.values()) if (exit.zone === previous) exit.zone = zone;
    }
    this.#file(zone);
    this.#zones.set(zone.id, zone);
    const { minLat, maxLat, lonRanges } = zone.compiled.bounds;
    for (const [minLon, maxLon] of lonRanges) {
      for (const vessel of this.#lookup.inBox({ minLat, maxLat, minLon, maxLon })) {
        this.#check(zone, vessel, this.#lookup.membersOf(vessel.mmsi), edges, true);
      }
    }
  }

  /** Forgets a removed zone and clears its events. */
  removeZone(zoneId: string, edges: EventEdge[]): void {
    const zone = this.#zones.get(zoneId);
    if (zone === undefined) return;
    this.#unfile(zone);
    this.#zones.delete(zoneId);
    for (const mmsi of [...zone.members]) {
      const presence = this.#inside.get(mmsi)!.get(zoneId)!;
      this.#unplace(mmsi, zone);
      if (presence.event) edges.push(this.#clear('vessel.zone_entered', zone, mmsi));
    }
    for (const [key, exit] of this.#exits) {
      if (exit.zone !== zone) continue;
      this.#exits.delete(key);
      edges.push(this.#clear('vessel.zone_exited', zone, exit.mmsi));
    }
    if (zone.capped) edges.push({ action: 'clear', owner: zone.owner, kind: 'vessel.zone_entered', subject: zoneSubject(zone) });
  }

  /** The vessel left `owner`'s fleet: its events in that owner's zones clear, quietly. */
  forget(mmsi: number, owner: string, edges: EventEdge[]): void {
    for (const presence of [...(this.#inside.get(mmsi)?.values() ?? [])]) {
      if (presence.zone.owner !== owner || presence.member === undefined) continue;
      this.#unplace(mmsi, presence.zone);
      if (presence.event) edges.push(this.#clear('vessel.zone_entered', presence.zone, mmsi));
    }
    for (const [key, exit] of this.#exits) {
      if (exit.mmsi !== mmsi || exit.zone.owner !== owner || exit.other) continue;
      this.#exits.delete(key);
      edges.push(this.#clear('vessel.zone_exited', exit.zone, mmsi));
    }
  }

  /**
   * At start, after the zones are filed: every known vessel is placed quietly where it is, then the
   * open events storage holds are matched to it. An entered event of a vessel that is no longer
   * inside means it left while the service was down: it clears and the exit opens. Events of zones
   * that are gone clear.
   */
  restore(open: readonly OpenZoneEvent[], vessels: Iterable<Vessel>, nowMs: number, edges: EventEdge[]): void {
    for (const vessel of vessels) this.observe(vessel, this.#lookup.membersOf(vessel.mmsi), edges, true);
    for (const event of open) {
      const { subject } = event;
      const zone = this.#zones.get(subject.zone_id ?? '');
      const kind = event.kind as 'vessel.zone_entered' | 'vessel.zone_exited';
      if (zone === undefined || (subject.type === 'zone_vessel' && subject.mmsi === undefined)) {
        edges.push({ action: 'clear', owner: event.org_id, kind, subject });
        continue;
      }
      if (subject.type === 'zone') {
        zone.capped = true;
        continue;
      }
      const mmsi = subject.mmsi!;
      const other = event.data.fleet === false;
      const presence = this.#inside.get(mmsi)?.get(zone.id);
      if (kind === 'vessel.zone_entered') {
        if (presence !== undefined) {
          presence.event = true;
          if (presence.member === undefined) zone.otherEvents++;
          continue;
        }
        edges.push(this.#clear('vessel.zone_entered', zone, mmsi));
        const vessel = this.#lookup.vessel(mmsi);
        if (vessel?.position == null) continue;
        const member = other ? undefined : memberOf(this.#lookup.membersOf(mmsi), zone.owner);
        edges.push({ action: 'open', owner: zone.owner, event: this.#visitEvent('vessel.zone_exited', zone, vessel, member) });
        this.#exits.set(visitKey(zone.id, mmsi), { zone, mmsi, other, openedAtMs: nowMs });
        if (other) zone.otherEvents++;
      } else if (presence !== undefined) {
        edges.push(this.#clear('vessel.zone_exited', zone, mmsi));
      } else {
        this.#exits.set(visitKey(zone.id, mmsi), { zone, mmsi, other, openedAtMs: Date.parse(event.opened_at) });
        if (other) zone.otherEvents++;
      }
    }
    for (const zone of this.#zones.values()) this.#countOther(zone, 0, edges);
  }

  #check(zone: WatchedZone, vessel: Vessel, members: readonly FleetMember[] | undefined, edges: EventEdge[], quiet: boolean): void {
    const position = vessel.position;
    if (position === null || zone.members.has(vessel.mmsi)) return;
    const member = memberOf(members, zone.owner);
    if (member === undefined && !this.#watchesOther(zone, vessel)) return;
    const { minLat, maxLat } = zone.compiled.bounds;
    if (position.lat < minLat || position.lat > maxLat || !zone.compiled.contains(position)) return;
    this.#entered(zone, vessel, member, edges, quiet);
  }

  #watchesOther(zone: WatchedZone, vessel: Vessel): boolean {
    if (!zone.watchesOthers) return false;
    if (zone.categories !== null && !zone.categories.has(vessel.category)) return false;
    return zone.flags === null || (vessel.flag !== null && zone.flags.has(vessel.flag.alpha2));
  }

  #entered(zone: WatchedZone, vessel: Vessel, member: FleetMember | undefined, edges: EventEdge[], quiet: boolean): void {
    const other = member === undefined;
    const presence: Presence = { zone, event: false, member };
    this.#place(vessel.mmsi, presence);
    if (quiet) return;
    const observedAt = vessel.position!.timestamp;
    const key = visitKey(zone.id, vessel.mmsi);
    const exit = this.#exits.get(key);
    if (exit !== undefined) {
      this.#exits.delete(key);
      edges.push(this.#clear('vessel.zone_exited', zone, vessel.mmsi, observedAt));
      if (exit.other) this.#countOther(zone, -1, edges);
    }
    if (other && zone.otherEvents >= OTHER_EVENTS_CAP) {
      if (!zone.capped) {
        zone.capped = true;
        edges.push({ action: 'open', owner: zone.owner, event: cappedEvent(zone) });
      }
      return;
    }
    presence.event = true;
    if (other) this.#countOther(zone, 1, edges);
    edges.push({ action: 'open', owner: zone.owner, event: this.#visitEvent('vessel.zone_entered', zone, vessel, member), observedAt });
  }

  #left(vessel: Vessel, presence: Presence, edges: EventEdge[]): void {
    const { zone, member } = presence;
    const other = member === undefined;
    const observedAt = vessel.position!.timestamp;
    this.#unplace(vessel.mmsi, zone);
    // The entered event clears as the exit opens: net nothing for the cap.
    if (presence.event) edges.push(this.#clear('vessel.zone_entered', zone, vessel.mmsi, observedAt));
    else if (other && zone.otherEvents >= OTHER_EVENTS_CAP) return;
    else if (other) this.#countOther(zone, 1, edges);
    edges.push({ action: 'open', owner: zone.owner, event: this.#visitEvent('vessel.zone_exited', zone, vessel, member), observedAt });
    this.#exits.set(visitKey(zone.id, vessel.mmsi), { zone, mmsi: vessel.mmsi, other, openedAtMs: Date.parse(observedAt) });
  }

  /** An entered event whose vessel is no longer inside, though it crossed no boundary. */
  #dropEntered(zone: WatchedZone, mmsi: number, presence: Presence, edges: EventEdge[]): void {
    edges.push(this.#clear('vessel.zone_entered', zone, mmsi));
    if (presence.member === undefined) this.#countOther(zone, -1, edges);
  }

  #visitEvent(kind: 'vessel.zone_entered' | 'vessel.zone_exited', zone: WatchedZone, vessel: Vessel, member: FleetMember | undefined): NewEvent {
    const name = vesselName(vessel);
    return {
      kind,
      severity: 'info',
      subject: visitSubject(zone, vessel.mmsi, member),
      summary: kind === 'vessel.zone_entered' ? `${name} entered the zone ${zone.name}.` : `${name} left the zone ${zone.name}.`,
      data: {
        zone_name: zone.name,
        fleet: member !== undefined,
        vessel_name: vessel.name,
        category: vessel.category,
        flag: vessel.flag?.alpha2 ?? null,
        ...positionFacts(vessel),
      },
    };
  }

  #clear(kind: 'vessel.zone_entered' | 'vessel.zone_exited', zone: WatchedZone, mmsi: number, observedAt?: string): EventEdge {
    return { action: 'clear', owner: zone.owner, kind, subject: visitSubject(zone, mmsi, undefined), observedAt };
  }

  /** Counts open events about other vessels; the capped event clears once below the cap. */
  #countOther(zone: WatchedZone, step: 1 | 0 | -1, edges: EventEdge[]): void {
    zone.otherEvents += step;
    if (zone.capped && zone.otherEvents < OTHER_EVENTS_CAP) {
      zone.capped = false;
      edges.push({ action: 'clear', owner: zone.owner, kind: 'vessel.zone_entered', subject: zoneSubject(zone) });
    }
  }

  #place(mmsi: number, presence: Presence): void {
    let presences = this.#inside.get(mmsi);
    if (presences === undefined) this.#inside.set(mmsi, (presences = new Map()));
    presences.set(presence.zone.id, presence);
    presence.zone.members.add(mmsi);
  }

  #unplace(mmsi: number, zone: WatchedZone): void {
    const presences = this.#inside.get(mmsi);
    presences?.delete(zone.id);
    if (presences?.size === 0) this.#inside.delete(mmsi);
    zone.members.delete(mmsi);
  }

  #file(zone: WatchedZone): void {
    const { minLat, maxLat, lonRanges } = zone.compiled.bounds;
    const fine: number[] = [];
    for (const [from, to] of lonRanges) {
      for (let row = Math.floor(minLat + 90); row <= Math.min(179, Math.floor(maxLat + 90)); row++) {
        for (let column = Math.floor(from + 180); column <= Math.min(359, Math.floor(to + 180)); column++) fine.push(row * 360 + column);
      }
    }
    zone.coarse = fine.length > FINE_CELL_LIMIT;
    if (!zone.coarse) zone.cells = fine;
    else {
      const coarse = new Set<number>();
      for (const [from, to] of lonRanges) {
        for (let row = Math.floor((minLat + 90) / 10); row <= Math.min(17, Math.floor((maxLat + 90) / 10)); row++) {
          for (let column = Math.floor((from + 180) / 10); column <= Math.min(35, Math.floor((to + 180) / 10)); column++) coarse.add(row * 36 + column);
        }
      }
      zone.cells = [...coarse];
    }
    const grid = zone.coarse ? this.#coarse : this.#fine;
    for (const cell of zone.cells) {
      const zones = grid.get(cell);
      if (zones === undefined) grid.set(cell, [zone]);
      else zones.push(zone);
    }
  }

  #unfile(zone: WatchedZone): void {
    const grid = zone.coarse ? this.#coarse : this.#fine;
    for (const cell of zone.cells) {
      const rest = grid.get(cell)!.filter((filed) => filed !== zone);
      if (rest.length === 0) grid.delete(cell);
      else grid.set(cell, rest);
    }
  }
}

function visitSubject(zone: WatchedZone, mmsi: number, member: FleetMember | undefined): EventSubject {
  const subject: EventSubject = { type: 'zone_vessel', id: visitKey(zone.id, mmsi), mmsi, zone_id: zone.id };
  if (member !== undefined) subject.vehicle_id = member.vehicle_id;
  return subject;
}

const zoneSubject = (zone: WatchedZone): EventSubject => ({ type: 'zone', id: zone.id, zone_id: zone.id });

function cappedEvent(zone: WatchedZone): NewEvent {
  return {
    kind: 'vessel.zone_entered',
    severity: 'info',
    subject: zoneSubject(zone),
    summary: `The zone ${zone.name} holds ${OTHER_EVENTS_CAP} open events about vessels outside your fleet; ` +
      'others entering or leaving it raise none until there are fewer.',
    data: { zone_name: zone.name, capped: true, cap: OTHER_EVENTS_CAP },
  };
}
