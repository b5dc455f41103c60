// Kysely's SQLite dialect expects a better-sqlite3-shaped database; this adapts Node's built-in
// `node:sqlite` to it, so the embedded default needs no native addon, and waits for another
// connection's write lock without holding the thread.
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase } from 'kysely';

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

/**
 * Kysely's SQLite dialect over the database file. Writers share one lock per file: the AIS
 * ingest thread's recorder takes it for a few milliseconds at a time, chunk after chunk, and the
 * serving thread's writes (port calls, accounts, events) meet it. SQLite's own busy handler waits
 * by sleeping the thread, and retried only after 1, 2, 5, 10... ms, often finding the next chunk
 * holding the lock: a port call's insert held the serving thread up to 131 ms. Here a statement
 * that finds the lock taken tries again after a timer, the thread serving meanwhile, until
 * `busyTimeoutMs` has passed; then SQLite's "database is locked" stands.
 */
export function sqliteDialect(file: string, options: SqliteOptions): SqliteDialect {
  const database = openSqlite(file, options);
  return new (class extends SqliteDialect {
    override createDriver(): Driver {
      return new PatientSqliteDriver(database, options.busyTimeoutMs);
    }
  })({ database });
}

/** The longest pause between two tries for the lock. */
const MAX_LOCK_PAUSE_MS = 4;
/** SQLITE_BUSY, and its extended codes in the upper bits. */
const SQLITE_BUSY = 5;

class PatientSqliteDriver extends SqliteDriver {
  readonly #busyTimeoutMs: number;
  #patient: DatabaseConnection | null = null;

  constructor(database: SqliteDatabase, busyTimeoutMs: number) {
    super({ database });
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  // The one connection, its queries retried while the lock is taken; beginning, committing and
  // rolling back a transaction go through it too.
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#patient ??= {
      executeQuery: (query) => whenUnlocked(() => connection.executeQuery(query), this.#busyTimeoutMs),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.#patient;
  }
}

async function whenUnlocked<T>(run: () => Promise<T>, busyTimeoutMs: number): Promise<T> {
  const deadline = performance.now() + busyTimeoutMs;
  for (let pause = 1; ; pause = Math.min(2 * pause, MAX_LOCK_PAUSE_MS)) {
    try {
      return await run();
    } catch (error) {
      const busy = ((error as { errcode?: number }).errcode ?? 0) % 256 === SQLITE_BUSY;
      if (!busy || performance.now() >= deadline) throw error;
    }
    await sleep(pause);
  }
}

/** Prepared statements kept per connection; the oldest goes first past it. */
const MAX_STATEMENTS = 500;

/**
 * The database file, adapted. Once it is set up, a statement that finds the write lock taken
 * fails at once (SQLITE_BUSY), for PatientSqliteDriver to try again.
 */
function openSqlite(file: string, options: SqliteOptions): SqliteDatabase {
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs });
  // WAL lets readers run beside the writer; FULL syncs every commit so an acknowledged write
  // survives a power cut.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 0;');
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
