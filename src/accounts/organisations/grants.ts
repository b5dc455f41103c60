// What an operator of the instance grants an organisation beyond its plan, with `lamis org`:
// - `ais_upload`: whether its keys may upload AIS (POST /v3/maritime/ais/nmea). Vessel state is
//   one picture every organisation sees, so uploads are off until an operator shares them.
// - `slot_share`: the fraction of an airport hour's arrival slots it may hold, instead of the
//   instance's fair share (LAMIS_SLOT_FAIR_SHARE).
// Every change is audited as the operator's. Grants are read on each request that needs them, so
// a change applies at once on every server.
import type { Database } from '../../platform/db/database.ts';
import { appendAudit, type Actor, type AuditAction } from '../audit/audit.ts';
import type { AisUpload, OrganisationGrantsRow } from './grants.table.ts';
import type { Organisation } from './organisations.ts';

export type Grants = Pick<OrganisationGrantsRow, 'ais_upload' | 'slot_share'>;

export const DEFAULT_GRANTS: Grants = { ais_upload: 'off', slot_share: null };

export type SetGrantResult<K extends keyof Grants> =
  | { status: 'changed' | 'unchanged'; organisation: Organisation; previous: Grants[K]; value: Grants[K] }
  | { status: 'not_found' };

const ACTIONS: { [K in keyof Grants]: AuditAction } = { ais_upload: 'ais_upload.changed', slot_share: 'slot_share.changed' };

export function isAisUpload(value: unknown): value is AisUpload {
  return value === 'shared' || value === 'off';
}

export class OrganisationGrants {
  readonly #database: Database;
  readonly #clock: () => number;

  constructor(database: Database, clock: () => number = Date.now) {
    this.#database = database;
    this.#clock = clock;
  }

  async of(orgId: string): Promise<Grants> {
    const row = await this.#database.db.selectFrom('organisation_grants').select(['ais_upload', 'slot_share']).where('org_id', '=', orgId).executeTakeFirst();
    return row ?? DEFAULT_GRANTS;
  }

  setAisUpload(orgId: string, value: AisUpload, actor: Actor): Promise<SetGrantResult<'ais_upload'>> {
    if (!isAisUpload(value)) throw new RangeError(`AIS uploads are shared or off (got "${value}")`);
    return this.#set(orgId, 'ais_upload', value, actor);
  }

  /** `share` from 0 to 1; null: back to the instance's share. */
  setSlotShare(orgId: string, share: number | null, actor: Actor): Promise<SetGrantResult<'slot_share'>> {
    if (share !== null && !(share >= 0 && share <= 1)) throw new RangeError(`the share is a fraction from 0 to 1 (got ${share})`);
    return this.#set(orgId, 'slot_share', share, actor);
  }

  async #set<K extends keyof Grants>(orgId: string, key: K, value: Grants[K], actor: Actor): Promise<SetGrantResult<K>> {
    const db = this.#database.db;
    const organisation = await db.selectFrom('organisations').selectAll().where('id', '=', orgId).executeTakeFirst();
    if (!organisation) return { status: 'not_found' };
    const at = new Date(this.#clock()).toISOString();
    return db.transaction().execute(async (trx) => {
      // A write first: it locks the row (see SlotBook), so concurrent changes take turns and each
      // audits the value it replaced.
      const current = await trx
        .insertInto('organisation_grants')
        .values({ org_id: orgId, ...DEFAULT_GRANTS, updated_at: at })
        .onConflict((oc) => oc.column('org_id').doUpdateSet({ updated_at: (eb) => eb.ref('organisation_grants.updated_at') }))
        .returningAll()
        .executeTakeFirstOrThrow();
      const previous = current[key] as Grants[K];
      if (previous === value) return { status: 'unchanged', organisation, previous, value };
      await trx.updateTable('organisation_grants').set({ [key]: value, updated_at: at }).where('org_id', '=', orgId).execute();
      await appendAudit(trx, { orgId, actor, action: ACTIONS[key], target: orgId, detail: { from: previous, to: value }, at });
      return { status: 'changed', organisation, previous, value };
    });
  }
}
