// The fleet for signed-in members: the routes of vehicles.routes.ts mounted under
// /v3/organisations/{orgId}/fleet. They take the dashboard session (and X-CSRF-Token on changes)
// and admit the organisation's members by role through the accounts' member guard: `view_fleet`
// to read, `manage_fleet` to change. Someone who is not a member gets 404
// `organisation_not_found`; a vehicle of another organisation answers 404 `vehicle_not_found`, as
// under /v3/fleet.
import type { MemberGuard, Permission } from '../accounts/index.ts';
import type { FleetAccess, FleetMount } from './vehicles.routes.ts';

const PERMISSION_OF: Record<FleetAccess, Permission> = { view: 'view_fleet', manage: 'manage_fleet' };

/** The organisation's path as a fleet mount: the session's user, admitted by role. */
export function organisationMount(guard: MemberGuard): FleetMount {
  return {
    prefix: '/v3/organisations/:orgId/fleet',
    params: guard.params,
    ownerOf: (request) => guard.organisationOf(request),
    admit: (access, what) => guard.requireMember(PERMISSION_OF[access], what),
  };
}
