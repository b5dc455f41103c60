// The PostgreSQL, Redis and NATS suites run when CI (or a developer) points them at servers; otherwise
// they skip and say how to run them.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrate, type Migration } from '../../src/platform/db/migrate.ts';
import { testConfig } from './server.ts';

export const postgresUrl = process.env.LAMIS_TEST_DATABASE_URL || undefined;
export const redisUrl = process.env.LAMIS_TEST_REDIS_URL || undefined;
export const natsUrl = process.env.LAMIS_TEST_NATS_URL || undefined;

export const skipPostgres: string | false = postgresUrl
  ? false
  : 'PostgreSQL suite skipped: set LAMIS_TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it';
export const skipRedis: string | false = redisUrl
  ? false
  : 'Redis suite skipped: set LAMIS_TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run it';
export const skipNats: string | false = natsUrl
  ? false
  : 'NATS suite skipped: set LAMIS_TEST_NATS_URL (e.g. nats://127.0.0.1:4222) to run it';

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** A new, empty schema in the test database; every test run gets its own. */
export async function freshPostgresSchema(): Promise<{ schema: string; drop(): Promise<void> }> {
  if (!postgresUrl) throw new Error('LAMIS_TEST_DATABASE_URL is not set');
  const schema = uniqueName('lamis_test');
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return {
    schema,
    async drop() {
      const dropper = new pg.Client({ connectionString: postgresUrl });
      await dropper.connect();
      await dropper.query(`drop schema ${schema} cascade`);
      await dropper.end();
    },
  };
}

export interface StorageHandle {
  database: Database;
  /** The data folder; on SQLite it holds the database file other processes can open. */
  dataDir: string;
  /** The names `open` migrated, as `migrate` returned them. */
  migrated: string[];
  /** A second, independent handle on the same storage; the caller closes it. */
  reopen(): Database;
  /** Closes `database` and removes everything `open` made. */
  cleanup(): Promise<void>;
}

export interface StorageBackend {
  name: 'SQLite' | 'PostgreSQL';
  skip: string | false;
  open(migrations?: readonly Migration[]): Promise<StorageHandle>;
}

async function opened(
  config: ReturnType<typeof testConfig>,
  schema: string | undefined,
  migrations: readonly Migration[],
  dropSchema: () => Promise<void>,
): Promise<StorageHandle> {
  const reopen = () => openDatabase(config, { schema });
  const database = reopen();
  const cleanup = async () => {
    await database.close();
    await dropSchema();
    config.cleanup();
  };
  try {
    const migrated = migrations.length > 0 ? await migrate(database.db, database.dialect, migrations) : [];
    return { database, dataDir: config.dataDir, migrated, reopen, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** Storage suites run on SQLite always, and on PostgreSQL (in a fresh schema) when configured. */
export const STORAGE_BACKENDS: readonly StorageBackend[] = [
  {
    name: 'SQLite',
    skip: false,
    open: (migrations = []) => opened(testConfig(), undefined, migrations, async () => {}),
  },
  {
    name: 'PostgreSQL',
    skip: skipPostgres,
    async open(migrations = []) {
      const { schema, drop } = await freshPostgresSchema();
      return opened(testConfig({ databaseUrl: postgresUrl }), schema, migrations, drop);
    },
  },
];
