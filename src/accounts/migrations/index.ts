// The migrations of accounts, in order. Each is frozen once released: it writes its values (roles,
// plans, statuses) literally and imports no row type or vocabulary of the live code, so changing
// those never changes what an old migration creates. Row types are in the `*.table.ts` files.
import type { Migration } from '../../platform/db/migrate.ts';
import { accountsMigration } from './0006_accounts.ts';
import { usersMigration } from './0008_users.ts';
import { teamsMigration } from './0009_teams.ts';
import { passwordResetsMigration } from './0010_password_resets.ts';
import { organisationGrantsMigration } from './0013_organisation_grants.ts';

export const accountsMigrations: readonly Migration[] = [accountsMigration, usersMigration, teamsMigration, passwordResetsMigration, organisationGrantsMigration];
