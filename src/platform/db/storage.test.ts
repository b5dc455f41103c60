// The storage suite: the same tests on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { execFile } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { testConfig } from '../../../test/support/server.ts';
import { MIGRATIONS } from '../../migrations.ts';
import { openDatabase, type Database } from './database.ts';
import { migrate } from './migrate.ts';
import { ALL_SAMPLES, addNotes, createSamples, failsHalfway } from '../../../test/support/sample-migrations.ts';

/** Runs the sample migrations from another process against the SQLite file in dataDir. */
function migrateInChildProcess(dataDir: string): Promise<string[]> {
  const module = (relative: string) => JSON.stringify(fileURLToPath(new URL(relative, import.meta.url)));
  const script = `
    import { openDatabase } from ${module('./database.ts')};
    import { migrate } from ${module('./migrate.ts')};
    import { defaultConfig } from ${module('../../config.ts')};
    import { ALL_SAMPLES } from ${module('../../../test/support/sample-migrations.ts')};
    const database = openDatabase(defaultConfig({ dataDir: ${JSON.stringify(dataDir)} }));
    console.log(JSON.stringify(await migrate(database.db, database.dialect, ALL_SAMPLES)));
    await database.close();`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout)));
  });
}

async function tableExists(database: Database, table: string): Promise<boolean> {
  const tables = await database.db.introspection.getTables();
  return tables.some((t) => t.name === table);
}

for (const backend of STORAGE_BACKENDS) {
  describe(`storage on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let database: Database;
    // The test tables are not part of the service's Tables type.
    let db: Kysely<any>;

    before(async () => {
      handle = await backend.open();
      database = handle.database;
      db = database.db;
    });
    after(() => handle.cleanup());

    test('a failing migration leaves nothing of itself and keeps the ones before it', async () => {
      await assert.rejects(migrate(database.db, database.dialect, [createSamples, failsHalfway]), /no_such_table|no such table/);
      assert.equal(await tableExists(database, 'samples'), true);
      assert.equal(await tableExists(database, 'half_done'), false);
      const ledger = await db.selectFrom('schema_migrations').select('name').execute();
      assert.deepEqual(ledger.map((r) => r.name), ['0001_samples']);
    });

    test('migrating again applies only what is pending, once', async () => {
      assert.deepEqual(await migrate(database.db, database.dialect, [createSamples, addNotes]), ['0002_notes']);
      assert.deepEqual(await migrate(database.db, database.dialect, [createSamples, addNotes]), []);
    });

    test('two migrators at once apply each migration once', async () => {
      const results = backend.name === 'SQLite'
        // node:sqlite is synchronous: concurrent SQLite writers are separate processes.
        ? await Promise.all([migrateInChildProcess(handle.dataDir), migrateInChildProcess(handle.dataDir)])
        : await (async () => {
          const other = handle.reopen();
          try {
            return await Promise.all([migrate(database.db, database.dialect, ALL_SAMPLES), migrate(other.db, other.dialect, ALL_SAMPLES)]);
          } finally {
            await other.close();
          }
        })();
      assert.deepEqual(results.flat(), ['0003_counter']);
      const rows = await db.selectFrom('counter').selectAll().execute();
      assert.equal(rows.length, 1);
    });

    test('migrations out of order are refused', async () => {
      await assert.rejects(migrate(database.db, database.dialect, [addNotes, createSamples]), /unique and in order/);
    });

    test('values come back in the same shapes on every back end', async () => {
      const at = '2026-11-21T14:20:00.000Z';
      await db.insertInto('samples').values({ id: 1, label: 'Ålesund ⚓', big: 9_007_199_254_740_991, ratio: 0.125, flag: true, at }).execute();
      const row = await db.selectFrom('samples').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
      assert.deepEqual({ ...row, flag: Boolean(row.flag) }, { id: 1, label: 'Ålesund ⚓', big: 9_007_199_254_740_991, ratio: 0.125, flag: true, at });
      const count = await db.selectFrom('samples').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 1);
    });

    test('a transaction that throws leaves no trace', async () => {
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await trx.insertInto('samples').values({ id: 2, label: 'rolled back' }).execute();
          throw new Error('abort');
        }),
        /abort/,
      );
      assert.equal(await db.selectFrom('samples').select('id').where('id', '=', 2).executeTakeFirst(), undefined);
    });

    test('foreign keys are enforced', async () => {
      await assert.rejects(db.insertInto('notes').values({ id: 1, sample_id: 999 }).execute(), /foreign key|FOREIGN KEY/i);
    });

    test('the service migration set applies cleanly', async () => {
      const applied = await migrate(database.db, database.dialect, MIGRATIONS);
      assert.deepEqual(applied, MIGRATIONS.map((m) => m.name));
    });

    test('readiness reports the back end', async () => {
      const result = await database.check();
      assert.equal(result.state, 'up');
      assert.equal(result.detail?.dialect, database.dialect);
    });
  });
}

describe('SQLite durability settings', () => {
  test('WAL journal, full sync and foreign keys are on', async () => {
    const config = testConfig();
    const database = openDatabase(config);
    try {
      const pragma = async (name: string) => Object.values((await sql.raw(`PRAGMA ${name}`).execute(database.db)).rows[0] as object)[0];
      assert.equal(await pragma('journal_mode'), 'wal');
      assert.equal(await pragma('synchronous'), 2); // FULL
      assert.equal(await pragma('foreign_keys'), 1);
    } finally {
      await database.close();
      config.cleanup();
    }
  });
});

describe('SQLite write lock', () => {
  // Another connection holding the write lock, as the AIS ingest thread's recorder does, chunk by chunk.
  async function withLockHeld(databaseTimeoutMs: number, run: (database: Database, holder: DatabaseSync) => Promise<void>): Promise<void> {
    const config = testConfig({ databaseTimeoutMs });
    const database = openDatabase(config);
    const holder = new DatabaseSync(database.location);
    try {
      await sql`create table notes (text text not null)`.execute(database.db);
      holder.exec("begin immediate; insert into notes values ('held')");
      await run(database, holder);
    } finally {
      if (holder.isTransaction) holder.exec('rollback');
      holder.close();
      await database.close();
      config.cleanup();
    }
  }

  test('a write that finds it taken waits with the thread free, and goes in once it is released', async () => {
    await withLockHeld(10_000, async (database, holder) => {
      let settled = false;
      const written = database.db.transaction().execute((trx) => sql`insert into notes values ('waited')`.execute(trx))
        .finally(() => void (settled = true));
      // SQLite's own busy handler would sleep the thread through this timer, up to the 10 s timeout.
      await sleep(50);
      assert.equal(settled, false, 'the write waits for the lock');
      holder.exec('commit');
      await written;
      const texts = await sql<{ text: string }>`select text from notes order by rowid`.execute(database.db);
      assert.deepEqual(texts.rows.map((row) => row.text), ['held', 'waited']);
    });
  });

  test('after the busy timeout SQLite\'s "database is locked" stands, and the thread served meanwhile', async () => {
    await withLockHeld(150, async (database) => {
      let timerFired = false;
      setTimeout(() => void (timerFired = true), 20);
      await assert.rejects(sql`insert into notes values ('late')`.execute(database.db), /database is locked/);
      assert.ok(timerFired, 'a timer due during the wait ran');
    });
  });
});
