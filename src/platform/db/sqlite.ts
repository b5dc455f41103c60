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

/** Prepared statements kept per connection; the oldest goes first past it. */
const MAX_STATEMENTS = 500;

export function openSqlite(file: string, options: SqliteOptions): SqliteDatabase {
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs });
  // WAL lets readers run beside the writer; FULL syncs every commit so an acknowledged write
  // survives a power cut.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
  // Kysely prepares every query it runs; compiling the same SQL again each time costs more than
  // running it, so statements are kept by their text (the one connection runs one query at a time).
  const statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  return {
    close: () => db.close(),
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached !== undefined) return cached;
      // Transactions take the write lock as they begin. A deferred one that read first and then
      // writes after another connection (the AIS ingest thread's) committed fails at once with
      // "database is locked", without waiting out the busy timeout.
      const statement = db.prepare(sql === 'begin' ? 'begin immediate' : sql);
      const prepared = {
        reader: statement.columns().length > 0,
        all: (parameters: ReadonlyArray<unknown>) => statement.all(...bindAll(parameters)),
        run: (parameters: ReadonlyArray<unknown>) => statement.run(...bindAll(parameters)),
        iterate: (parameters: ReadonlyArray<unknown>) => statement.iterate(...bindAll(parameters)),
      };
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
      statements.set(sql, prepared);
      return prepared;
    },
  };
}
