// Organisation routes over HTTP: `organisationAccess`, the hook of every route under
// /v3/organisations/{orgId}. It runs after `requireSession`, before the body is read, and admits
// members of the organisation whose role has the route's permission (roles.ts). Someone who is not
// a member gets 404 `organisation_not_found`, as for an id that does not exist, so nobody learns
// which organisations exist; a member whose role falls short gets 403 `role_not_allowed`.
//
// Other features hang routes under an organisation (the fleet, under /v3/organisations/{orgId}/fleet)
// with the same checks through `MemberGuard`.
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import { ProblemError } from '../../platform/http/problems.ts';
import type { Members, OrganisationAccess } from './members.ts';
import { organisationNotFound, roleNotAllowed } from './organisations.problems.ts';
import { aRole, PERMISSIONS, ROLES, type Permission, type Role } from './roles.ts';
import { CSRF_NOTE, requireSession, SESSION_NOTE } from '../sessions/session-access.ts';
import type { SessionStore } from '../sessions/sessions.ts';
import type { Users } from '../users/users.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organisation of the path and the signed-in user's role in it, on routes guarded by `organisationAccess`. */
    organisation: OrganisationAccess | null;
  }
}

export const OrgParams = Type.Object({ orgId: Type.String({ maxLength: 64, description: 'The organisation id (`org_…`)' }) });

/** For route descriptions. */
export const NOT_MEMBER_NOTE = '404 `organisation_not_found` for an organisation you are not a member of';

export function notMember(): ProblemError {
  return new ProblemError(organisationNotFound, 'None of your organisations has this id.');
}

export function roleRefused(role: Role, allowedRoles: readonly Role[], what: string): ProblemError {
  return new ProblemError(roleNotAllowed, `As ${aRole(role)} of this organisation you may not ${what}.`, {
    extra: { role, allowed_roles: allowedRoles },
  });
}

/** Admits members whose role has `permission`; `what` completes "you may not …" in the refusal. */
export function organisationAccess(members: Members, permission: Permission, what: string): onRequestAsyncHookHandler {
  return async (request) => {
    const { orgId } = request.params as { orgId: string };
    const access = await members.access(orgId, request.account!.user.id);
    if (!access) throw notMember();
    const roles: readonly Role[] = PERMISSIONS[permission];
    if (!roles.includes(access.role)) throw roleRefused(access.role, roles, what);
    request.organisation = access;
  };
}

export const accessOf = (request: FastifyRequest): OrganisationAccess => request.organisation!;

/** The options of a route that admits members by role, and what its description says about who may call it. */
export interface MemberAdmission {
  options: { config: { session: true }; onRequest: onRequestAsyncHookHandler[] };
  note: string;
}

/** The guard of another feature's routes under /v3/organisations/{orgId}: the session, then the member's role. */
export interface MemberGuard {
  /** The path parameter it reads, as a route schema's properties. */
  params: typeof OrgParams.properties;
  /** Admits members whose role has `permission`; `what` completes "you may not …" in the refusal. */
  requireMember(permission: Permission, what: string): MemberAdmission;
  /** The organisation a request was admitted to. */
  organisationOf(request: FastifyRequest): string;
}

/** "owners, admins and members" */
function rolesInWords(roles: readonly Role[]): string {
  const plural = roles.map((role) => `${role}s`);
  return plural.length === 1 ? plural[0]! : `${plural.slice(0, -1).join(', ')} and ${plural.at(-1)}`;
}

/** Who may call, who gets 403, and what the request must carry: `view_…` permissions guard reads, the others changes. */
function admissionNote(permission: Permission): string {
  const roles: readonly Role[] = PERMISSIONS[permission];
  const refused = ROLES.filter((role) => !roles.includes(role));
  const who = refused.length === 0
    ? 'Every member of the organisation may call it.'
    : `For ${rolesInWords(roles)} of the organisation; 403 \`role_not_allowed\` for ${rolesInWords(refused)}.`;
  return `${who} ${NOT_MEMBER_NOTE}. ${permission.startsWith('view_') ? `${SESSION_NOTE}.` : CSRF_NOTE}`;
}

export function memberGuard(sessions: SessionStore, users: Users, members: Members): MemberGuard {
  const session = requireSession(sessions, users);
  return {
    params: OrgParams.properties,
    requireMember: (permission, what) => ({
      options: { config: { session: true }, onRequest: [session, organisationAccess(members, permission, what)] },
      note: admissionNote(permission),
    }),
    organisationOf: (request) => accessOf(request).organisation.id,
  };
}
