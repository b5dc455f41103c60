// The one migration set for SQLite and PostgreSQL: the platform's and every feature's, in the order
// of their names. Each list is taken from its own module, not the feature's index: migrating (as
// `lamis migrate` does) loads the frozen migrations only, never the features they belong to.
import type { Migration } from './platform/db/migrate.ts';
import { accountsMigrations } from './accounts/migrations/index.ts';
import { aviationMigrations } from './aviation/migrations/index.ts';
import { eventsMigrations } from './events/migrations/index.ts';
import { fleetMigrations } from './fleet/migrations/index.ts';
import { intelligenceMigrations } from './intelligence/migrations/index.ts';
import { maritimeMigrations } from './maritime/migrations/index.ts';
import { notificationsMigrations } from './notifications/migrations/index.ts';
import { platformMigrations } from './platform/migrations/index.ts';
import { watchListMigrations } from './watchlist/migrations/index.ts';
import { webhooksMigrations } from './webhooks/migrations/index.ts';
import { zonesMigrations } from './zones/migrations/index.ts';

export const MIGRATIONS: readonly Migration[] = [
  ...platformMigrations, ...aviationMigrations, ...maritimeMigrations, ...accountsMigrations, ...fleetMigrations, ...eventsMigrations, ...zonesMigrations,
  ...notificationsMigrations, ...watchListMigrations, ...webhooksMigrations, ...intelligenceMigrations,
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
