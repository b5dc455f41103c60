// The members of an organisation: who belongs to it with which role, role changes and removals.
// Members join by invitation (invitations.ts) or, for a user's own organisation, at sign-up.
//
// Every change to an organisation's members takes the organisation's row lock first
// (`lockOrganisation`): on PostgreSQL the update holds the row until commit, on SQLite a write as
// the transaction's first statement takes the database write lock. So two owners demoting each
// other at once cannot both succeed and leave the organisation without one, and the acting
// member's role is read again under the lock, not trusted from before it.
import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../platform/db/database.ts';
import { appendAudit } from '../audit/audit.ts';
import type { OrganisationRow } from './organisations.table.ts';
import { mayGrant, mayManage, type Role } from './roles.ts';

export interface MemberView {
  user_id: string;
  full_name: string;
  email: string;
  role: Role;
  joined_at: string;
}

/** A member mail about the organisation may go to. */
export interface MemberAddress {
  user_id: string;
  full_name: string;
  email: string;
  organisation_name: string;
}

/** What other features read of the members: whom to mail about the organisation (events, webhooks). */
export interface MemberDirectory {
  /** The members whose e-mail address is verified, of these roles only when given. */
  withVerifiedEmail(orgId: string, roles?: readonly Role[]): Promise<MemberAddress[]>;
}

export interface OrganisationAccess {
  organisation: OrganisationRow;
  role: Role;
}

/** Members are listed oldest first: `[joined_at, user_id]` of the last one served. */
export type MemberListKey = readonly [joined_at: string, user_id: string];

export type ChangeRoleResult =
  | { status: 'changed' | 'unchanged'; member: MemberView; previous: Role }
  /** The acting user is no longer a member. */
  | { status: 'not_member' }
  | { status: 'not_found' }
  | { status: 'forbidden'; role: Role }
  | { status: 'last_owner' };

export type RemoveResult =
  | { status: 'removed'; member: MemberView }
  | { status: 'not_member' }
  | { status: 'not_found' }
  | { status: 'forbidden'; role: Role }
  | { status: 'last_owner' };

/**
 * Locks the organisation's row for the rest of the transaction (see the top of this file); its
 * row, or undefined when there is no such organisation.
 */
export function lockOrganisation(trx: Kysely<Tables>, orgId: string): Promise<OrganisationRow | undefined> {
  return trx.updateTable('organisations').set((eb) => ({ name: eb.ref('name') })).where('id', '=', orgId).returningAll().executeTakeFirst();
}

/** The user's role in the organisation, or undefined for someone who is not a member. */
export async function roleIn(db: Kysely<Tables>, orgId: string, userId: string): Promise<Role | undefined> {
  const row = await db.selectFrom('memberships').select('role').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
  return row?.role;
}

function memberQuery(db: Kysely<Tables>, orgId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.user_id', 'users.full_name', 'users.email', 'memberships.role', 'memberships.created_at as joined_at'])
    .where('memberships.org_id', '=', orgId);
}

async function ownerCount(db: Kysely<Tables>, orgId: string): Promise<number> {
  const row = await db.selectFrom('memberships').select((eb) => eb.fn.countAll<number>().as('owners'))
    .where('org_id', '=', orgId).where('role', '=', 'owner').executeTakeFirstOrThrow();
  return Number(row.owners);
}

export class Members implements MemberDirectory {
  readonly #database: Database;
  readonly #clock: () => number;

  constructor(database: Database, clock: () => number = Date.now) {
    this.#database = database;
    this.#clock = clock;
  }

  /** The organisation and the user's role in it; undefined when the user is not a member. */
  async access(orgId: string, userId: string): Promise<OrganisationAccess | undefined> {
    const row = await this.#database.db
      .selectFrom('memberships')
      .innerJoin('organisations', 'organisations.id', 'memberships.org_id')
      .select(['organisations.id', 'organisations.name', 'organisations.plan', 'organisations.created_at', 'memberships.role'])
      .where('memberships.org_id', '=', orgId)
      .where('memberships.user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { role, ...organisation } = row;
    return { organisation, role };
  }

  async withVerifiedEmail(orgId: string, roles?: readonly Role[]): Promise<MemberAddress[]> {
    if (roles !== undefined && roles.length === 0) return [];
    let query = this.#database.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .innerJoin('organisations', 'organisations.id', 'memberships.org_id')
      .select(['memberships.user_id', 'users.full_name', 'users.email', 'organisations.name as organisation_name'])
      .where('memberships.org_id', '=', orgId)
      .where('users.email_verified_at', 'is not', null);
    if (roles !== undefined) query = query.where('memberships.role', 'in', [...roles]);
    return query.orderBy('memberships.user_id').execute();
  }

  async list(orgId: string, page: { limit: number; after?: MemberListKey | undefined }): Promise<{ data: MemberView[]; next: MemberListKey | null }> {
    let query = memberQuery(this.#database.db, orgId);
    const after = page.after;
    if (after) {
      query = query.where((eb) => eb.or([
        eb('memberships.created_at', '>', after[0]),
        eb.and([eb('memberships.created_at', '=', after[0]), eb('memberships.user_id', '>', after[1])]),
      ]));
    }
    const rows = await query.orderBy('memberships.created_at').orderBy('memberships.user_id').limit(page.limit + 1).execute();
    const data = rows.slice(0, page.limit);
    const last = data.at(-1);
    return { data, next: rows.length > page.limit && last ? [last.joined_at, last.user_id] : null };
  }

  get(orgId: string, userId: string): Promise<MemberView | undefined> {
    return memberQuery(this.#database.db, orgId).where('memberships.user_id', '=', userId).executeTakeFirst();
  }

  /**
   * Owners may give any member any role; admins may move members who are not owners between
   * admin, member and viewer. The last owner cannot be demoted.
   */
  async changeRole(orgId: string, userId: string, role: Role, actingUserId: string): Promise<ChangeRoleResult> {
    const at = new Date(this.#clock()).toISOString();
    return this.#database.db.transaction().execute(async (trx): Promise<ChangeRoleResult> => {
      if (!(await lockOrganisation(trx, orgId))) return { status: 'not_member' };
      const actor = await roleIn(trx, orgId, actingUserId);
      if (!actor) return { status: 'not_member' };
      const member = await memberQuery(trx, orgId).where('memberships.user_id', '=', userId).executeTakeFirst();
      if (!member) return { status: 'not_found' };
      if (!mayManage(actor, member.role) || !mayGrant(actor, role)) return { status: 'forbidden', role: actor };
      if (member.role === role) return { status: 'unchanged', member, previous: role };
      if (member.role === 'owner' && (await ownerCount(trx, orgId)) <= 1) return { status: 'last_owner' };
      await trx.updateTable('memberships').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
      await appendAudit(trx, { orgId, actor: `user:${actingUserId}`, action: 'member.role_changed', target: userId, detail: { from: member.role, to: role }, at });
      return { status: 'changed', member: { ...member, role }, previous: member.role };
    });
  }

  /**
   * Owners may remove anyone, admins anyone but owners; every member may leave. The last owner
   * cannot leave. The member's API keys stay: they belong to the organisation.
   */
  async remove(orgId: string, userId: string, actingUserId: string): Promise<RemoveResult> {
    const at = new Date(this.#clock()).toISOString();
    return this.#database.db.transaction().execute(async (trx): Promise<RemoveResult> => {
      if (!(await lockOrganisation(trx, orgId))) return { status: 'not_member' };
      const actor = await roleIn(trx, orgId, actingUserId);
      if (!actor) return { status: 'not_member' };
      const member = await memberQuery(trx, orgId).where('memberships.user_id', '=', userId).executeTakeFirst();
      if (!member) return { status: 'not_found' };
      const leaving = userId === actingUserId;
      if (!leaving && !mayManage(actor, member.role)) return { status: 'forbidden', role: actor };
      if (member.role === 'owner' && (await ownerCount(trx, orgId)) <= 1) return { status: 'last_owner' };
      await trx.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
      await appendAudit(trx, { orgId, actor: `user:${actingUserId}`, action: 'member.removed', target: userId, detail: { role: member.role, left: leaving }, at });
      return { status: 'removed', member };
    });
  }
}
