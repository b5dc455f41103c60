// REST for organisations, for signed-in users: the organisation and its plan, its members and
// their roles, and invitations by e-mail, sent from the organisation and accepted by the invitee.
// Routes under /v3/organisations/{orgId} admit members by role (organisation-access.ts, roles.ts);
// the API keys, usage and audit log of an organisation are in keys/keys.routes.ts.
import { Type } from 'typebox';
import type { Database } from '../../platform/db/database.ts';
import type { App } from '../../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../../platform/http/pagination.ts';
import { ProblemError } from '../../platform/http/problems.ts';
import { invalidField, nullable, Shared } from '../../platform/http/schema.ts';
import { PLANS, type PlanName } from '../../../common/plans.ts';
import { stepMissing } from '../accounts.routes.ts';
import { normaliseEmail } from '../users/credentials.ts';
import type { DashboardKeys } from '../keys/dashboard-keys.ts';
import { invitationMail, TEAM_PLANS, type InvitationListKey, type Invitations } from './invitations.ts';
import type { KeyStore } from '../keys/keys.ts';
import { registerKeyRoutes } from '../keys/keys.routes.ts';
import type { BackgroundMail } from '../mails.ts';
import type { MemberListKey, Members } from './members.ts';
import type { OrganisationRow } from './organisations.table.ts';
import { accessOf, NOT_MEMBER_NOTE, notMember, organisationAccess, OrgParams, roleRefused } from './organisation-access.ts';
import {
  alreadyMember,
  invitationForAnotherAddress,
  invitationLinkInvalid,
  invitationNotFound,
  lastOwner,
  memberNotFound,
  planUpgradeRequired,
  tooManyInvitations,
} from './organisations.problems.ts';
import type { Organisations } from './organisations.ts';
import { CSRF_NOTE, noStore, requireSession, SESSION_NOTE } from '../sessions/session-access.ts';
import type { IdentityChecks } from '../onboarding/identity-checks.ts';
import type { SessionStore } from '../sessions/sessions.ts';
import { ROLES, type Role } from './roles.ts';
import { missingStepBefore, type Users } from '../users/users.ts';

const TAG = 'Organisations';

const PLAN_NAMES = Object.keys(PLANS) as PlanName[];
const RoleSchema = Type.Enum([...ROLES], { description: '`owner`, `admin`, `member` or `viewer`; see the role matrix in the README' });
const PlanSchema = Type.Enum(PLAN_NAMES);

const OrganisationSchema = Shared('Organisation', Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: PlanSchema,
  created_at: Type.String({ format: 'date-time' }),
  role: RoleSchema,
  limits: Type.Object({
    requests_per_minute: nullable(Type.Integer({ description: 'For the production keys together; null: no cap' })),
    streams: Type.Boolean({ description: 'Whether the plan includes WebSocket streams' }),
    max_concurrent_streams: nullable(Type.Integer({ description: 'null: no cap' })),
    team_members: Type.Boolean({ description: 'Whether owners and admins may invite members' }),
  }, { description: 'What the plan allows' }),
}));

const MemberSchema = Shared('Member', Type.Object({
  user_id: Type.String(),
  full_name: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  joined_at: Type.String({ format: 'date-time' }),
}));

const InvitationSchema = Shared('Invitation', Type.Object({
  id: Type.String({ description: '`inv_` and 16 letters or digits; not the token of the link' }),
  email: Type.String(),
  role: RoleSchema,
  invited_by: Type.String({ description: 'The user id of who invited' }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time', description: '7 days after the invitation was sent' }),
}));

const Token = Type.String({ maxLength: 128, description: 'The `token` of the invitation link' });

const isPair = (key: unknown): key is readonly [string, string] =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

function organisationView(organisation: OrganisationRow, role: Role) {
  const plan = PLANS[organisation.plan];
  return {
    id: organisation.id,
    name: organisation.name,
    plan: organisation.plan,
    created_at: organisation.created_at,
    role,
    limits: {
      requests_per_minute: plan.requestsPerWindow,
      streams: plan.streams,
      max_concurrent_streams: plan.maxConcurrentStreams,
      team_members: TEAM_PLANS.includes(plan.name),
    },
  };
}

function planRefused(plan: PlanName): ProblemError {
  const plans = TEAM_PLANS.map((name) => PLANS[name].title).join(' and ');
  return new ProblemError(planUpgradeRequired, `Team members are part of the ${plans} plans; this organisation is on ${PLANS[plan].title}.`, {
    extra: { plan, plans: TEAM_PLANS },
  });
}

const LINK_DETAILS = {
  unknown: 'This invitation link is not known.',
  expired: 'This invitation has expired (invitations work for 7 days); ask for a new one.',
  used: 'This invitation has been accepted already.',
  revoked: 'This invitation was withdrawn, or replaced by a newer one.',
};

export interface OrganisationApiDeps {
  database: Database;
  users: Users;
  sessions: SessionStore;
  members: Members;
  invitations: Invitations;
  organisations: Organisations;
  keys: KeyStore;
  dashboardKeys: DashboardKeys;
  identity: IdentityChecks;
  mail: BackgroundMail;
  /** Where users reach the service, without a trailing slash: links in mails start with it. */
  publicUrl: () => string;
}

export function registerOrganisationRoutes(app: App, deps: OrganisationApiDeps): void {
  const { users, sessions, members, invitations, organisations, mail } = deps;
  const guard = requireSession(sessions, users);
  app.decorateRequest('organisation', null);

  app.get('/v3/organisations/:orgId', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'view_organisation', 'see this organisation')],
    schema: {
      summary: 'One of your organisations, its plan and your role',
      description: `Every member may see it. ${NOT_MEMBER_NOTE}. ${SESSION_NOTE}.`,
      tags: [TAG],
      params: OrgParams,
      response: { 200: OrganisationSchema },
    },
  }, async (request) => {
    const { organisation, role } = accessOf(request);
    return organisationView(organisation, role);
  });

  app.put('/v3/organisations/:orgId/plan', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'change_plan', 'change the plan')],
    schema: {
      summary: 'Change the organisation\'s plan (owners)',
      description:
        'Starter, Pro or Enterprise; billing is not part of LAMIS. The change is in the audit log (`plan.changed`) and applies to rate limits within 10 s. ' +
        'Moving to Starter keeps the members, but no new invitation can be sent or accepted. ' +
        `403 \`role_not_allowed\` for anyone but an owner; ${NOT_MEMBER_NOTE}. ${CSRF_NOTE}`,
      tags: [TAG],
      params: OrgParams,
      body: Type.Object({ plan: PlanSchema }),
      response: { 200: OrganisationSchema },
    },
  }, async (request) => {
    const { user } = request.account!;
    const { role } = accessOf(request);
    const result = await organisations.setPlan(request.params.orgId, request.body.plan, `user:${user.id}`);
    if (result.status === 'not_found') throw notMember();
    return organisationView(result.organisation, role);
  });

  app.get('/v3/organisations/:orgId/members', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'view_organisation', 'see the members')],
    schema: {
      summary: 'The members of the organisation and their roles',
      description: `Oldest membership first, cursor-paginated. Every member may see them. ${NOT_MEMBER_NOTE}. ${SESSION_NOTE}.`,
      tags: [TAG],
      params: OrgParams,
      querystring: Type.Object({ ...PageQuery }),
      response: { 200: Page(MemberSchema) },
    },
  }, async (request) => {
    const after: MemberListKey | undefined = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, isPair);
    const page = await members.list(request.params.orgId, { limit: request.query.limit!, after });
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  const MemberParams = Type.Object({ ...OrgParams.properties, userId: Type.String({ maxLength: 64, description: 'The member\'s user id (`usr_…`)' }) });

  app.patch('/v3/organisations/:orgId/members/:userId', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'change_roles', 'change roles')],
    schema: {
      summary: 'Change a member\'s role (owners and admins)',
      description:
        'Owners may give any member any role; admins may move members who are not owners between `admin`, `member` and `viewer`. ' +
        'Audited as `member.role_changed`. 409 `last_owner` for the organisation\'s only owner; 404 `member_not_found`; ' +
        `403 \`role_not_allowed\`; ${NOT_MEMBER_NOTE}. ${CSRF_NOTE}`,
      tags: [TAG],
      params: MemberParams,
      body: Type.Object({ role: RoleSchema }),
      response: { 200: MemberSchema },
    },
  }, async (request) => {
    const { user } = request.account!;
    const { orgId, userId } = request.params;
    const result = await members.changeRole(orgId, userId, request.body.role, user.id);
    switch (result.status) {
      case 'changed':
      case 'unchanged':
        return result.member;
      case 'not_member':
        throw notMember();
      case 'not_found':
        throw new ProblemError(memberNotFound, `The organisation has no member ${userId}.`);
      case 'forbidden':
        throw roleRefused(result.role, ['owner'], 'make owners or change an owner\'s role');
      case 'last_owner':
        throw new ProblemError(lastOwner, 'This is the organisation\'s only owner: make another member an owner first.');
    }
  });

  app.delete('/v3/organisations/:orgId/members/:userId', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'view_organisation', 'remove members')],
    schema: {
      summary: 'Remove a member, or leave the organisation',
      description:
        'Owners may remove anyone, admins anyone but owners; every member may remove themselves (leave). The member\'s API keys stay: they belong to the organisation. ' +
        'Audited as `member.removed`. 409 `last_owner` for the organisation\'s only owner; 404 `member_not_found`; ' +
        `403 \`role_not_allowed\`; ${NOT_MEMBER_NOTE}. ${CSRF_NOTE}`,
      tags: [TAG],
      params: MemberParams,
      response: { 204: Type.Null({ description: 'Removed' }) },
    },
  }, async (request, reply) => {
    const { user } = request.account!;
    const { orgId, userId } = request.params;
    const result = await members.remove(orgId, userId, user.id);
    switch (result.status) {
      case 'removed':
        return reply.code(204).send(null);
      case 'not_member':
        throw notMember();
      case 'not_found':
        throw new ProblemError(memberNotFound, `The organisation has no member ${userId}.`);
      case 'forbidden':
        throw roleRefused(result.role, result.role === 'admin' ? ['owner'] : ['owner', 'admin'], result.role === 'admin' ? 'remove an owner' : 'remove other members');
      case 'last_owner':
        throw new ProblemError(lastOwner, 'This is the organisation\'s only owner: make another member an owner first.');
    }
  });

  app.get('/v3/organisations/:orgId/invitations', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'view_invitations', 'see the invitations')],
    schema: {
      summary: 'Open invitations (owners and admins)',
      description: `Invitations neither accepted, revoked nor expired, newest first, cursor-paginated. 403 \`role_not_allowed\`; ${NOT_MEMBER_NOTE}. ${SESSION_NOTE}.`,
      tags: [TAG],
      params: OrgParams,
      querystring: Type.Object({ ...PageQuery }),
      response: { 200: Page(InvitationSchema) },
    },
  }, async (request) => {
    const before: InvitationListKey | undefined = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, isPair);
    const page = await invitations.list(request.params.orgId, { limit: request.query.limit!, before });
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  app.post('/v3/organisations/:orgId/invitations', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'invite_members', 'invite members')],
    schema: {
      summary: 'Invite someone by e-mail (owners and admins; Pro and Enterprise)',
      description:
        'Mails the address a link that works once, for 7 days, for the account that owns the address and has verified it; someone without an account signs up with it first. ' +
        'Owners may invite with any role, admins as `admin`, `member` or `viewer`. A new invitation to the same address replaces the open one. ' +
        'Audited as `member.invited`. Needs your own e-mail address verified (409 `onboarding_step_missing`). ' +
        '403 `plan_upgrade_required` on Starter; 409 `already_member`; 429 `too_many_invitations` after 50 in a day; ' +
        `403 \`role_not_allowed\`; ${NOT_MEMBER_NOTE}. ${CSRF_NOTE}`,
      tags: [TAG],
      params: OrgParams,
      body: Type.Object({ email: Type.String({ maxLength: 320 }), role: RoleSchema }),
      response: { 201: InvitationSchema },
    },
  }, async (request, reply) => {
    const { user } = request.account!;
    const missing = missingStepBefore(user, 'identity');
    if (missing) throw stepMissing(missing, 'inviting members');
    const address = normaliseEmail(request.body.email);
    if (!address.ok) throw invalidField('/body/email', address.message);
    const result = await invitations.invite({ orgId: request.params.orgId, email: address.address, emailKey: address.key, role: request.body.role, inviterId: user.id });
    switch (result.status) {
      case 'invited': {
        const link = `${deps.publicUrl()}/v3/accounts/invitations/preview?token=${result.token}`;
        mail.send(invitationMail(result.invitation.email, {
          organisation: result.organisation.name, inviter: user.full_name, role: result.invitation.role, link, expiresAt: result.invitation.expires_at,
        }));
        return reply.code(201).send(result.invitation);
      }
      case 'not_member':
        throw notMember();
      case 'forbidden':
        throw roleRefused(result.role, ['owner'], 'invite owners');
      case 'plan':
        throw planRefused(result.plan);
      case 'already_member':
        throw new ProblemError(alreadyMember, 'This address is already a member of the organisation.');
      case 'throttled':
        throw new ProblemError(tooManyInvitations, `The organisation has sent 50 invitations in the last day; retry in ${result.retryAfterSeconds} s.`, {
          headers: { 'Retry-After': String(result.retryAfterSeconds) },
          extra: { retry_after: result.retryAfterSeconds },
        });
    }
  });

  app.delete('/v3/organisations/:orgId/invitations/:invitationId', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'invite_members', 'revoke invitations')],
    schema: {
      summary: 'Revoke an open invitation (owners and admins)',
      description: `Its link stops working. Audited as \`member.invitation_revoked\`. 404 \`invitation_not_found\`; 403 \`role_not_allowed\`; ${NOT_MEMBER_NOTE}. ${CSRF_NOTE}`,
      tags: [TAG],
      params: Type.Object({ ...OrgParams.properties, invitationId: Type.String({ maxLength: 64, description: 'The invitation id (`inv_…`)' }) }),
      response: { 204: Type.Null({ description: 'Revoked' }) },
    },
  }, async (request, reply) => {
    const { orgId, invitationId } = request.params;
    const result = await invitations.revoke(orgId, invitationId, request.account!.user.id);
    if (result.status === 'not_member') throw notMember();
    if (result.status === 'forbidden') throw roleRefused(result.role, ['owner', 'admin'], 'revoke invitations');
    if (result.status === 'not_found') throw new ProblemError(invitationNotFound, `The organisation has no open invitation ${invitationId}.`);
    return reply.code(204).send(null);
  });

  app.get('/v3/accounts/invitations/preview', {
    config: { public: true },
    onRequest: noStore,
    schema: {
      summary: 'What an invitation link offers',
      description:
        'The link of an invitation mail: the organisation, the role and the invited address; nothing changes. To accept, sign in as that address (or sign up with it and verify it) ' +
        'and send the token to `POST /v3/accounts/invitations/accept`. 400 `invitation_link_invalid` for an unknown, expired, used or revoked link.',
      tags: [TAG],
      querystring: Type.Object({ token: Token }),
      response: {
        200: Type.Object({
          organisation_name: Type.String(),
          email: Type.String({ description: 'The invited address: only its account can accept' }),
          role: RoleSchema,
          invited_by_name: Type.String(),
          expires_at: Type.String({ format: 'date-time' }),
        }),
      },
    },
  }, async (request) => {
    const result = await invitations.preview(request.query.token);
    if (result.status !== 'open') throw new ProblemError(invitationLinkInvalid, LINK_DETAILS[result.status], { extra: { reason: result.status } });
    return result.preview;
  });

  app.post('/v3/accounts/invitations/accept', {
    config: { session: true },
    onRequest: guard,
    schema: {
      summary: 'Accept an invitation',
      description:
        'Makes you a member of the organisation with the invited role and uses the link up. Your account must have the invited address, verified ' +
        '(403 `invitation_for_another_address`, 409 `onboarding_step_missing`). 400 `invitation_link_invalid` for an unknown, expired, used or revoked link; ' +
        `403 \`plan_upgrade_required\` when the organisation has moved to Starter since; 409 \`already_member\`. Audited as \`member.added\`. ${CSRF_NOTE}`,
      tags: [TAG],
      body: Type.Object({ token: Token }),
      response: {
        200: Type.Object({ org_id: Type.String(), name: Type.String(), plan: PlanSchema, role: RoleSchema }, { description: 'The organisation you joined' }),
      },
    },
  }, async (request) => {
    const { user } = request.account!;
    const missing = missingStepBefore(user, 'identity');
    if (missing) throw stepMissing(missing, 'accepting an invitation');
    const result = await invitations.accept(request.body.token, user);
    switch (result.status) {
      case 'accepted':
        return { org_id: result.organisation.id, name: result.organisation.name, plan: result.organisation.plan, role: result.role };
      case 'wrong_address':
        throw new ProblemError(invitationForAnotherAddress, 'This invitation is for another e-mail address; sign in with that address to accept it.');
      case 'plan':
        throw planRefused(result.plan);
      case 'already_member':
        throw new ProblemError(alreadyMember, 'You are a member of this organisation already.');
      default:
        throw new ProblemError(invitationLinkInvalid, LINK_DETAILS[result.status], { extra: { reason: result.status } });
    }
  });

  registerKeyRoutes(app, { ...deps, guard });
}
