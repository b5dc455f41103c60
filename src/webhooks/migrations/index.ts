// The migrations of webhooks, in order. Each is frozen once released: it writes its values
// literally and imports no row type or vocabulary of the live code. Row types are in
// `webhooks.table.ts`.
import type { Migration } from '../../platform/db/migrate.ts';
import { webhooksMigration } from './0018_webhooks.ts';

export const webhooksMigrations: readonly Migration[] = [webhooksMigration];
