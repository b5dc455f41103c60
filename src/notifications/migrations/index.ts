// The migrations of notifications, in order. Each is frozen once released: it writes its values
// literally and imports no row type or vocabulary of the live code. Row types are in
// `notifications.table.ts`.
import type { Migration } from '../../platform/db/migrate.ts';
import { notificationsMigration } from './0020_notifications.ts';

export const notificationsMigrations: readonly Migration[] = [notificationsMigration];
