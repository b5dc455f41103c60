// Invitations to join an organisation. Owners and admins of a Pro or Enterprise organisation invite
// an e-mail address with a role; the address gets a mail with a link carrying a random token
// (32 bytes, base64url; only its SHA-256 is stored). The token works once, for 7 days, and only
// for the account that owns the address and has verified it: the invitation is to the address,
// and a verified address is the proof of owning it. Someone without an account signs up with the
// invited address, verifies it, and then accepts. A new invitation to the same address revokes
// the open one, so only the newest link works.
//
// Inviting, revoking and accepting lock the organisation's row (members.ts), so the plan, the
// roles and the membership they check cannot change under them.
import type { Database } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import type { OutgoingMail } from '../../platform/mail/index.ts';
import type { PlanName } from '../../../common/plans.ts';
import { appendAudit } from '../audit/audit.ts';
import { lockOrganisation, roleIn } from './members.ts';
import type { OrganisationRow } from './organisations.table.ts';
import { allowed, aRole, mayGrant, type Role } from './roles.ts';
import { isSecretToken, newSecretToken, secretTokenHash } from '../secret-tokens.ts';
import type { InvitationRow } from './invitations.table.ts';
import type { Limit, Throttle } from '../sessions/throttle.ts';
import type { UserRow } from '../users/users.table.ts';

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
/** The plans whose organisations may have members besides the owner. */
export const TEAM_PLANS: readonly PlanName[] = ['pro', 'enterprise'];
/** Invitation mails per organisation: enough for a team moving in, too few to spam with. */
export const INVITATION_LIMITS: readonly Limit[] = [{ count: 50, windowMs: 24 * 3_600_000 }];

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invited_by: string;
  created_at: string;
  expires_at: string;
}

/** Open invitations are listed newest first: `[created_at, id]` of the last one served. */
export type InvitationListKey = readonly [created_at: string, id: string];

export type InviteResult =
  | { status: 'invited'; invitation: InvitationView; token: string; organisation: OrganisationRow; replaced: string | null }
  | { status: 'not_member' }
  | { status: 'forbidden'; role: Role }
  | { status: 'plan'; plan: PlanName }
  | { status: 'already_member' }
  | { status: 'throttled'; retryAfterSeconds: number };

export type LinkProblem = 'unknown' | 'expired' | 'used' | 'revoked';

export interface InvitationPreview {
  organisation_name: string;
  email: string;
  role: Role;
  invited_by_name: string;
  expires_at: string;
}

export type AcceptResult =
  | { status: 'accepted'; organisation: OrganisationRow; role: Role }
  | { status: LinkProblem }
  | { status: 'wrong_address' }
  | { status: 'plan'; plan: PlanName }
  | { status: 'already_member' };

function view(row: InvitationRow): InvitationView {
  return { id: row.id, email: row.email, role: row.role, invited_by: row.invited_by, created_at: row.created_at, expires_at: row.expires_at };
}

function linkProblem(row: InvitationRow, now: number): LinkProblem | null {
  if (row.accepted_at !== null) return 'used';
  if (row.revoked_at !== null) return 'revoked';
  if (now >= Date.parse(row.expires_at)) return 'expired';
  return null;
}

export class Invitations {
  readonly #database: Database;
  readonly #throttle: Throttle;
  readonly #clock: () => number;

  constructor(database: Database, throttle: Throttle, clock: () => number = Date.now) {
    this.#database = database;
    this.#throttle = throttle;
    this.#clock = clock;
  }

  /** The token is in the result only, for the mail; it is never stored. */
  async invite(input: { orgId: string; email: string; emailKey: string; role: Role; inviterId: string }): Promise<InviteResult> {
    const { orgId, emailKey, role, inviterId } = input;
    const subject = `invitations:${orgId}`;
    const now = this.#clock();
    const at = new Date(now).toISOString();
    const token = newSecretToken();
    // Before the transaction: the throttle reads outside it, and SQLite has one connection.
    const retryAfterSeconds = await this.#throttle.retryAfterSeconds(subject, INVITATION_LIMITS);
    if (retryAfterSeconds > 0) return { status: 'throttled', retryAfterSeconds };
    const result = await this.#database.db.transaction().execute(async (trx): Promise<InviteResult> => {
      const organisation = await lockOrganisation(trx, orgId);
      const actor = organisation && (await roleIn(trx, orgId, inviterId));
      if (!organisation || !actor) return { status: 'not_member' };
      if (!allowed(actor, 'invite_members') || !mayGrant(actor, role)) return { status: 'forbidden', role: actor };
      if (!TEAM_PLANS.includes(organisation.plan)) return { status: 'plan', plan: organisation.plan };
      const member = await trx
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select('users.id')
        .where('memberships.org_id', '=', orgId)
        .where('users.email_key', '=', emailKey)
        .where('users.duplicate_of', 'is', null)
        .executeTakeFirst();
      if (member) return { status: 'already_member' };

      const replaced = await trx
        .updateTable('invitations')
        .set({ revoked_at: at })
        .where('org_id', '=', orgId)
        .where('email_key', '=', emailKey)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      const row: InvitationRow = {
        id: newId('inv'),
        org_id: orgId,
        email: input.email,
        email_key: emailKey,
        role,
        token_hash: secretTokenHash(token),
        invited_by: inviterId,
        created_at: at,
        expires_at: new Date(now + INVITATION_TTL_MS).toISOString(),
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
      };
      await trx.insertInto('invitations').values(row).execute();
      await appendAudit(trx, {
        orgId,
        actor: `user:${inviterId}`,
        action: 'member.invited',
        target: row.id,
        detail: { email: row.email, role, replaces: replaced?.id ?? null },
        at,
      });
      return { status: 'invited', invitation: view(row), token, organisation, replaced: replaced?.id ?? null };
    });
    if (result.status === 'invited') await this.#throttle.record(subject);
    return result;
  }

  /** The organisation's open invitations (not accepted, revoked or expired), newest first. */
  async list(orgId: string, page: { limit: number; before?: InvitationListKey | undefined }): Promise<{ data: InvitationView[]; next: InvitationListKey | null }> {
    let query = this.#database.db
      .selectFrom('invitations')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date(this.#clock()).toISOString());
    const before = page.before;
    if (before) query = query.where((eb) => eb.or([eb('created_at', '<', before[0]), eb.and([eb('created_at', '=', before[0]), eb('id', '<', before[1])])]));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const data = rows.slice(0, page.limit);
    const last = data.at(-1);
    return { data: data.map(view), next: rows.length > page.limit && last ? [last.created_at, last.id] : null };
  }

  /** Withdraws an open invitation; its link stops working. */
  async revoke(orgId: string, id: string, actingUserId: string): Promise<{ status: 'revoked'; invitation: InvitationView } | { status: 'not_found' | 'not_member' } | { status: 'forbidden'; role: Role }> {
    const at = new Date(this.#clock()).toISOString();
    return this.#database.db.transaction().execute(async (trx) => {
      const actor = (await lockOrganisation(trx, orgId)) && (await roleIn(trx, orgId, actingUserId));
      if (!actor) return { status: 'not_member' as const };
      if (!allowed(actor, 'invite_members')) return { status: 'forbidden' as const, role: actor };
      const row = await trx
        .updateTable('invitations')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('org_id', '=', orgId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .returningAll()
        .executeTakeFirst();
      if (!row) return { status: 'not_found' as const };
      await appendAudit(trx, { orgId, actor: `user:${actingUserId}`, action: 'member.invitation_revoked', target: row.id, detail: { email: row.email, role: row.role }, at });
      return { status: 'revoked' as const, invitation: view(row) };
    });
  }

  /** What the link offers, for someone deciding whether to accept; nothing changes. */
  async preview(token: string): Promise<{ status: 'open'; preview: InvitationPreview } | { status: LinkProblem }> {
    if (!isSecretToken(token)) return { status: 'unknown' };
    const row = await this.#database.db
      .selectFrom('invitations')
      .innerJoin('organisations', 'organisations.id', 'invitations.org_id')
      .innerJoin('users', 'users.id', 'invitations.invited_by')
      .selectAll('invitations')
      .select(['organisations.name as organisation_name', 'users.full_name as invited_by_name'])
      .where('invitations.token_hash', '=', secretTokenHash(token))
      .executeTakeFirst();
    if (!row) return { status: 'unknown' };
    const problem = linkProblem(row, this.#clock());
    if (problem) return { status: problem };
    return { status: 'open', preview: { organisation_name: row.organisation_name, email: row.email, role: row.role, invited_by_name: row.invited_by_name, expires_at: row.expires_at } };
  }

  /**
   * Makes the user a member with the invited role and uses the token up, in one transaction. The
   * caller has checked that the user's address is verified.
   */
  async accept(token: string, user: UserRow): Promise<AcceptResult> {
    if (!isSecretToken(token)) return { status: 'unknown' };
    const hash = secretTokenHash(token);
    const found = await this.#database.db.selectFrom('invitations').select('org_id').where('token_hash', '=', hash).executeTakeFirst();
    if (!found) return { status: 'unknown' };
    const now = this.#clock();
    const at = new Date(now).toISOString();
    return this.#database.db.transaction().execute(async (trx): Promise<AcceptResult> => {
      const organisation = await lockOrganisation(trx, found.org_id);
      const row = await trx.selectFrom('invitations').selectAll().where('token_hash', '=', hash).executeTakeFirst();
      if (!organisation || !row) return { status: 'unknown' };
      const problem = linkProblem(row, now);
      if (problem) return { status: problem };
      if (user.duplicate_of !== null || user.email_key !== row.email_key) return { status: 'wrong_address' };
      if (!TEAM_PLANS.includes(organisation.plan)) return { status: 'plan', plan: organisation.plan };
      if (await roleIn(trx, row.org_id, user.id)) return { status: 'already_member' };
      await trx.insertInto('memberships').values({ org_id: row.org_id, user_id: user.id, role: row.role, created_at: at }).execute();
      await trx.updateTable('invitations').set({ accepted_at: at, accepted_by: user.id }).where('id', '=', row.id).execute();
      await appendAudit(trx, {
        orgId: row.org_id,
        actor: `user:${user.id}`,
        action: 'member.added',
        target: user.id,
        detail: { role: row.role, invitation_id: row.id, invited_by: row.invited_by },
        at,
      });
      return { status: 'accepted', organisation, role: row.role };
    });
  }
}

export function invitationMail(to: string, details: { organisation: string; inviter: string; role: Role; link: string; expiresAt: string }): OutgoingMail {
  return {
    to,
    purpose: 'invitation',
    subject: `${details.inviter} invited you to ${details.organisation} on LAMIS`,
    text: [
      'Hello,',
      '',
      `${details.inviter} invited you to join ${details.organisation} on LAMIS as ${aRole(details.role)}.`,
      '',
      'Open this link to see the invitation:',
      '',
      details.link,
      '',
      `To accept it, sign in to LAMIS with this address (${to}). If you have no account yet, sign up with this`,
      'address and verify it first. The invitation works once, until ' + `${details.expiresAt.slice(0, 16).replace('T', ' ')} UTC (7 days).`,
      'If you did not expect it, ignore this mail.',
    ].join('\n'),
  };
}
