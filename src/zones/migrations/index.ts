// The migrations of zones, in order. Each is frozen once released: it writes its values literally
// and imports no row type or vocabulary of the live code. Row types are in `zones.table.ts`.
import type { Migration } from '../../platform/db/migrate.ts';
import { zonesMigration } from './0017_zones.ts';

export const zonesMigrations: readonly Migration[] = [zonesMigration];
