// The PostgreSQL and Redis suites run when CI (or a developer) points them at servers; otherwise
// they skip and say how to run them.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const postgresUrl = process.env.LAMIS_TEST_DATABASE_URL || undefined;
export const redisUrl = process.env.LAMIS_TEST_REDIS_URL || undefined;

export const skipPostgres: string | false = postgresUrl
  ? false
  : 'PostgreSQL suite skipped: set LAMIS_TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it';
export const skipRedis: string | false = redisUrl
  ? false
  : 'Redis suite skipped: set LAMIS_TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run it';

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
