// What the service and other features may use of accounts: the feature and what the service opens
// for it (the key store, API access), the guard of routes under an organisation's path with its
// role types, the directory of members to mail, operators' grants, where mail about an
// organisation goes, the `lamis` commands and the migrations of accounts.
export { accounts, openMemberDirectory, openMemberGuard } from './feature.ts';
export { openAccess } from './keys/access.ts';
export { KeyStore } from './keys/keys.ts';
export { apiKeyChanges, type KeyChange } from './keys/changes.ts';
export { OrganisationGrants } from './organisations/grants.ts';
export type { MemberGuard } from './organisations/organisation-access.ts';
export type { MemberAddress, MemberDirectory } from './organisations/members.ts';
export type { Permission, Role } from './organisations/roles.ts';
export { keysCommand } from './keys/keys.command.ts';
export { orgCommand } from './organisations/org.command.ts';
export { usageCommand } from './keys/usage.command.ts';
export { identityCommand } from './onboarding/identity.command.ts';
export { accountsMigrations } from './migrations/index.ts';
