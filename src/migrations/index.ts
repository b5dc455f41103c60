// The one migration set for SQLite and PostgreSQL: the platform's and every feature's, in the order
// of their names.
import type { Migration } from '../platform/db/migrate.ts';
import { accountsMigrations } from '../accounts/index.ts';
import { slotsMigration } from '../aviation/landing/migration.ts';
import { notamsMigration } from '../aviation/notams/store-migration.ts';
import { weatherReportsMigration } from '../aviation/weather/reports-migration.ts';
import { fleetMigrations } from '../fleet/index.ts';
import { vesselsMigration } from '../maritime/vessels/migration.ts';
import { platformMigrations } from '../platform/migrations/index.ts';
import { berthOwnersMigration, portCallsMigration } from '../maritime/ports/migration.ts';
import { portWeatherMigration } from '../maritime/weather/migration.ts';

export const MIGRATIONS: readonly Migration[] = [
  vesselsMigration, weatherReportsMigration, notamsMigration, slotsMigration, portCallsMigration, portWeatherMigration, berthOwnersMigration,
  ...platformMigrations, ...accountsMigrations, ...fleetMigrations,
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
