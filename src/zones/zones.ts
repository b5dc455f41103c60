// Zones: each organisation's geofences, stored with the vessels they apply to, for the watcher to
// raise `vessel.zone_entered` and `vessel.zone_exited`. Every query is scoped to the owner (an
// organisation, or an API key outside any): another owner's zone is indistinguishable from none.
// An organisation keeps at most MAX_ZONES zones; two concurrent additions at the cap may both get
// in, which the cap (a guard against runaway clients, not a billing limit) tolerates.
import type { VesselCategory } from '../maritime/index.ts';
import type { Bus } from '../platform/bus/index.ts';
import type { Database } from '../platform/db/database.ts';
import { newId } from '../platform/ids.ts';
import type { ZoneGeometry } from './geometry.ts';
import { zoneChanges } from './zone-changes.ts';
import type { ZoneRow } from './zones.table.ts';

export const MAX_ZONES = 1000;

/** Which vessels a zone watches: the fleet's, narrowed by category and flag when given. */
export interface AppliesTo {
  fleet: true;
  /** Vessel categories (`CARGO`, `TANKER`, …); all when absent. */
  categories?: VesselCategory[];
  /** Flag states, ISO 3166-1 alpha-2; all when absent. */
  flags?: string[];
}

export interface Zone {
  id: string;
  name: string;
  description: string | null;
  geometry: ZoneGeometry;
  applies_to: AppliesTo;
  created_at: string;
  updated_at: string;
}

export type ZoneInput = Pick<Zone, 'name' | 'geometry'> & { description?: string | null; applies_to?: AppliesTo };
export type ZonePatch = Partial<ZoneInput>;

/** Sort key of the list: creation time, then id. */
export type ZoneKey = readonly [created_at: string, id: string];

/** A zone with the organisation (or API key) it belongs to. */
export type OwnedZone = Zone & { owner: string };

export class ZoneStore {
  readonly #db: Database['db'];
  readonly #bus: Bus | undefined;

  /** `bus`, when given, hears every zone added, changed or removed (`zoneChanges`). */
  constructor(database: Database, bus?: Bus) {
    this.#db = database.db;
    this.#bus = bus;
  }

  /** null when the owner already has MAX_ZONES zones. */
  async create(owner: string, input: ZoneInput): Promise<Zone | null> {
    const now = new Date().toISOString();
    const row: ZoneRow = {
      id: newId('zon'),
      org_id: owner,
      name: input.name,
      description: input.description ?? null,
      geometry: JSON.stringify(input.geometry),
      applies_to: JSON.stringify(input.applies_to ?? { fleet: true }),
      created_at: now,
      updated_at: now,
    };
    const { count } = await this.#db.selectFrom('zones').select((eb) => eb.fn.countAll<number | string>().as('count')).where('org_id', '=', owner).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_ZONES) return null;
    await this.#db.insertInto('zones').values(row).execute();
    await this.#announce(owner, row.id);
    return zoneOf(row);
  }

  async get(owner: string, id: string): Promise<Zone | null> {
    const row = await this.#db.selectFrom('zones').selectAll().where('org_id', '=', owner).where('id', '=', id).executeTakeFirst();
    return row ? zoneOf(row) : null;
  }

  /** The owner's zones in creation order, `limit` after `after`; `next` is null on the last page. */
  async list(owner: string, options: { limit: number; after?: ZoneKey }): Promise<{ data: Zone[]; next: ZoneKey | null }> {
    let query = this.#db.selectFrom('zones').selectAll().where('org_id', '=', owner);
    const after = options.after;
    if (after !== undefined) {
      query = query.where((eb) => eb.or([eb('created_at', '>', after[0]), eb.and([eb('created_at', '=', after[0]), eb('id', '>', after[1])])]));
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(options.limit + 1).execute();
    const data = rows.slice(0, options.limit).map(zoneOf);
    const last = data[data.length - 1];
    return { data, next: rows.length > options.limit && last ? [last.created_at, last.id] : null };
  }

  /** Changes the fields given (null clears the description); null when the owner has no such zone. */
  async update(owner: string, id: string, patch: ZonePatch): Promise<Zone | null> {
    const changes: Partial<ZoneRow> = { updated_at: new Date().toISOString() };
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.geometry !== undefined) changes.geometry = JSON.stringify(patch.geometry);
    if (patch.applies_to !== undefined) changes.applies_to = JSON.stringify(patch.applies_to);
    const row = await this.#db.updateTable('zones').set(changes).where('org_id', '=', owner).where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return null;
    await this.#announce(owner, id);
    return zoneOf(row);
  }

  /** Every owner with at least one zone, for the rules that depend on the AIS feeds. */
  async owners(): Promise<string[]> {
    const rows = await this.#db.selectFrom('zones').select('org_id').distinct().orderBy('org_id').execute();
    return rows.map((row) => row.org_id);
  }

  /** False when the owner has no such zone. */
  async delete(owner: string, id: string): Promise<boolean> {
    const deleted = await this.#db.deleteFrom('zones').where('org_id', '=', owner).where('id', '=', id).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) return false;
    await this.#announce(owner, id);
    return true;
  }

  /** Every owner's zones: what the zone watch loads at start. */
  async all(): Promise<OwnedZone[]> {
    const rows = await this.#db.selectFrom('zones').selectAll().execute();
    return rows.map((row) => ({ ...zoneOf(row), owner: row.org_id }));
  }

  async #announce(owner: string, zoneId: string): Promise<void> {
    await this.#bus?.publish(zoneChanges, { owner, zone_id: zoneId });
  }
}

function zoneOf(row: ZoneRow): Zone {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    geometry: JSON.parse(row.geometry),
    applies_to: JSON.parse(row.applies_to),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
