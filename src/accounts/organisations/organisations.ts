// Organisations and their plans. Every account owns one; its API keys, usage and audit log belong
// to it. Changing the plan is an owner's (or an operator's) action and is audited; checking that the
// caller is the owner is the endpoint's business.
//
// `planOf` runs on every API request (the rate limiter asks it), so it keeps each organisation's
// plan for `cacheTtlMs` (10 s by default): a plan changed through this same object applies at once,
// one changed by another process (`lamis org set-plan`) within that time.
import type { Database } from '../../platform/db/database.ts';
import type { Principal } from '../../platform/http/auth.ts';
import { PLANS, type Plan, type PlanName } from '../../../common/plans.ts';
import { appendAudit, type Actor } from '../audit/audit.ts';
import { newId } from '../../platform/ids.ts';
import type { OrganisationRow } from './organisations.table.ts';

export type Organisation = OrganisationRow;

export type SetPlanResult =
  | { status: 'changed'; organisation: Organisation; previous: PlanName }
  | { status: 'unchanged'; organisation: Organisation }
  | { status: 'not_found' };

export interface OrganisationsOptions {
  clock?: () => number;
  cacheTtlMs?: number;
}

export const PLAN_CACHE_TTL_MS = 10_000;
const MAX_CACHED = 10_000;
const MAX_NAME_LENGTH = 200;

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && Object.hasOwn(PLANS, value);
}

export class Organisations {
  readonly #database: Database;
  readonly #clock: () => number;
  readonly #cacheTtlMs: number;
  readonly #plans = new Map<string, { plan: PlanName; loadedAt: number }>();

  constructor(database: Database, options: OrganisationsOptions = {}) {
    this.#database = database;
    this.#clock = options.clock ?? Date.now;
    this.#cacheTtlMs = options.cacheTtlMs ?? PLAN_CACHE_TTL_MS;
  }

  async create(input: { name: string; plan: PlanName; actor: Actor }): Promise<Organisation> {
    const name = input.name.trim();
    if (name.length < 1 || name.length > MAX_NAME_LENGTH) throw new RangeError(`an organisation name has 1 to ${MAX_NAME_LENGTH} characters (got "${input.name}")`);
    if (!isPlanName(input.plan)) throw new RangeError(`unknown plan "${input.plan}"`);
    const organisation: Organisation = { id: newId('org'), name, plan: input.plan, created_at: new Date(this.#clock()).toISOString() };
    await this.#database.db.transaction().execute(async (trx) => {
      await trx.insertInto('organisations').values(organisation).execute();
      await appendAudit(trx, { orgId: organisation.id, actor: input.actor, action: 'org.created', target: organisation.id, detail: { name, plan: organisation.plan }, at: organisation.created_at });
    });
    return organisation;
  }

  get(id: string): Promise<Organisation | undefined> {
    return this.#database.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setPlan(id: string, plan: PlanName, actor: Actor): Promise<SetPlanResult> {
    if (!isPlanName(plan)) throw new RangeError(`unknown plan "${plan}"`);
    // Compare-and-set: the update names the plan read, so two concurrent changes cannot both log
    // the same "from"; the loser reads again.
    for (;;) {
      const current = await this.get(id);
      if (!current) return { status: 'not_found' };
      if (current.plan === plan) return { status: 'unchanged', organisation: current };
      const at = new Date(this.#clock()).toISOString();
      const changed = await this.#database.db.transaction().execute(async (trx) => {
        const result = await trx.updateTable('organisations').set({ plan }).where('id', '=', id).where('plan', '=', current.plan).executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        await appendAudit(trx, { orgId: id, actor, action: 'plan.changed', target: id, detail: { from: current.plan, to: plan }, at });
        return true;
      });
      if (changed) {
        this.#plans.delete(id);
        return { status: 'changed', organisation: { ...current, plan }, previous: current.plan };
      }
    }
  }

  /**
   * The plan for the rate limiter. Keys from the instance's configuration belong to no
   * organisation: null, no limits.
   */
  async planOf(principal: Principal): Promise<Plan | null> {
    const id = principal.organisation_id;
    if (id === null) return null;
    const now = this.#clock();
    const cached = this.#plans.get(id);
    if (cached && now - cached.loadedAt < this.#cacheTtlMs) return PLANS[cached.plan];
    const row = await this.#database.db.selectFrom('organisations').select('plan').where('id', '=', id).executeTakeFirst();
    // A key outlives its organisation only if someone deleted rows by hand: the smallest plan, not none.
    const plan = row?.plan ?? 'starter';
    this.#plans.delete(id);
    if (this.#plans.size >= MAX_CACHED) this.#plans.delete(this.#plans.keys().next().value!);
    this.#plans.set(id, { plan, loadedAt: now });
    return PLANS[plan];
  }
}
