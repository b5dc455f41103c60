// Teams: invitations to join an organisation. Memberships themselves are in `0008_users`. The
// token in the invitation link is stored only as its SHA-256; an invitation is open until it is
// accepted, revoked (by an owner or admin, or by a newer invitation to the same address) or past
// `expires_at`, and each organisation has at most one open invitation per address.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const teamsMigration: Migration = {
  name: '0009_teams',
  async up(db) {
    await db.schema
      .createTable('invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_key', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member', 'viewer')`))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('invited_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('accepted_at', 'text')
      .addColumn('accepted_by', 'text', (c) => c.references('users.id'))
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('invitations_org').on('invitations').columns(['org_id', 'created_at']).execute();
    // One open invitation per organisation and address: a new one revokes the one before.
    await db.schema.createIndex('invitations_open').on('invitations').columns(['org_id', 'email_key']).unique()
      .where(sql.ref('accepted_at'), 'is', null).where(sql.ref('revoked_at'), 'is', null).execute();
  },
};
