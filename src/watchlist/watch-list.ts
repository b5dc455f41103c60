// The watch list: the airports and ports an organisation watches, for the intelligence engine to
// raise `airport.status_changed` and `port.weather_hold` about them. Every query of the routes is
// scoped to the owner (an organisation, or an API key outside any): another owner's entry is
// indistinguishable from none. Each airport or port is on an owner's list once; adding it again
// answers the entry already there. An owner keeps at most MAX_WATCH_ENTRIES entries; two
// concurrent additions at the cap may both get in, which the cap (a guard against runaway clients,
// not a billing limit) tolerates.
import type { Database } from '../platform/db/database.ts';
import { newId } from '../platform/ids.ts';
import type { WatchListRow } from './watch-list.table.ts';

export const MAX_WATCH_ENTRIES = 500;

export const WATCH_TYPES = ['airport', 'port'] as const;
export type WatchType = (typeof WATCH_TYPES)[number];

export type WatchEntry =
  | { id: string; type: 'airport'; icao: string; note: string | null; created_at: string; updated_at: string }
  | { id: string; type: 'port'; port_id: string; note: string | null; created_at: string; updated_at: string };

/** What is watched: the airport's ICAO code or the port's id, as the reference data names it. */
export interface WatchTarget {
  type: WatchType;
  target: string;
}

/** Sort key of the list: creation time, then id. */
export type WatchKey = readonly [created_at: string, id: string];

export type AddResult = { status: 'created' | 'existing'; entry: WatchEntry } | { status: 'full' };

export class WatchListStore {
  readonly #db: Database['db'];

  constructor(database: Database) {
    this.#db = database.db;
  }

  async add(owner: string, target: WatchTarget, note: string | null): Promise<AddResult> {
    const existing = await this.#find(owner, target);
    if (existing) return { status: 'existing', entry: entryOf(existing) };
    const { count } = await this.#db.selectFrom('watch_list').select((eb) => eb.fn.countAll<number | string>().as('count')).where('org_id', '=', owner).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_WATCH_ENTRIES) return { status: 'full' };
    const now = new Date().toISOString();
    const row: WatchListRow = { id: newId('wat'), org_id: owner, type: target.type, target: target.target, note, created_at: now, updated_at: now };
    const inserted = await this.#db.insertInto('watch_list').values(row)
      .onConflict((oc) => oc.columns(['org_id', 'type', 'target']).doNothing()).returning('id').executeTakeFirst();
    if (inserted) return { status: 'created', entry: entryOf(row) };
    // Added by a concurrent request between the look-up and the insert.
    return { status: 'existing', entry: entryOf((await this.#find(owner, target))!) };
  }

  async get(owner: string, id: string): Promise<WatchEntry | null> {
    const row = await this.#db.selectFrom('watch_list').selectAll().where('org_id', '=', owner).where('id', '=', id).executeTakeFirst();
    return row ? entryOf(row) : null;
  }

  /** The owner's entries in creation order, `limit` after `after`, of one type when given; `next` is null on the last page. */
  async list(owner: string, options: { limit: number; type?: WatchType; after?: WatchKey }): Promise<{ data: WatchEntry[]; next: WatchKey | null }> {
    let query = this.#db.selectFrom('watch_list').selectAll().where('org_id', '=', owner);
    if (options.type !== undefined) query = query.where('type', '=', options.type);
    const after = options.after;
    if (after !== undefined) {
      query = query.where((eb) => eb.or([eb('created_at', '>', after[0]), eb.and([eb('created_at', '=', after[0]), eb('id', '>', after[1])])]));
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(options.limit + 1).execute();
    const data = rows.slice(0, options.limit).map(entryOf);
    const last = data[data.length - 1];
    return { data, next: rows.length > options.limit && last ? [last.created_at, last.id] : null };
  }

  /** Changes the note (null clears it); null when the owner has no such entry. */
  async setNote(owner: string, id: string, note: string | null): Promise<WatchEntry | null> {
    const row = await this.#db.updateTable('watch_list').set({ note, updated_at: new Date().toISOString() })
      .where('org_id', '=', owner).where('id', '=', id).returningAll().executeTakeFirst();
    return row ? entryOf(row) : null;
  }

  /** False when the owner has no such entry. */
  async delete(owner: string, id: string): Promise<boolean> {
    const deleted = await this.#db.deleteFrom('watch_list').where('org_id', '=', owner).where('id', '=', id).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }

  /** Every owner watching an airport or port of this type, with what it watches; of one target when given. */
  async watchers(type: WatchType, target?: string): Promise<{ org_id: string; target: string }[]> {
    let query = this.#db.selectFrom('watch_list').select(['org_id', 'target']).where('type', '=', type);
    if (target !== undefined) query = query.where('target', '=', target);
    const rows = await query.orderBy('target').orderBy('org_id').execute();
    return rows.map((row) => ({ org_id: row.org_id, target: row.target }));
  }

  async #find(owner: string, target: WatchTarget): Promise<WatchListRow | undefined> {
    return this.#db.selectFrom('watch_list').selectAll()
      .where('org_id', '=', owner).where('type', '=', target.type).where('target', '=', target.target).executeTakeFirst();
  }
}

function entryOf(row: WatchListRow): WatchEntry {
  const common = { id: row.id, note: row.note, created_at: row.created_at, updated_at: row.updated_at };
  return row.type === 'airport' ? { ...common, type: 'airport', icao: row.target } : { ...common, type: 'port', port_id: row.target };
}
