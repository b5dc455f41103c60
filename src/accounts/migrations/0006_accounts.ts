// Accounts storage: organisations, their API keys, the audit log and daily usage. Times are ISO 8601
// UTC text with milliseconds, so text order is time order on both back ends. Users and members
// come later: `api_keys.created_by` and the `user:…` actors of the audit log will name their ids.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const accountsMigration: Migration = {
  name: '0006_accounts',
  async up(db, dialect) {
    await db.schema
      .createTable('organisations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('starter', 'pro', 'enterprise')`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('development', 'production')`))
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('last4', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('last_used_at', 'text')
      .addColumn('rotated_from', 'text', (c) => c.references('api_keys.id'))
      .addColumn('overlap_until', 'text')
      .addColumn('created_by', 'text')
      .execute();
    await db.schema.createIndex('api_keys_org').on('api_keys').columns(['org_id', 'created_at']).execute();
    // Integer ids keep the log in the order it was written, entries of the same millisecond too.
    await db.schema
      .createTable('audit_log')
      .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_org').on('audit_log').columns(['org_id', 'id']).execute();
    await db.schema
      .createTable('usage_daily')
      .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('requests', 'integer', (c) => c.notNull())
      .addColumn('streams', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_daily_pk', ['org_id', 'day', 'key_id'])
      .execute();
  },
};
