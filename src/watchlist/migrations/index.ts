// The migrations of the watch list, in order. Each is frozen once released: it writes its values
// literally and imports no row type or vocabulary of the live code. Row types are in `watch-list.table.ts`.
import type { Migration } from '../../platform/db/migrate.ts';
import { watchListMigration } from './0023_watch_list.ts';

export const watchListMigrations: readonly Migration[] = [watchListMigration];
