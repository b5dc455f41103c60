// The migrations of the intelligence engine, in order. Each is frozen once released: it writes its
// values literally and imports no row type or vocabulary of the live code. Row types are in
// `arrival-state.table.ts`.
import type { Migration } from '../../platform/db/migrate.ts';
import { arrivalLandingStateMigration } from './0022_arrival_landing_state.ts';

export const intelligenceMigrations: readonly Migration[] = [arrivalLandingStateMigration];
