// Password-reset links: like e-mail verification links, only the SHA-256 of the token is stored.
// Times are ISO 8601 UTC text with milliseconds, as in `0008_users`.
import type { Migration } from '../../platform/db/migrate.ts';

export const passwordResetsMigration: Migration = {
  name: '0010_password_resets',
  async up(db) {
    await db.schema
      .createTable('password_resets')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
  },
};
