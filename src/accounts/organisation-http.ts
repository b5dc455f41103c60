// Organisation routes over HTTP: `organisationAccess`, the hook of every route under
// /v3/organisations/{orgId}. It runs after `requireSession`, before the body is read, and admits
// members of the organisation whose role has the route's permission (roles.ts). Someone who is not
// a member gets 404 `organisation_not_found`, as for an id that does not exist, so nobody learns
// which organisations exist; a member whose role falls short gets 403 `role_not_allowed`.
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import { ProblemError } from '../platform/http/problems.ts';
import type { Members, OrganisationAccess } from './members.ts';
import { organisationNotFound, roleNotAllowed } from './organisation-problems.ts';
import { aRole, PERMISSIONS, type Permission } from './roles.ts';
import type { Role } from './users-migration.ts';

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
