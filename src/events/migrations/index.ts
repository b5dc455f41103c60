// The migrations of events, in order. Each is frozen once released: it writes its values
// literally and imports no row type or vocabulary of the live code. Row types are in
// `events.table.ts`.
import type { Migration } from '../../platform/db/migrate.ts';
import { eventsMigration } from './0015_events.ts';
import { eventChangesMigration } from './0024_event_changes.ts';
import { eventLogHorizonsMigration } from './0027_event_log_horizons.ts';
import { eventObservedAtMigration } from './0028_event_observed_at.ts';

export const eventsMigrations: readonly Migration[] = [eventsMigration, eventChangesMigration, eventLogHorizonsMigration, eventObservedAtMigration];
