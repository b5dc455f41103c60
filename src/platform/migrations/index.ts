// The platform's migrations, in order; src/migrations.ts adds them to the features'.
import type { Migration } from '../db/migrate.ts';
import { outboxMigration } from './0005_outbox.ts';

export const platformMigrations: readonly Migration[] = [outboxMigration];
