// The one migration set for SQLite and PostgreSQL: the platform's and every feature's, in the order
// of their names.
import type { Migration } from '../platform/db/migrate.ts';
import { aviationMigrations } from '../aviation/index.ts';
import { maritimeMigrations } from '../maritime/index.ts';
import { outboxMigration } from '../platform/mail/index.ts';
import { accountsMigration } from '../accounts/migration.ts';
import { fleetMigration } from '../fleet/migration.ts';
import { usersMigration } from '../accounts/users-migration.ts';
import { teamsMigration } from '../accounts/teams-migration.ts';
import { passwordResetsMigration } from '../accounts/password-reset-migration.ts';
import { organisationGrantsMigration } from '../accounts/grants-migration.ts';

export const MIGRATIONS: readonly Migration[] = [
  ...aviationMigrations, ...maritimeMigrations,
  outboxMigration, accountsMigration, fleetMigration, usersMigration, teamsMigration, passwordResetsMigration, organisationGrantsMigration,
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
