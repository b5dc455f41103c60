// Users and what hangs off them: memberships of organisations, e-mail verification links,
// dashboard sessions, throttling events and identity checks. Times are ISO 8601 UTC text with
// milliseconds, as in `0006_accounts`; lists and objects are JSON text. Secrets (session ids,
// verification tokens) are stored only as SHA-256 hashes, identity documents only sealed.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const usersMigration: Migration = {
  name: '0008_users',
  async up(db) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_key', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('duplicate_of', 'text', (c) => c.references('users.id'))
      .addColumn('email_verified_at', 'text')
      .addColumn('vehicle_category', 'text', (c) => c.check(sql`vehicle_category in ('aircraft', 'helicopter', 'vessel')`))
      .addColumn('country', 'text')
      .addColumn('default_feeds', 'text')
      .addColumn('password_changed_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // One account per address; duplicate sign-ups (which never own it) are outside the index.
    await db.schema.createIndex('users_email_key').on('users').column('email_key').unique()
      .where(sql.ref('duplicate_of'), 'is', null).execute();

    await db.schema
      .createTable('memberships')
      .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member', 'viewer')`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
      .execute();
    await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

    await db.schema
      .createTable('email_verifications')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('email_verifications_user').on('email_verifications').column('user_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('address', 'text')
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('throttle_events')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('throttle_events_subject').on('throttle_events').columns(['subject', 'at']).execute();
    await db.schema.createIndex('throttle_events_at').on('throttle_events').column('at').execute();

    await db.schema
      .createTable('identity_checks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'manual_review', 'verified', 'rejected')`))
      .addColumn('document_sealed', 'text')
      .addColumn('document_type', 'text', (c) => c.notNull())
      .addColumn('document_sha256', 'text', (c) => c.notNull())
      .addColumn('reasons', 'text', (c) => c.notNull())
      .addColumn('document_summary', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('checked_at', 'text')
      .addColumn('settled_at', 'text')
      .addColumn('settled_by', 'text', (c) => c.check(sql`settled_by in ('automatic', 'operator')`))
      .execute();
    await db.schema.createIndex('identity_checks_user').on('identity_checks').columns(['user_id', 'created_at']).execute();
    // A user has at most one check that is not rejected: a new upload only after a rejection.
    await db.schema.createIndex('identity_checks_open').on('identity_checks').column('user_id').unique()
      .where(sql.ref('status'), '<>', 'rejected').execute();
    await db.schema.createIndex('identity_checks_status').on('identity_checks').column('status').execute();
  },
};
