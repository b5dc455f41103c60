// The one migration set for SQLite and PostgreSQL, in order. Features add theirs here.
import type { Migration } from '../platform/db/migrate.ts';
import { slotsMigration } from '../aviation/landing/migration.ts';
import { notamsMigration } from '../aviation/notams/store-migration.ts';
import { weatherReportsMigration } from '../aviation/weather/reports-migration.ts';
import { vesselsMigration } from '../maritime/vessels/migration.ts';
import { platformMigrations } from '../platform/migrations/index.ts';
import { accountsMigration } from '../accounts/migration.ts';
import { fleetMigration } from '../fleet/migration.ts';
import { usersMigration } from '../accounts/users-migration.ts';
import { teamsMigration } from '../accounts/teams-migration.ts';
import { passwordResetsMigration } from '../accounts/password-reset-migration.ts';
import { berthOwnersMigration, portCallsMigration } from '../maritime/ports/migration.ts';
import { portWeatherMigration } from '../maritime/weather/migration.ts';
import { organisationGrantsMigration } from '../accounts/grants-migration.ts';

export const MIGRATIONS: readonly Migration[] = [vesselsMigration, weatherReportsMigration, notamsMigration, slotsMigration, ...platformMigrations, accountsMigration, fleetMigration, usersMigration, teamsMigration, passwordResetsMigration, portCallsMigration, portWeatherMigration, organisationGrantsMigration, berthOwnersMigration];
