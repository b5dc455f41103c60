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

  /** Inserts a new call, or replaces what is stored under its id (a later event of the same call). */
  async save(call: PortCall): Promise<void> {
    const values = row(call);
    await this.#database.db
      .insertInto('port_calls')
      .values(values)
      .onConflict((oc) => oc.column('id').doUpdateSet({
        berthed_at: values.berthed_at,
        berth_lat: values.berth_lat,
        berth_lon: values.berth_lon,
        departed_at: values.departed_at,
        departure_observed: values.departure_observed,
        draught_departure_m: values.draught_departure_m,
      }))
      .execute();
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
