// What operators grant an organisation beyond its plan, one row per organisation that has had a
// grant (no row: the defaults). Times are ISO 8601 UTC text with milliseconds, as in `0006_accounts`.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const organisationGrantsMigration: Migration = {
  name: '0013_organisation_grants',
  async up(db) {
    await db.schema
      .createTable('organisation_grants')
      .addColumn('org_id', 'text', (c) => c.primaryKey().references('organisations.id'))
      .addColumn('ais_upload', 'text', (c) => c.notNull().check(sql`ais_upload in ('shared', 'off')`))
      .addColumn('slot_share', 'double precision', (c) => c.check(sql`slot_share >= 0 and slot_share <= 1`))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
