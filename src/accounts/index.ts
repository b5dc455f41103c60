// What the service and other features may use of accounts: the feature and what the service opens
// for it (the key store, API access), the guard of routes under an organisation's path with its
// role types, operators' grants, the `lamis` commands and the migrations of accounts.
export { accounts, openMemberGuard } from './feature.ts';
export { openAccess } from './access.ts';
export { KeyStore } from './keys.ts';
export { OrganisationGrants } from './grants.ts';
export type { MemberGuard } from './organisation-http.ts';
export type { Permission, Role } from './roles.ts';
export { keysCommand, orgCommand, usageCommand } from './commands.ts';
export { identityCommand } from './identity-command.ts';
export { accountsMigrations } from './migrations/index.ts';
