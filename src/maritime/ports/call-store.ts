// Port calls in storage (table in calls.table.ts): written as the detector reports them, read as
// pages newest first, and as the calls at a port over a span of time.
import type { Database } from '../../platform/db/database.ts';
import type { FeedSource } from '../vessels/store.ts';
import type { ArrivalStatus, PortCall } from './calls.ts';
import type { PortCallsTable } from './calls.table.ts';

/** Where a page of calls continues: after the call with this arrival time and id, newest first. */
export type CallCursor = readonly [arrivedAt: string, id: string];

export type CallFilter = {
  /** Calls that arrived at or after this time (ISO 8601). */
  readonly from?: string;
  /** Calls that arrived at or before this time. */
  readonly to?: string;
  /** `in_port`: not departed yet; `departed`: finished. */
  readonly state?: 'in_port' | 'departed';
  readonly limit: number;
  readonly after?: CallCursor;
};

function row(call: PortCall): PortCallsTable {
  return {
    ...call,
    arrival_observed: call.arrival_observed ? 1 : 0,
    departure_observed: call.departure_observed === null ? null : call.departure_observed ? 1 : 0,
  };
}

function callOf(stored: PortCallsTable): PortCall {
  return {
    id: stored.id,
    mmsi: stored.mmsi,
    port_id: stored.port_id,
    vessel_name: stored.vessel_name,
    imo: stored.imo,
    ship_type: stored.ship_type,
    arrived_at: stored.arrived_at,
    arrival_observed: stored.arrival_observed === 1,
    arrival_status: stored.arrival_status as ArrivalStatus,
    arrival_lat: stored.arrival_lat,
    arrival_lon: stored.arrival_lon,
    berthed_at: stored.berthed_at,
    berth_lat: stored.berth_lat,
    berth_lon: stored.berth_lon,
    departed_at: stored.departed_at,
    departure_observed: stored.departure_observed === null ? null : stored.departure_observed === 1,
    draught_arrival_m: stored.draught_arrival_m,
    draught_departure_m: stored.draught_departure_m,
    source: stored.source as FeedSource,
  };
}

export class PortCallStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /**
   * Stores a new call: null when it was stored, else the call storage holds for it. A vessel has
   * one open call at most (a unique index), so when instances read the same reports the first
   * one's call is stored and the others get it back. An open call of the vessel at another port
   * that began before this one was ended unseen (its instance stopped before it could tell): it
   * ends when this one begins, unobserved; one that began later is newer than this call, which is
   * not stored.
   */
  async arrive(call: PortCall): Promise<PortCall | null> {
    const db = this.#database.db;
    for (;;) {
      const inserted = await db.insertInto('port_calls').values(row(call)).onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirst();
      if (inserted !== undefined) return null;
      const stored = await db.selectFrom('port_calls').selectAll()
        .where((eb) => eb.or([eb('id', '=', call.id), eb.and([eb('mmsi', '=', call.mmsi), eb('departed_at', 'is', null)])]))
        .orderBy('arrived_at', 'desc').limit(1).executeTakeFirst();
      // Gone between the conflict and the look-up: try again.
      if (stored === undefined) continue;
      if (stored.id === call.id || stored.port_id === call.port_id || stored.arrived_at > call.arrived_at) return callOf(stored);
      await db.updateTable('port_calls').set({ departed_at: call.arrived_at, departure_observed: 0 })
        .where('id', '=', stored.id).where('departed_at', 'is', null).execute();
    }
  }

  /** Records the berthing of an open call; false when it was recorded before (by another instance). */
  async berth(call: PortCall): Promise<boolean> {
    const result = await this.#database.db.updateTable('port_calls')
      .set({ berthed_at: call.berthed_at, berth_lat: call.berth_lat, berth_lon: call.berth_lon })
      .where('id', '=', call.id).where('berthed_at', 'is', null).where('departed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends an open call; false when it had ended already (another instance saw the departure first). */
  async depart(call: PortCall): Promise<boolean> {
    const result = await this.#database.db.updateTable('port_calls')
      .set({ departed_at: call.departed_at, departure_observed: call.departure_observed ? 1 : 0, draught_departure_m: call.draught_departure_m })
      .where('id', '=', call.id).where('departed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Calls not departed yet, for the detector at start. */
  async open(): Promise<PortCall[]> {
    const rows = await this.#database.db.selectFrom('port_calls').selectAll().where('departed_at', 'is', null).orderBy('arrived_at').execute();
    return rows.map(callOf);
  }

  /** One page of a port's or a vessel's calls, newest arrival first. */
  async page(owner: { port_id: string } | { mmsi: number }, filter: CallFilter): Promise<PortCall[]> {
    let query = this.#database.db.selectFrom('port_calls').selectAll();
    query = 'port_id' in owner ? query.where('port_id', '=', owner.port_id) : query.where('mmsi', '=', owner.mmsi);
    if (filter.from !== undefined) query = query.where('arrived_at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('arrived_at', '<=', filter.to);
    if (filter.state === 'in_port') query = query.where('departed_at', 'is', null);
    if (filter.state === 'departed') query = query.where('departed_at', 'is not', null);
    if (filter.after !== undefined) {
      const [arrivedAt, id] = filter.after;
      query = query.where((eb) => eb.or([eb('arrived_at', '<', arrivedAt), eb.and([eb('arrived_at', '=', arrivedAt), eb('id', '<', id)])]));
    }
    const rows = await query.orderBy('arrived_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    return rows.map(callOf);
  }

  /** The calls at a port that arrived at or before `until` and had not departed by `since`. */
  async overlapping(portId: string, since: string, until: string): Promise<PortCall[]> {
    const rows = await this.#database.db
      .selectFrom('port_calls')
      .selectAll()
      .where('port_id', '=', portId)
      .where('arrived_at', '<=', until)
      .where((eb) => eb.or([eb('departed_at', 'is', null), eb('departed_at', '>', since)]))
      .orderBy('arrived_at')
      .execute();
    return rows.map(callOf);
  }

  /** Whether any call of this vessel is stored. */
  async hasCalls(mmsi: number): Promise<boolean> {
    const found = await this.#database.db.selectFrom('port_calls').select('id').where('mmsi', '=', mmsi).limit(1).executeTakeFirst();
    return found !== undefined;
  }
}
