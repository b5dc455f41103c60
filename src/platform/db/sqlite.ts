// Kysely's SQLite dialect expects a better-sqlite3-shaped database; this adapts Node's built-in
// `node:sqlite` to it, so the embedded default needs no native addon.
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { SqliteDatabase } from 'kysely';

/** node:sqlite binds only null, numbers, bigints, strings and bytes. */
function bindable(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

function bindAll(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map(bindable);
}

export interface SqliteOptions {
  /** How long a writer waits for another connection's lock before failing (milliseconds). */
  busyTimeoutMs: number;
}

export function openSqlite(file: string, options: SqliteOptions): SqliteDatabase {
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs });
  // WAL lets readers run beside the writer; FULL syncs every commit so an acknowledged write
  // survives a power cut.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
  return {
    close: () => db.close(),
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...bindAll(parameters)),
        run: (parameters) => statement.run(...bindAll(parameters)),
        iterate: (parameters) => statement.iterate(...bindAll(parameters)),
      };
    },
  };
}
