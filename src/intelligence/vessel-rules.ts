// Vessel rules: what LAMIS raises about vessels from AIS, for each owner whose fleet holds the
// vessel (a fleet vessel: a vehicle of type vessel with an MMSI) and, for zones, for other vessels
// a zone watches by category or flag.
//
// - `vessel.port_arrival` / `vessel.port_departure` (info), from the port calls
//   (`maritime.port_calls`). The open one says where the vessel is: the arrival opens when a call
//   opens (and notes the berthing), and clears when the vessel departs; the departure opens then and
//   clears at the next arrival.
// - `vessel.zone_entered` / `vessel.zone_exited`: zone-watch.ts.
// - `vessel.ais_gap` (warning): a fleet vessel under way (SOG above UNDER_WAY_KN, or navigational
//   status under way when no SOG is given) has not been heard for AIS_GAP_MS; checked every
//   SWEEP_MS, cleared (with the silence's length) by its next position report.
// - `vessel.voyage_changed` (info): a fleet vessel's static and voyage data (AIS types 5 and 24)
//   name another destination or draught than before (a first report, or a field going blank, is
//   no change). Further changes while it is open update it, from the values before the first;
//   it clears after NOTICE_MS.
// - `vessel.encounter`: encounters.ts.
//
// Hot path: every AIS change costs Map look-ups (whose fleets hold the vessel, the zones of its
// grid cell, the encounter grid); storage is touched only on an edge, through the EdgeWriter, in
// order. Fleets and zones are kept in memory and refreshed from their bus topics. At start the
// fleets, zones and open events are read back and every known vessel is placed where it is, so a
// restart neither loses nor raises an event again.
import { EventStore, type EventKind, type EventSubject, type LamisEvent, type NewEvent } from '../events/index.ts';
import type { FleetStore, VehicleChange } from '../fleet/index.ts';
import type { MaritimeWatch, PortCallEvent, Vessel, VesselChange, VesselPosition } from '../maritime/index.ts';
import type { Bus } from '../platform/bus/index.ts';
import type { Database } from '../platform/db/database.ts';
import type { ZoneChange, ZoneStore } from '../zones/index.ts';
import { EdgeWriter, type EventEdge } from './edges.ts';
import { EncounterWatch } from './encounters.ts';
import { FleetIndex, type FleetMember } from './fleet-index.ts';
import { positionFacts, vesselName } from './vessel-facts.ts';
import { NOTICE_MS, ZoneWatch } from './zone-watch.ts';

export const AIS_GAP_MS = 15 * 60_000;
export const UNDER_WAY_KN = 0.5;
/** Under way using engine, under way sailing. */
const UNDER_WAY_STATUSES: ReadonlySet<number> = new Set([0, 8]);
/** How often silences, expired notices and lost encounters are looked for. */
export const SWEEP_MS = 60_000;

export const VESSEL_RULE_KINDS: readonly EventKind[] = [
  'vessel.port_arrival', 'vessel.port_departure', 'vessel.zone_entered', 'vessel.zone_exited', 'vessel.ais_gap',
  'vessel.voyage_changed', 'vessel.encounter',
];
/** Kinds about one vessel of a fleet (subject `{type: "vessel", id: "<mmsi>"}`). */
const VESSEL_SUBJECT_KINDS = ['vessel.port_arrival', 'vessel.port_departure', 'vessel.ais_gap', 'vessel.voyage_changed'] as const;

interface Voyage {
  destination: string | null;
  draught: number | null;
}

interface Silence {
  heardAtMs: number;
  facts: Record<string, unknown>;
}

export interface VesselRulesInputs {
  database: Database;
  bus: Bus;
  fleet: Pick<FleetStore, 'get' | 'fleetVessels'>;
  zones: Pick<ZoneStore, 'get' | 'all'>;
  watch: MaritimeWatch;
  onError(error: unknown, edge: EventEdge): void;
}

const underWay = (position: VesselPosition) =>
  position.sog !== null ? position.sog > UNDER_WAY_KN : position.nav_status !== null && UNDER_WAY_STATUSES.has(position.nav_status);

const vesselSubject = (mmsi: number, member: FleetMember, extra: Partial<EventSubject> = {}): EventSubject =>
  ({ type: 'vessel', id: String(mmsi), mmsi, vehicle_id: member.vehicle_id, ...extra });

export class VesselRules {
  readonly #inputs: VesselRulesInputs;
  readonly #fleet = new FleetIndex();
  readonly #zones: ZoneWatch;
  readonly #encounters: EncounterWatch;
  readonly #writer: EdgeWriter;
  /** Fleet vessels' latest voyage data, to tell a change. */
  readonly #voyages = new Map<number, Voyage>();
  /** Open voyage_changed events: when they opened, and the values before the first change. */
  readonly #voyageNotices = new Map<number, { openedAtMs: number; from: Voyage }>();
  /** Open ais_gap events. */
  readonly #silences = new Map<number, Silence>();
  /** Edges of the change being handled; reused, so a change without edges allocates nothing. */
  readonly #edges: EventEdge[] = [];

  constructor(inputs: VesselRulesInputs) {
    this.#inputs = inputs;
    const { watch } = inputs;
    const membersOf = (mmsi: number) => this.#fleet.membersOf(mmsi);
    this.#zones = new ZoneWatch({ vessel: (mmsi) => watch.vessel(mmsi) ?? undefined, inBox: (box) => watch.inBox(box), membersOf });
    this.#encounters = new EncounterWatch({ vessel: (mmsi) => watch.vessel(mmsi) ?? undefined, membersOf, portAreaAt: (position) => watch.portAreaAt(position) });
    this.#writer = new EdgeWriter(inputs.database, inputs.bus, inputs.onError);
  }

  get fleetSize(): number {
    return this.#fleet.size;
  }

  /** The zones the vessel is inside (as the zone watch sees it). */
  zonesOf(mmsi: number): string[] {
    return this.#zones.zonesOf(mmsi);
  }

  /** Reads the fleets, zones and open events back, and places every known vessel. */
  async start(nowMs = Date.now()): Promise<void> {
    const { fleet, zones, database, bus, watch } = this.#inputs;
    const [vessels, owned, open] = await Promise.all([fleet.fleetVessels(), zones.all(), new EventStore(database, bus).openOfKinds(VESSEL_RULE_KINDS)]);
    for (const vessel of vessels) this.#fleet.add(vessel);
    const edges: EventEdge[] = [];
    for (const zone of owned) this.#zones.setZone(zone, edges);
    const ofKind = (...kinds: EventKind[]) => open.filter((event) => kinds.includes(event.kind));
    this.#zones.restore(ofKind('vessel.zone_entered', 'vessel.zone_exited'), watch.vessels(), nowMs, edges);
    this.#encounters.restore(ofKind('vessel.encounter'));
    for (const event of ofKind('vessel.ais_gap')) this.#silences.set(event.subject.mmsi!, silenceOf(event));
    for (const event of ofKind('vessel.voyage_changed')) this.#voyageNotices.set(event.subject.mmsi!, voyageNoticeOf(event));
    for (const mmsi of this.#fleet.mmsis()) {
      const vessel = watch.vessel(mmsi);
      if (vessel !== null) this.#voyages.set(mmsi, { destination: vessel.destination, draught: vessel.draught });
    }
    this.#writer.write(edges);
  }

  /** One vessel change (`maritime.vessels`): the hot path. */
  observe(change: VesselChange): void {
    const { vessel } = change;
    const members = this.#fleet.membersOf(vessel.mmsi);
    const edges = this.#edges;
    if (change.position) {
      this.#zones.observe(vessel, members, edges);
      this.#encounters.observe(vessel, members !== undefined, edges);
      if (members !== undefined && this.#silences.has(vessel.mmsi)) this.#silenceEnded(vessel, members, edges);
    } else if (change.static) {
      // Static data may make a zone watch the vessel (its category known at last) where it
      // already lies: no boundary was crossed.
      this.#zones.observe(vessel, members, edges, true);
    }
    if (change.static && members !== undefined) this.#voyageChange(vessel, members, edges);
    if (edges.length > 0) {
      this.#writer.write(edges);
      edges.length = 0;
    }
  }

  /** A port call opened, berthed or ended (`maritime.port_calls`). */
  portCall({ kind, call }: PortCallEvent): void {
    const members = this.#fleet.membersOf(call.mmsi);
    if (members === undefined) return;
    const port = this.#inputs.watch.port(call.port_id);
    const portName = port?.name ?? call.port_id;
    const name = call.vessel_name?.trim() || vesselName({ mmsi: call.mmsi, name: this.#inputs.watch.vessel(call.mmsi)?.name ?? null });
    const data = {
      port_id: call.port_id, port_name: portName, call_id: call.id, arrived_at: call.arrived_at, arrival_status: call.arrival_status,
      arrival_observed: call.arrival_observed, berthed_at: call.berthed_at, draught_arrival_m: call.draught_arrival_m,
    };
    const edges: EventEdge[] = [];
    for (const member of members) {
      const subject = vesselSubject(call.mmsi, member, { port_id: call.port_id });
      const arrival: NewEvent = { kind: 'vessel.port_arrival', severity: 'info', subject, summary: `${name} arrived at ${portName}.`, data };
      if (kind === 'arrival') {
        edges.push({ action: 'clear', owner: member.owner, kind: 'vessel.port_departure', subject, observedAt: call.arrived_at });
        edges.push({ action: 'open', owner: member.owner, event: arrival, observedAt: call.arrived_at });
      } else if (kind === 'berthed') {
        edges.push({ action: 'update', owner: member.owner, kind: 'vessel.port_arrival', subject, changes: { summary: `${name} arrived at ${portName} and is at berth.`, data } });
      } else {
        const observedAt = call.departed_at ?? undefined;
        edges.push({ action: 'clear', owner: member.owner, kind: 'vessel.port_arrival', subject, observedAt });
        edges.push({
          action: 'open',
          owner: member.owner,
          event: {
            kind: 'vessel.port_departure', severity: 'info', subject, summary: `${name} left ${portName}.`,
            data: { ...data, departed_at: call.departed_at, departure_observed: call.departure_observed, draught_departure_m: call.draught_departure_m },
          },
          observedAt,
        });
      }
    }
    this.#writer.write(edges);
  }

  /** A vehicle was added, changed or removed (`fleet.vehicles`): the fleet index follows. Settings change no membership. */
  async fleetChanged({ org_id: owner, vehicle_id: vehicleId, change }: VehicleChange): Promise<void> {
    if (vehicleId === null || change === 'settings') return;
    const vehicle = await this.#inputs.fleet.get(owner, vehicleId);
    const mmsi = vehicle?.vehicle_type === 'vessel' ? vehicle.mmsi : null;
    const before = this.#fleet.mmsiOf(owner, vehicleId);
    if (before === (mmsi ?? undefined)) return;
    const edges: EventEdge[] = [];
    if (before !== undefined) {
      this.#fleet.remove(owner, vehicleId);
      this.#leftFleet(before, owner, vehicleId, edges);
    }
    if (mmsi !== null) {
      this.#fleet.add({ owner, vehicle_id: vehicleId, mmsi });
      const vessel = this.#inputs.watch.vessel(mmsi);
      if (vessel !== null) {
        if (!this.#voyages.has(mmsi)) this.#voyages.set(mmsi, { destination: vessel.destination, draught: vessel.draught });
        // Where it lies now is no crossing.
        this.#zones.observe(vessel, this.#fleet.membersOf(mmsi), edges, true);
      }
    }
    this.#writer.write(edges);
  }

  /** A zone was added, changed or removed (`zones.changes`): the zone index follows. */
  async zoneChanged({ owner, zone_id: zoneId }: ZoneChange): Promise<void> {
    const zone = await this.#inputs.zones.get(owner, zoneId);
    const edges: EventEdge[] = [];
    if (zone === null) this.#zones.removeZone(zoneId, edges);
    else this.#zones.setZone({ ...zone, owner }, edges);
    this.#writer.write(edges);
  }

  /** Silences, notices past their day, lost encounters. */
  sweep(nowMs = Date.now()): void {
    const edges: EventEdge[] = [];
    const { watch } = this.#inputs;
    // ISO times compare as text: no parsing for the many vessels heard lately.
    const silentBefore = new Date(nowMs - AIS_GAP_MS).toISOString();
    for (const mmsi of this.#fleet.mmsis()) {
      const vessel = watch.vessel(mmsi);
      const position = vessel?.position;
      if (position == null || position.timestamp >= silentBefore || this.#silences.has(mmsi) || !underWay(position)) continue;
      this.#silenceStarted(vessel!, Date.parse(position.timestamp), nowMs, edges);
    }
    for (const [mmsi, notice] of this.#voyageNotices) {
      if (nowMs - notice.openedAtMs < NOTICE_MS) continue;
      this.#voyageNotices.delete(mmsi);
      for (const member of this.#fleet.membersOf(mmsi) ?? []) {
        edges.push({ action: 'clear', owner: member.owner, kind: 'vessel.voyage_changed', subject: vesselSubject(mmsi, member) });
      }
    }
    this.#zones.expire(nowMs, edges);
    this.#encounters.expire(nowMs, edges);
    this.#writer.write(edges);
  }

  /** Resolves once every edge so far is in storage. */
  settled(): Promise<void> {
    return this.#writer.settled();
  }

  #silenceStarted(vessel: Vessel, heardAtMs: number, nowMs: number, edges: EventEdge[]): void {
    const facts = positionFacts(vessel);
    this.#silences.set(vessel.mmsi, { heardAtMs, facts });
    const minutes = Math.floor((nowMs - heardAtMs) / 60_000);
    for (const member of this.#fleet.membersOf(vessel.mmsi)!) {
      edges.push({
        action: 'open',
        owner: member.owner,
        event: {
          kind: 'vessel.ais_gap',
          severity: 'warning',
          subject: vesselSubject(vessel.mmsi, member),
          summary: `${vesselName(vessel)} has not been heard for ${minutes} minutes while under way.`,
          data: { last_heard_at: new Date(heardAtMs).toISOString(), silent_minutes: minutes, threshold_minutes: AIS_GAP_MS / 60_000, ...facts },
        },
        observedAt: new Date(nowMs).toISOString(),
      });
    }
  }

  #silenceEnded(vessel: Vessel, members: readonly FleetMember[], edges: EventEdge[]): void {
    const silence = this.#silences.get(vessel.mmsi)!;
    this.#silences.delete(vessel.mmsi);
    const resumedAt = vessel.position!.timestamp;
    const minutes = Math.max(0, Math.round((Date.parse(resumedAt) - silence.heardAtMs) / 60_000));
    for (const member of members) {
      edges.push({
        action: 'clear',
        owner: member.owner,
        kind: 'vessel.ais_gap',
        subject: vesselSubject(vessel.mmsi, member),
        changes: {
          summary: `${vesselName(vessel)} was not heard for ${minutes} minutes while under way; it reports again.`,
          data: {
            last_heard_at: new Date(silence.heardAtMs).toISOString(), resumed_at: resumedAt, silent_minutes: minutes,
            threshold_minutes: AIS_GAP_MS / 60_000, ...silence.facts,
          },
        },
        observedAt: resumedAt,
      });
    }
  }

  #voyageChange(vessel: Vessel, members: readonly FleetMember[], edges: EventEdge[]): void {
    const now: Voyage = { destination: vessel.destination, draught: vessel.draught };
    const before = this.#voyages.get(vessel.mmsi);
    this.#voyages.set(vessel.mmsi, now);
    if (before === undefined) return;
    const changed = (field: keyof Voyage) => before[field] !== null && now[field] !== null && before[field] !== now[field];
    if (!changed('destination') && !changed('draught')) return;
    const at = vessel.static_updated_at ?? vessel.last_update;
    const notice = this.#voyageNotices.get(vessel.mmsi);
    const from = notice?.from ?? before;
    const content = voyageContent(vessel, from, now, at);
    if (notice === undefined) this.#voyageNotices.set(vessel.mmsi, { openedAtMs: Date.parse(at), from: before });
    for (const member of members) {
      const subject = vesselSubject(vessel.mmsi, member);
      if (notice === undefined) edges.push({ action: 'open', owner: member.owner, event: { kind: 'vessel.voyage_changed', severity: 'info', subject, ...content }, observedAt: at });
      else edges.push({ action: 'update', owner: member.owner, kind: 'vessel.voyage_changed', subject, changes: content });
    }
  }

  #leftFleet(mmsi: number, owner: string, vehicleId: string, edges: EventEdge[]): void {
    this.#zones.forget(mmsi, owner, edges);
    const member = { owner, vehicle_id: vehicleId };
    for (const kind of VESSEL_SUBJECT_KINDS) edges.push({ action: 'clear', owner, kind, subject: vesselSubject(mmsi, member) });
    if (this.#fleet.membersOf(mmsi) !== undefined) return;
    this.#silences.delete(mmsi);
    this.#voyages.delete(mmsi);
    this.#voyageNotices.delete(mmsi);
    this.#encounters.leftEveryFleet(mmsi);
  }
}

function voyageContent(vessel: Vessel, from: Voyage, now: Voyage, at: string): Pick<NewEvent, 'summary' | 'data'> {
  const parts: string[] = [];
  if (from.destination !== now.destination) parts.push(`its destination from ${from.destination ?? 'none'} to ${now.destination ?? 'none'}`);
  if (from.draught !== now.draught) parts.push(`its draught from ${from.draught ?? '?'} m to ${now.draught ?? '?'} m`);
  return {
    summary: parts.length > 0 ? `${vesselName(vessel)} changed ${parts.join(' and ')}.` : `${vesselName(vessel)} changed its voyage data back to what it was.`,
    data: { destination: { old: from.destination, new: now.destination }, draught_m: { old: from.draught, new: now.draught }, changed_at: at },
  };
}

function silenceOf(event: LamisEvent): Silence {
  const { last_heard_at: heard, ...facts } = event.data as { last_heard_at?: string };
  return { heardAtMs: heard === undefined ? Date.parse(event.opened_at) : Date.parse(heard), facts: { position: (facts as Record<string, unknown>).position ?? null } };
}

function voyageNoticeOf(event: LamisEvent): { openedAtMs: number; from: Voyage } {
  const data = event.data as { destination?: { old?: string | null }; draught_m?: { old?: number | null } };
  return { openedAtMs: Date.parse(event.opened_at), from: { destination: data.destination?.old ?? null, draught: data.draught_m?.old ?? null } };
}
