// Berth records: the berths of a port with their length, depth, the cargo they handle and, where
// known, their position. Records the instance's operators make are shared: every caller sees them.
// Records an organisation makes are its own: it alone sees them, in lists, in the berth capacity
// and in availability, so nothing one organisation writes changes another's answers. Each record
// names the organisation that made it (null: shared). Names are unique within what one
// organisation sees: an organisation's record may not take the name of a shared one or another of
// its own, and a shared record may not take a name any organisation's record has.
// Who may change what is decided by the routes (berths.routes.ts).
//
// Where a port has no records, its berth capacity is estimated (see `capacityOf`).
import { createHash } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { Database, Tables } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { fold, words } from '../../platform/text.ts';
import type { HarbourSize, Port } from './model.ts';
import type { BerthsTable } from './berths.table.ts';

export const CARGO_TYPES = [
  'container', 'dry_bulk', 'liquid_bulk', 'gas', 'general_cargo', 'ro_ro', 'passenger', 'fishing', 'offshore', 'other',
] as const;
export type CargoType = (typeof CARGO_TYPES)[number];

export type Berth = {
  readonly id: string;
  readonly port_id: string;
  readonly name: string;
  readonly length_m: number | null;
  readonly depth_m: number | null;
  readonly cargo_types: readonly CargoType[];
  readonly lat: number | null;
  readonly lon: number | null;
  /** The organisation that made the record, which alone sees it; null: an operator of this instance (shared). */
  readonly organisation_id: string | null;
  readonly created_at: string;
  readonly updated_at: string;
};

export type BerthFields = {
  readonly name: string;
  readonly length_m: number | null;
  readonly depth_m: number | null;
  readonly cargo_types: readonly CargoType[];
  readonly lat: number | null;
  readonly lon: number | null;
};

/** Who makes a record: the organisation (null for operators) and the id idempotency keys are scoped to. */
export type BerthAuthor = { readonly organisation_id: string | null; readonly created_by: string };

/** Whose records a read covers: the shared ones and those of this organisation (null: the shared ones only, as for operators). */
export type BerthViewer = string | null;

/** Sort key of a port's berth list: the folded name, then the id. */
export type BerthCursor = readonly [nameKey: string, id: string];

/** `name_taken` names the record that has the name. */
export type CreateBerthResult = { status: 'created' | 'existing' | 'key_reused' | 'name_taken'; berth: Berth };

export type UpdateBerthResult = { status: 'updated' | 'name_taken'; berth: Berth } | { status: 'not_found' };

/**
 * Berths LAMIS assumes a port has when nobody has recorded any, by World Port Index harbour size.
 * LAMIS's own round figures for berths that take sea-going ships, not a source's; "unknown" is
 * for ports the WPI does not describe (the built-in data alone), most of them commercial ports.
 */
export const ESTIMATED_BERTHS: Readonly<Record<HarbourSize | 'unknown', number>> = {
  large: 40,
  medium: 15,
  small: 6,
  very_small: 2,
  unknown: 10,
};

export type Capacity = {
  /** `berths`: the records; `estimate`: no records, so the larger of the harbour-size figure and the observed peak. */
  readonly basis: 'berths' | 'estimate';
  readonly berths: number;
  /** With `estimate`: the figure for the harbour size, and the most vessels seen moored at once lately. */
  readonly by_harbour_size: number | null;
  readonly observed_peak: number | null;
};

/** The port's berth capacity: its records, or an estimate never below what was seen moored at once. */
export function capacityOf(port: Port, recorded: number, observedPeak: number): Capacity {
  if (recorded > 0) return { basis: 'berths', berths: recorded, by_harbour_size: null, observed_peak: null };
  const bySize = ESTIMATED_BERTHS[port.harbour_size ?? 'unknown'];
  return { basis: 'estimate', berths: Math.max(bySize, observedPeak), by_harbour_size: bySize, observed_peak: observedPeak };
}

/** A berth name as compared for uniqueness: case, accents, punctuation and spacing ignored. */
export function berthNameKey(name: string): string {
  return words(fold(name));
}

function berthOf(row: BerthsTable): Berth {
  return {
    id: row.id,
    port_id: row.port_id,
    name: row.name,
    length_m: row.length_m,
    depth_m: row.depth_m,
    cargo_types: JSON.parse(row.cargo_types) as CargoType[],
    lat: row.lat,
    lon: row.lon,
    organisation_id: row.organisation_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The shared records and the viewer's own. */
function seenBy(viewer: BerthViewer) {
  return (eb: ExpressionBuilder<Tables, 'berths'>) =>
    viewer === null ? eb('organisation_id', 'is', null) : eb.or([eb('organisation_id', 'is', null), eb('organisation_id', '=', viewer)]);
}

/** Cargo types once each, in the order of CARGO_TYPES. */
function cargoColumn(types: readonly CargoType[]): string {
  return JSON.stringify(CARGO_TYPES.filter((type) => types.includes(type)));
}

export class BerthStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** A page of the port's berths the viewer sees, by name. */
  async page(portId: string, viewer: BerthViewer, limit: number, after?: BerthCursor): Promise<Berth[]> {
    let query = this.#database.db.selectFrom('berths').selectAll().where('port_id', '=', portId).where(seenBy(viewer));
    if (after !== undefined) {
      const [nameKey, id] = after;
      query = query.where((eb) => eb.or([eb('name_key', '>', nameKey), eb.and([eb('name_key', '=', nameKey), eb('id', '>', id)])]));
    }
    const rows = await query.orderBy('name_key').orderBy('id').limit(limit).execute();
    return rows.map(berthOf);
  }

  /** Every berth of the port the viewer sees, by name. */
  async all(portId: string, viewer: BerthViewer): Promise<Berth[]> {
    const rows = await this.#database.db.selectFrom('berths').selectAll().where('port_id', '=', portId).where(seenBy(viewer))
      .orderBy('name_key').orderBy('id').execute();
    return rows.map(berthOf);
  }

  async count(portId: string, viewer: BerthViewer): Promise<number> {
    const result = await this.#database.db
      .selectFrom('berths')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('port_id', '=', portId)
      .where(seenBy(viewer))
      .executeTakeFirstOrThrow();
    return Number(result.count);
  }

  /** One berth the viewer sees; `every`: any berth of the port (operators). */
  async get(portId: string, id: string, viewer: BerthViewer | 'every'): Promise<Berth | null> {
    let query = this.#database.db.selectFrom('berths').selectAll().where('port_id', '=', portId).where('id', '=', id);
    if (viewer !== 'every') query = query.where(seenBy(viewer));
    const row = await query.executeTakeFirst();
    return row === undefined ? null : berthOf(row);
  }

  /**
   * A berth other than `exceptId` whose name a record of `owner` may not take: within what the
   * owner sees, or, for a shared record (owner null), at any organisation.
   */
  async #nameClash(portId: string, nameKey: string, owner: string | null, exceptId?: string): Promise<Berth | undefined> {
    let query = this.#database.db.selectFrom('berths').selectAll().where('port_id', '=', portId).where('name_key', '=', nameKey);
    if (owner !== null) query = query.where(seenBy(owner));
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const row = await query.executeTakeFirst();
    return row === undefined ? undefined : berthOf(row);
  }

  /** `idempotencyKey` makes a retry answer the berth the key made (`existing`), or `key_reused` for other fields. */
  async create(portId: string, fields: BerthFields, author: BerthAuthor, idempotencyKey?: string): Promise<CreateBerthResult> {
    const db = this.#database.db;
    const fingerprint = idempotencyKey === undefined
      ? null
      : createHash('sha256').update(JSON.stringify({ portId, ...fields, cargo_types: cargoColumn(fields.cargo_types) })).digest('base64url');
    const nameKey = berthNameKey(fields.name);
    const settled = async (): Promise<CreateBerthResult | null> => {
      if (idempotencyKey !== undefined) {
        const previous = await db.selectFrom('berths').selectAll()
          .where('created_by', '=', author.created_by).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
        if (previous !== undefined) return { status: previous.idempotency_fingerprint === fingerprint ? 'existing' : 'key_reused', berth: berthOf(previous) };
      }
      const clash = await this.#nameClash(portId, nameKey, author.organisation_id);
      return clash === undefined ? null : { status: 'name_taken', berth: clash };
    };
    const previous = await settled();
    if (previous !== null) return previous;

    const now = new Date().toISOString();
    const row: BerthsTable = {
      id: newId('brt'),
      port_id: portId,
      name: fields.name,
      name_key: nameKey,
      length_m: fields.length_m,
      depth_m: fields.depth_m,
      cargo_types: cargoColumn(fields.cargo_types),
      lat: fields.lat,
      lon: fields.lon,
      organisation_id: author.organisation_id,
      created_by: author.created_by,
      idempotency_key: idempotencyKey ?? null,
      idempotency_fingerprint: fingerprint,
      created_at: now,
      updated_at: now,
    };
    try {
      await db.insertInto('berths').values(row).execute();
    } catch (error) {
      // A concurrent request took the name or the key between the checks and the insert.
      const raced = await settled();
      if (raced !== null) return raced;
      throw error;
    }
    return { status: 'created', berth: berthOf(row) };
  }

  /** Replaces the fields of a berth (the caller merges a patch into the current ones). */
  async update(portId: string, id: string, fields: BerthFields): Promise<UpdateBerthResult> {
    const db = this.#database.db;
    const current = await this.get(portId, id, 'every');
    if (current === null) return { status: 'not_found' };
    const nameKey = berthNameKey(fields.name);
    const clash = () => this.#nameClash(portId, nameKey, current.organisation_id, id);
    const taken = await clash();
    if (taken !== undefined) return { status: 'name_taken', berth: taken };
    try {
      const result = await db.updateTable('berths')
        .set({
          name: fields.name,
          name_key: nameKey,
          length_m: fields.length_m,
          depth_m: fields.depth_m,
          cargo_types: cargoColumn(fields.cargo_types),
          lat: fields.lat,
          lon: fields.lon,
          updated_at: new Date().toISOString(),
        })
        .where('port_id', '=', portId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return { status: 'not_found' };
    } catch (error) {
      // A concurrent request took the name between the check and the update.
      const raced = await clash();
      if (raced !== undefined) return { status: 'name_taken', berth: raced };
      throw error;
    }
    const berth = await this.get(portId, id, 'every');
    return berth === null ? { status: 'not_found' } : { status: 'updated', berth };
  }

  async delete(portId: string, id: string): Promise<boolean> {
    const result = await this.#database.db.deleteFrom('berths').where('port_id', '=', portId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** How close (metres) a moored vessel's position must lie to a berth's to be placed at it. */
export function berthReachM(berth: Pick<Berth, 'length_m'>): number {
  return berth.length_m === null ? 250 : berth.length_m / 2 + 150;
}
