// Webhook endpoints of each organisation and the outbox of their deliveries, one row per endpoint
// and event change, written in the transaction of the change.
import type { Migration } from '../../platform/db/migrate.ts';

export const webhooksMigration: Migration = {
  name: '0018_webhooks',
  async up(db) {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('kinds', 'text')
      .addColumn('description', 'text')
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('secret_sealed', 'text', (c) => c.notNull())
      .addColumn('previous_secret_sealed', 'text')
      .addColumn('previous_secret_until', 'text')
      .addColumn('last_success_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhooks_org_created').on('webhooks').columns(['org_id', 'created_at', 'id']).execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_attempt_at', 'text')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_latency_ms', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_deliveries_webhook_created').on('webhook_deliveries').columns(['webhook_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').column('next_attempt_at').execute();
  },
};
