import type { Migration } from 'kysely';
import { type AnyDb, firmTable, index, dropTables } from './helpers.js';

/**
 * Notifications (spec 2.18, 4.12, 6.2): partner webhook integrations with their push endpoint,
 * the notifications of each user, the platform events already notified, and push deliveries.
 */
export const notifications: Migration = {
  async up(db: AnyDb) {
    await firmTable(db, 'notify_integrations')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('partner_app_id', 'integer', (c) => c.notNull().references('partner_apps.id'))
      .addColumn('webhook_guid', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('label', 'text')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_custom', 'integer', (c) => c.notNull().defaultTo(0))
      // The signing secret is kept as issued: an HMAC needs the key itself, not a digest of it.
      .addColumn('push_url', 'text')
      .addColumn('push_secret', 'text')
      .addColumn('push_registered_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // One integration per user and partner: a second create answers the first (docs/decisions/notification-api.md).
    await index(db, 'notify_integrations', ['user_id', 'partner_app_id'], true);

    await firmTable(db, 'notifications')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('integration_id', 'integer', (c) => c.references('notify_integrations.id'))
      .addColumn('partner_app_id', 'integer', (c) => c.references('partner_apps.id'))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('url', 'text')
      .addColumn('category_name', 'text')
      .addColumn('action_name', 'text')
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'notifications', ['user_id', 'id']);

    // A platform event (a batch that ended, a set aside that expired) is notified once: its key
    // is claimed in the transaction that writes the notification.
    await db.schema
      .createTable('notification_sources')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
      .addColumn('notification_id', 'integer', (c) => c.references('notifications.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await firmTable(db, 'notification_deliveries')
      .addColumn('notification_id', 'integer', (c) => c.notNull().references('notifications.id'))
      .addColumn('integration_id', 'integer', (c) => c.notNull().references('notify_integrations.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'notification_deliveries', ['notification_id', 'integration_id'], true);
    await index(db, 'notification_deliveries', ['integration_id', 'id']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['notification_deliveries', 'notification_sources', 'notifications', 'notify_integrations']);
  },
};
