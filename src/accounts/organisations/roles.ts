// What each role of an organisation may do. This table is the role matrix of the README (a test
// holds them together); the endpoints ask it, the member and invitation stores add the rules
// between roles: only owners make owners or touch an owner, and nobody takes away the last owner.

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  /** The organisation, its plan, and the list of members. */
  view_organisation: ['owner', 'admin', 'member', 'viewer'],
  /** The fleet's vehicles and their notification settings (registrations included). */
  view_fleet: ['owner', 'admin', 'member', 'viewer'],
  /** API keys as listed: prefix and last four characters, never a secret. */
  view_keys: ['owner', 'admin', 'member'],
  /** Requests and streams per key and day. */
  view_usage: ['owner', 'admin', 'member'],
  view_audit_log: ['owner', 'admin'],
  view_invitations: ['owner', 'admin'],
  /** Add, change and remove vehicles, and set the notification settings. */
  manage_fleet: ['owner', 'admin', 'member'],
  /** Create, revoke and rotate API keys. */
  manage_keys: ['owner', 'admin'],
  /** Invite by e-mail and revoke invitations. */
  invite_members: ['owner', 'admin'],
  change_roles: ['owner', 'admin'],
  /** Remove others; every member may leave. */
  remove_members: ['owner', 'admin'],
  change_plan: ['owner'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function allowed(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Whether `actor` may give someone the role `role` (by invitation or role change): owners only make owners. */
export function mayGrant(actor: Role, role: Role): boolean {
  return actor === 'owner' || (actor === 'admin' && role !== 'owner');
}

/** Whether `actor` may change or remove a member who has the role `target`: only owners touch owners. */
export function mayManage(actor: Role, target: Role): boolean {
  return actor === 'owner' || (actor === 'admin' && target !== 'owner');
}

/** "an owner", "an admin", "a member", "a viewer": for messages and mails. */
export function aRole(role: Role): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}
