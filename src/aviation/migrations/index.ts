// The migrations of aviation, in order. Each is frozen once released: it writes its values
// literally and imports no row type or vocabulary of the live code, so changing those never
// changes what an old migration creates. Row types are in the `*.table.ts` files.
import type { Migration } from '../../platform/db/migrate.ts';
import { weatherReportsMigration } from './0002_weather_reports.ts';
import { notamsMigration } from './0003_notams.ts';
import { slotsMigration } from './0004_slots.ts';

export const aviationMigrations: readonly Migration[] = [weatherReportsMigration, notamsMigration, slotsMigration];
