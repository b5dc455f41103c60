// What the landing rules last saw for each watched arrival, kept in storage so that a restart tells
// a real change of the recommended runway, approach or destination status from a first look, and
// so that an archived or removed arrival's events are found and cleared. Read and written in
// batches: one airport's arrivals at a time.
import type { Database } from '../platform/db/database.ts';
import type { ArrivalLandingStateRow } from './arrival-state.table.ts';

export type ArrivalLandingState = Omit<ArrivalLandingStateRow, 'updated_at'>;

/** An arrival by its owner and id. */
export interface ArrivalRef {
  org_id: string;
  arrival_id: string;
}

/** Rows read or written at once, within the back ends' parameter limits (8 columns a row). */
const CHUNK = 500;

export class ArrivalStateStore {
  readonly #db: Database['db'];

  constructor(database: Database) {
    this.#db = database.db;
  }

  /** The state last seen of each arrival named, by arrival id. */
  async read(arrivalIds: readonly string[]): Promise<Map<string, ArrivalLandingState>> {
    const found = new Map<string, ArrivalLandingState>();
    for (let i = 0; i < arrivalIds.length; i += CHUNK) {
      const rows = await this.#db.selectFrom('arrival_landing_state').selectAll().where('arrival_id', 'in', arrivalIds.slice(i, i + CHUNK)).execute();
      for (const { updated_at: _, ...state } of rows) found.set(state.arrival_id, state);
    }
    return found;
  }

  /** Records what was seen, replacing what was there. */
  async write(states: readonly ArrivalLandingState[], nowMs: number): Promise<void> {
    if (states.length === 0) return;
    const updatedAt = new Date(nowMs).toISOString();
    await this.#db.transaction().execute(async (trx) => {
      for (let i = 0; i < states.length; i += CHUNK / 8) {
        await trx.insertInto('arrival_landing_state').values(states.slice(i, i + CHUNK / 8).map((state) => ({ ...state, updated_at: updatedAt })))
          .onConflict((oc) => oc.column('arrival_id').doUpdateSet((eb) => ({
            runway: eb.ref('excluded.runway'),
            approach: eb.ref('excluded.approach'),
            status: eb.ref('excluded.status'),
            watched_until: eb.ref('excluded.watched_until'),
            updated_at: eb.ref('excluded.updated_at'),
          })))
          .execute();
      }
    });
  }

  /** The arrivals watched until `nowMs` or earlier: archived since. */
  async archived(nowMs: number): Promise<ArrivalRef[]> {
    return this.#db.selectFrom('arrival_landing_state').select(['org_id', 'arrival_id'])
      .where('watched_until', '<=', new Date(nowMs).toISOString()).execute();
  }

  /** The arrivals of the owner's vehicle that were seen. */
  async ofVehicle(orgId: string, vehicleId: string): Promise<ArrivalRef[]> {
    return this.#db.selectFrom('arrival_landing_state').select(['org_id', 'arrival_id'])
      .where('org_id', '=', orgId).where('vehicle_id', '=', vehicleId).execute();
  }

  /** Every arrival seen, of every owner. */
  async all(): Promise<ArrivalRef[]> {
    return this.#db.selectFrom('arrival_landing_state').select(['org_id', 'arrival_id']).execute();
  }

  async remove(arrivalIds: readonly string[]): Promise<void> {
    for (let i = 0; i < arrivalIds.length; i += CHUNK) {
      await this.#db.deleteFrom('arrival_landing_state').where('arrival_id', 'in', arrivalIds.slice(i, i + CHUNK)).execute();
    }
  }
}
