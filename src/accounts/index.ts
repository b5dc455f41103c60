// What the service and other features may use of accounts: the feature and what the service opens
// for it (the key store, API access), the guard of routes under an organisation's path with its
// role types, operators' grants, and the `lamis` commands of accounts.
export { accounts, openMemberGuard } from './feature.ts';
export { openAccess } from './access.ts';
export { KeyStore } from './keys.ts';
export { OrganisationGrants } from './grants.ts';
export type { MemberGuard } from './organisation-http.ts';
export type { Permission } from './roles.ts';
export type { Role } from './users-migration.ts';
export { keysCommand, orgCommand, usageCommand } from './commands.ts';
export { identityCommand } from './identity-command.ts';
