// Storage: Kysely over node:sqlite (embedded default) or PostgreSQL (DATABASE_URL). Both return
// rows in the same shapes: integers as numbers and timestamps as ISO 8601 strings, so feature code
// never branches on the back end.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import type { PlatformSettings } from '../settings.ts';
import { sqliteDialect } from './sqlite.ts';
import type { HealthCheck } from '../health.ts';

export type Dialect = 'sqlite' | 'postgres';

/** The tables of every feature, merged; features extend it as they add migrations. */
export interface Tables {
  schema_migrations: { name: string; applied_at: string };
}

export interface Database {
  readonly dialect: Dialect;
  readonly db: Kysely<Tables>;
  /** Where the data lives, without credentials (for logs and /readyz). */
  readonly location: string;
  check: HealthCheck;
  close(): Promise<void>;
}

const PG_INT8 = 20;
const PG_TIMESTAMPTZ = 1184;
const PG_TIMESTAMP = 1114;

/** Integers as numbers and timestamps as ISO strings; the rest as the driver parses them. */
function pgTypeParser(types: typeof pg.types) {
  return (oid: number, format?: string): ((value: string) => unknown) => {
    if (oid === PG_INT8) return (value) => Number(value);
    if (oid === PG_TIMESTAMPTZ || oid === PG_TIMESTAMP) {
      return (value) => new Date(oid === PG_TIMESTAMP ? `${value}Z` : value).toISOString();
    }
    return types.getTypeParser(oid, format as 'text');
  };
}

export interface OpenOptions {
  /** PostgreSQL only: run every query in this schema (tests use a fresh one each run). */
  schema?: string;
}

/** The settings storage reads: PostgreSQL when a URL is set, else SQLite in the data folder. */
export type DatabaseSettings = Pick<PlatformSettings, 'databaseUrl' | 'databasePoolMax' | 'databaseTimeoutMs' | 'dataDir'>;

/**
 * A short name of the storage, from its address (DATABASE_URL, or the SQLite data folder): what
 * deployments sharing one Redis or NATS keep apart is named by it (the webhooks' Redis stream, the
 * bus). Instances given the same address get the same name; ones given different addresses of one
 * storage get different names.
 */
export function storageName(config: Pick<DatabaseSettings, 'databaseUrl' | 'dataDir'>): string {
  return createHash('sha256').update(config.databaseUrl ?? path.resolve(config.dataDir)).digest('hex').slice(0, 16);
}

export function openDatabase(config: DatabaseSettings, options: OpenOptions = {}): Database {
  if (config.databaseUrl) {
    // Loaded only here (synchronously: it is CommonJS), so the embedded default never loads the driver.
    const driver = createRequire(import.meta.url)('pg') as typeof pg;
    const pool = new driver.Pool({
      connectionString: config.databaseUrl,
      max: config.databasePoolMax,
      connectionTimeoutMillis: config.databaseTimeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: config.databaseTimeoutMs,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
      types: { getTypeParser: pgTypeParser(driver.types) } as pg.CustomTypesConfig,
    });
    const { host, pathname } = new URL(config.databaseUrl);
    return wrap('postgres', new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }), `${host}${pathname}`);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.resolve(config.dataDir, 'lamis.sqlite');
  return wrap('sqlite', new Kysely<Tables>({ dialect: sqliteDialect(file, { busyTimeoutMs: config.databaseTimeoutMs }) }), file);
}

function wrap(dialect: Dialect, db: Kysely<Tables>, location: string): Database {
  return {
    dialect,
    db,
    location,
    async check() {
      const started = performance.now();
      try {
        await sql`select 1`.execute(db);
        return { state: 'up', detail: { dialect, latency_ms: Math.round(performance.now() - started) } };
      } catch (error) {
        return { state: 'down', detail: { dialect, error: (error as Error).message } };
      }
    },
    close: () => db.destroy(),
  };
}
