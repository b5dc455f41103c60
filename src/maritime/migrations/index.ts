// The migrations of maritime, in order. Each is frozen once released: it writes its values
// literally and imports no row type or vocabulary of the live code, so changing those never
// changes what an old migration creates. Row types are in the `*.table.ts` files.
import type { Migration } from '../../platform/db/migrate.ts';
import { vesselsMigration } from './0001_vessels.ts';
import { portCallsMigration } from './0011_port_calls.ts';
import { portWeatherMigration } from './0012_port_weather.ts';
import { berthOwnersMigration } from './0014_berth_owners.ts';
import { portAreasMigration } from './0025_port_areas.ts';
import { portCallOpenOnceMigration } from './0026_port_call_open_once.ts';

export const maritimeMigrations: readonly Migration[] = [
  vesselsMigration, portCallsMigration, portWeatherMigration, berthOwnersMigration, portAreasMigration, portCallOpenOnceMigration,
];
