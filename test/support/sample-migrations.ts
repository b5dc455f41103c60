// Migrations for the storage suite (not the service's own set).
import { sql } from 'kysely';
import type { Migration } from '../../src/platform/db/migrate.ts';

export const createSamples: Migration = {
  name: '0001_samples',
  async up(db) {
    await db.schema
      .createTable('samples')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('big', 'bigint')
      .addColumn('ratio', 'real')
      .addColumn('flag', 'boolean')
      .addColumn('at', 'text')
      .execute();
  },
};

/** Creates a table, then fails: none of it may remain. */
export const failsHalfway: Migration = {
  name: '0002_fails',
  async up(db) {
    await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
    await sql`select * from no_such_table`.execute(db);
  },
};

export const addNotes: Migration = {
  name: '0002_notes',
  async up(db) {
    await db.schema
      .createTable('notes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('sample_id', 'integer', (c) => c.references('samples.id').notNull())
      .execute();
  },
};

/** Inserts one row: run twice, it would leave two. */
export const addCounter: Migration = {
  name: '0003_counter',
  async up(db) {
    await db.schema.createTable('counter').addColumn('n', 'integer').execute();
    await db.insertInto('counter').values({ n: 1 }).execute();
  },
};

export const ALL_SAMPLES = [createSamples, addNotes, addCounter];
