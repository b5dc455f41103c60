// Planned arrivals: where and when a fleet aircraft or helicopter is due to land, the input the
// intelligence engine watches. An arrival is watched until an hour after its ETA (a late landing
// is still of interest), then archived; the state is derived from the clock, never stored, so
// nothing has to run for an arrival to be archived. Every query is scoped to the owner, and goes
// through the vehicle: another owner's vehicle or arrival is indistinguishable from none.
//
// The destination is stored as the airport's ICAO code when the airport data knows it (an IATA code
// is turned into one by the routes); otherwise it is checked for form (3 or 4 letters or digits), as
// the vehicle's home base is: the airport reference data leaves out fields a fleet may well fly to,
// and an arrival the engine has no airport data for is still worth keeping.
import type { Database } from '../platform/db/database.ts';
import { newId } from '../platform/ids.ts';
import type { PlannedArrivalRow } from './arrivals.table.ts';

/** How long after its ETA an arrival is still watched. */
export const WATCH_AFTER_ETA_MS = 60 * 60_000;

export const ARRIVAL_STATES = ['watched', 'archived'] as const;
export type ArrivalState = (typeof ARRIVAL_STATES)[number];

/** The vehicle types that land at airports. */
const LANDS = ['aircraft', 'helicopter'];

export interface PlannedArrival {
  id: string;
  vehicle_id: string;
  destination_icao: string;
  eta_utc: string;
  state: ArrivalState;
  /** Until when the arrival is watched: an hour after the ETA. */
  watched_until: string;
  created_at: string;
  updated_at: string;
}

/** Sort key of a vehicle's list: ETA, then id. */
export type ArrivalKey = readonly [eta_utc: string, id: string];

export type ArrivalCreateResult = { status: 'created'; arrival: PlannedArrival } | { status: 'vehicle_not_found' } | { status: 'cannot_land'; vehicle_type: string };

export class ArrivalStore {
  readonly #db: Database['db'];

  constructor(database: Database) {
    this.#db = database.db;
  }

  /** `etaMs` is checked by the caller against the ETA window; the code is upper-cased. */
  async create(owner: string, vehicleId: string, destination: string, etaMs: number, nowMs: number): Promise<ArrivalCreateResult> {
    const vehicle = await this.#db.selectFrom('fleet_vehicles').select('vehicle_type').where('org_id', '=', owner).where('id', '=', vehicleId).executeTakeFirst();
    if (!vehicle) return { status: 'vehicle_not_found' };
    if (!LANDS.includes(vehicle.vehicle_type)) return { status: 'cannot_land', vehicle_type: vehicle.vehicle_type };
    const now = new Date(nowMs).toISOString();
    const row: PlannedArrivalRow = {
      id: newId('arr'),
      org_id: owner,
      vehicle_id: vehicleId,
      destination_icao: destination.toUpperCase(),
      eta_utc: new Date(etaMs).toISOString(),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.#db.insertInto('planned_arrivals').values(row).execute();
    } catch (error) {
      // The vehicle was removed between the look-up and the insert.
      if (!(await this.hasVehicle(owner, vehicleId))) return { status: 'vehicle_not_found' };
      throw error;
    }
    return { status: 'created', arrival: arrivalOf(row, nowMs) };
  }

  /** The vehicle's arrivals in `state` by ETA, `limit` after `after`; null when the owner has no such vehicle. */
  async list(owner: string, vehicleId: string, options: { state: ArrivalState; limit: number; after?: ArrivalKey; nowMs: number }): Promise<{ data: PlannedArrival[]; next: ArrivalKey | null } | null> {
    if (!(await this.hasVehicle(owner, vehicleId))) return null;
    const boundary = new Date(options.nowMs - WATCH_AFTER_ETA_MS).toISOString();
    let query = this.#db.selectFrom('planned_arrivals').selectAll().where('org_id', '=', owner).where('vehicle_id', '=', vehicleId)
      .where('eta_utc', options.state === 'watched' ? '>' : '<=', boundary);
    const after = options.after;
    if (after !== undefined) {
      query = query.where((eb) => eb.or([eb('eta_utc', '>', after[0]), eb.and([eb('eta_utc', '=', after[0]), eb('id', '>', after[1])])]));
    }
    const rows = await query.orderBy('eta_utc').orderBy('id').limit(options.limit + 1).execute();
    const data = rows.slice(0, options.limit).map((row) => arrivalOf(row, options.nowMs));
    const last = data[data.length - 1];
    return { data, next: rows.length > options.limit && last ? [last.eta_utc, last.id] : null };
  }

  async get(owner: string, vehicleId: string, id: string, nowMs: number): Promise<PlannedArrival | null> {
    const row = await this.#db.selectFrom('planned_arrivals').selectAll()
      .where('org_id', '=', owner).where('vehicle_id', '=', vehicleId).where('id', '=', id).executeTakeFirst();
    return row ? arrivalOf(row, nowMs) : null;
  }

  /** Moves the ETA; null when the owner's vehicle has no such arrival. */
  async reschedule(owner: string, vehicleId: string, id: string, etaMs: number, nowMs: number): Promise<PlannedArrival | null> {
    const row = await this.#db.updateTable('planned_arrivals')
      .set({ eta_utc: new Date(etaMs).toISOString(), updated_at: new Date(nowMs).toISOString() })
      .where('org_id', '=', owner).where('vehicle_id', '=', vehicleId).where('id', '=', id)
      .returningAll().executeTakeFirst();
    return row ? arrivalOf(row, nowMs) : null;
  }

  /** False when the owner's vehicle has no such arrival. */
  async delete(owner: string, vehicleId: string, id: string): Promise<boolean> {
    const deleted = await this.#db.deleteFrom('planned_arrivals')
      .where('org_id', '=', owner).where('vehicle_id', '=', vehicleId).where('id', '=', id).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }

  /**
   * The arrivals watched now, of every organisation, to `icao` or (null) anywhere: what the
   * intelligence engine evaluates. The only query not scoped to one owner; each names its owner.
   */
  async watched(icao: string | null, nowMs: number): Promise<(PlannedArrival & { org_id: string })[]> {
    let query = this.#db.selectFrom('planned_arrivals').selectAll().where('eta_utc', '>', new Date(nowMs - WATCH_AFTER_ETA_MS).toISOString());
    if (icao !== null) query = query.where('destination_icao', '=', icao.toUpperCase());
    const rows = await query.orderBy('eta_utc').orderBy('id').execute();
    return rows.map((row) => ({ ...arrivalOf(row, nowMs), org_id: row.org_id }));
  }

  /** The owner's arrivals watched now, of one vehicle or (null) of all its vehicles: what a change of the vehicle or its settings bears on. */
  async watchedOf(owner: string, vehicleId: string | null, nowMs: number): Promise<(PlannedArrival & { org_id: string })[]> {
    let query = this.#db.selectFrom('planned_arrivals').selectAll().where('org_id', '=', owner).where('eta_utc', '>', new Date(nowMs - WATCH_AFTER_ETA_MS).toISOString());
    if (vehicleId !== null) query = query.where('vehicle_id', '=', vehicleId);
    const rows = await query.orderBy('eta_utc').orderBy('id').execute();
    return rows.map((row) => ({ ...arrivalOf(row, nowMs), org_id: row.org_id }));
  }

  /** Whether the owner has this vehicle: tells a missing vehicle from a missing arrival. */
  async hasVehicle(owner: string, vehicleId: string): Promise<boolean> {
    return (await this.#db.selectFrom('fleet_vehicles').select('id').where('org_id', '=', owner).where('id', '=', vehicleId).executeTakeFirst()) !== undefined;
  }
}

function arrivalOf(row: PlannedArrivalRow, nowMs: number): PlannedArrival {
  const until = Date.parse(row.eta_utc) + WATCH_AFTER_ETA_MS;
  return {
    id: row.id,
    vehicle_id: row.vehicle_id,
    destination_icao: row.destination_icao,
    eta_utc: row.eta_utc,
    state: nowMs < until ? 'watched' : 'archived',
    watched_until: new Date(until).toISOString(),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
