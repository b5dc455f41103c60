// The migrations of the fleet, in order. Each is frozen once released: it writes its values
// literally and imports no row type or vocabulary of the live code. Row types are in the
// `*.table.ts` files.
import type { Migration } from '../../platform/db/migrate.ts';
import { fleetMigration } from './0007_fleet.ts';
import { plannedArrivalsMigration } from './0016_planned_arrivals.ts';

export const fleetMigrations: readonly Migration[] = [fleetMigration, plannedArrivalsMigration];
