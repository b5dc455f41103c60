// The fleet for signed-in members: the routes of api.ts mounted under
// /v3/organisations/{orgId}/fleet. They take the dashboard session (and X-CSRF-Token on changes)
// and admit the organisation's members by role: `view_fleet` to read, `manage_fleet` to change
// (roles.ts). Someone who is not a member gets 404 `organisation_not_found`; a vehicle of another
// organisation answers 404 `vehicle_not_found`, as under /v3/fleet.
import { accessOf, NOT_MEMBER_NOTE, organisationAccess, OrgParams } from '../accounts/organisation-http.ts';
import type { Members } from '../accounts/members.ts';
import { PERMISSIONS, type Permission } from '../accounts/roles.ts';
import { CSRF_NOTE, requireSession, SESSION_NOTE } from '../accounts/session-http.ts';
import type { SessionStore } from '../accounts/sessions.ts';
import { ROLES, type Role } from '../accounts/users-migration.ts';
import type { Users } from '../accounts/users.ts';
import type { Database } from '../platform/db/database.ts';
import type { App } from '../platform/http/app.ts';
import { mountFleetRoutes, type FleetAccess, type FleetMount } from './api.ts';
import { openFleetStore } from './feature.ts';

const PERMISSION_OF: Record<FleetAccess, Permission> = { view: 'view_fleet', manage: 'manage_fleet' };

/** "owners, admins and members" */
function rolesInWords(roles: readonly Role[]): string {
  const plural = roles.map((role) => `${role}s`);
  return plural.length === 1 ? plural[0]! : `${plural.slice(0, -1).join(', ')} and ${plural.at(-1)}`;
}

/** Who may call, who gets 403, and what the request must carry. */
function accessNote(access: FleetAccess): string {
  const roles: readonly Role[] = PERMISSIONS[PERMISSION_OF[access]];
  const refused = ROLES.filter((role) => !roles.includes(role));
  const who = refused.length === 0
    ? 'Every member of the organisation may call it.'
    : `For ${rolesInWords(roles)} of the organisation; 403 \`role_not_allowed\` for ${rolesInWords(refused)}.`;
  return `${who} ${NOT_MEMBER_NOTE}. ${access === 'view' ? `${SESSION_NOTE}.` : CSRF_NOTE}`;
}

export interface OrganisationFleetDeps {
  database: Database;
  /** The key that seals registrations. */
  masterKey: Buffer;
  members: Members;
  sessions: SessionStore;
  users: Users;
}

/** The organisation's path as a fleet mount: the session's user, admitted by role. */
export function organisationMount(deps: Pick<OrganisationFleetDeps, 'members' | 'sessions' | 'users'>): FleetMount {
  const guard = requireSession(deps.sessions, deps.users);
  return {
    prefix: '/v3/organisations/:orgId/fleet',
    params: OrgParams.properties,
    ownerOf: (request) => accessOf(request).organisation.id,
    admit: (access, what) => ({
      options: { config: { session: true }, onRequest: [guard, organisationAccess(deps.members, PERMISSION_OF[access], what)] },
      note: accessNote(access),
    }),
  };
}

/** Registered after the organisation routes, which declare `request.organisation`. */
export function registerOrganisationFleetRoutes(app: App, deps: OrganisationFleetDeps): void {
  mountFleetRoutes(app, openFleetStore(deps.database, deps.masterKey), organisationMount(deps));
}
