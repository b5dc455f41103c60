// Applies the migration set in order, each migration together with its ledger row in one
// transaction, so a failure leaves the earlier migrations applied and this one not at all.
// (Kysely's own migrator runs SQLite migrations outside any transaction.) Several processes may
// migrate at once: the ledger insert comes first in each transaction and its primary key makes
// the others wait, then skip what was applied meanwhile.
import type { Kysely, Transaction } from 'kysely';
import type { Dialect, Tables } from './database.ts';

export interface Migration {
  /** Sortable and unique, e.g. `0001_vessels`. */
  name: string;
  // Migrations create tables that are not yet in `Tables`, hence `any`.
  up(db: Transaction<any>, dialect: Dialect): Promise<void>;
}

export async function migrate(db: Kysely<Tables>, dialect: Dialect, migrations: readonly Migration[]): Promise<string[]> {
  const names = migrations.map((m) => m.name);
  const sorted = [...names].sort();
  if (names.some((name, i) => name !== sorted[i]) || new Set(names).size !== names.length) {
    throw new Error(`migrations must be unique and in order: ${names.join(', ')}`);
  }
  await db.schema
    .createTable('schema_migrations')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();
  const applied = new Set((await db.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name));
  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    const ran = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('schema_migrations')
        .values({ name: migration.name, applied_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('name')
        .executeTakeFirst();
      if (!claimed) return false;
      await migration.up(trx, dialect);
      return true;
    });
    if (ran) done.push(migration.name);
  }
  return done;
}
