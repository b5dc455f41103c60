// The one migration set for SQLite and PostgreSQL, in order. Features add theirs here.
import type { Migration } from '../platform/db/migrate.ts';

export const MIGRATIONS: readonly Migration[] = [];
