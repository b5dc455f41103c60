// The one migration set for SQLite and PostgreSQL: the platform's and every feature's, in the order
// of their names.
import type { Migration } from '../platform/db/migrate.ts';
import { accountsMigrations } from '../accounts/index.ts';
import { aviationMigrations } from '../aviation/index.ts';
import { fleetMigrations } from '../fleet/index.ts';
import { maritimeMigrations } from '../maritime/index.ts';
import { platformMigrations } from '../platform/migrations/index.ts';

export const MIGRATIONS: readonly Migration[] = [
  ...platformMigrations, ...aviationMigrations, ...maritimeMigrations, ...accountsMigrations, ...fleetMigrations,
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
