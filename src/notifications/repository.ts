import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, NotificationDeliveryTable, NotifyIntegrationTable } from '../db/schema.js';
import { OutboxRepository } from '../outbox/repository.js';

/** The outbox topic of push deliveries: one message per delivery, payload `{ deliveryId }`. */
export const PUSH_TOPIC = 'notification.push';

export type IntegrationRow = Selectable<NotifyIntegrationTable> & { user_name: string; user_active: number; app_name: string };
export type DeliveryRow = Selectable<NotificationDeliveryTable>;

export interface NewNotification {
  firmId: number;
  userId: number;
  integrationId: number | null;
  partnerAppId: number | null;
  subject: string;
  body: string;
  url: string | null;
  categoryName: string | null;
  actionName: string | null;
}

export interface NotificationRow {
  id: number;
  firm_id: number;
  user_name: string;
  created_at: string;
  subject: string;
  body: string;
  url: string | null;
  status: number;
  app_name: string | null;
  category_name: string | null;
  integration_id: number | null;
  action_name: string | null;
}

/**
 * Writes a notification and, in the same transaction, one push delivery (and its outbox message)
 * per endpoint the user's integrations registered, so a notification is never stored without its
 * pushes or pushed without being stored.
 */
export async function insertNotification(trx: Kysely<Database>, n: NewNotification, now: string): Promise<number> {
  const { id } = await trx
    .insertInto('notifications')
    .values({
      firm_id: n.firmId,
      user_id: n.userId,
      integration_id: n.integrationId,
      partner_app_id: n.partnerAppId,
      subject: n.subject,
      body: n.body,
      url: n.url,
      category_name: n.categoryName,
      action_name: n.actionName,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const endpoints = await trx
    .selectFrom('notify_integrations')
    .select('id')
    .where('user_id', '=', n.userId)
    .where('is_active', '=', 1)
    .where('push_url', 'is not', null)
    .orderBy('id')
    .execute();
  if (endpoints.length > 0) {
    const deliveries = await trx
      .insertInto('notification_deliveries')
      .values(endpoints.map((e) => ({ firm_id: n.firmId, notification_id: id, integration_id: e.id, status: 'pending' as const, created_at: now, updated_at: now })))
      .returning('id')
      .execute();
    await OutboxRepository.enqueue(trx, deliveries.map((d) => ({ firmId: n.firmId, topic: PUSH_TOPIC, payload: { deliveryId: d.id } })), now);
  }
  return id;
}

/** Reads notifications in their read shape: the user's name and the posting partner's name joined. */
function readQuery(db: Kysely<Database>) {
  return db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .leftJoin('partner_apps as p', 'p.id', 'n.partner_app_id')
    .select([
      'n.id',
      'n.firm_id',
      'u.user_name',
      'n.created_at',
      'n.subject',
      'n.body',
      'n.url',
      'n.status',
      'p.name as app_name',
      'n.category_name',
      'n.integration_id',
      'n.action_name',
    ]);
}

export class NotificationRepository {
  constructor(readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: NotificationRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx: Transaction<Database>) => work(new NotificationRepository(trx)));
  }

  user(id: number) {
    return this.db.selectFrom('users').select(['id', 'firm_id', 'user_name', 'is_active']).where('id', '=', id).executeTakeFirst();
  }

  private integrations() {
    return this.db
      .selectFrom('notify_integrations as i')
      .innerJoin('users as u', 'u.id', 'i.user_id')
      .innerJoin('partner_apps as p', 'p.id', 'i.partner_app_id')
      .selectAll('i')
      .select(['u.user_name', 'u.is_active as user_active', 'p.name as app_name']);
  }

  integrationByGuid(guid: string): Promise<IntegrationRow | undefined> {
    return this.integrations().where('i.webhook_guid', '=', guid).executeTakeFirst();
  }

  integrationById(firmId: number, id: number): Promise<IntegrationRow | undefined> {
    return this.integrations().where('i.firm_id', '=', firmId).where('i.id', '=', id).executeTakeFirst();
  }

  integrationOf(userId: number, partnerAppId: number): Promise<IntegrationRow | undefined> {
    return this.integrations().where('i.user_id', '=', userId).where('i.partner_app_id', '=', partnerAppId).executeTakeFirst();
  }

  /** Inserts unless the user already has an integration with the partner; true when this call created it. */
  async insertIntegration(row: { firmId: number; userId: number; partnerAppId: number; guid: string; name: string; label: string | null; now: string }) {
    const inserted = await this.db
      .insertInto('notify_integrations')
      .values({ firm_id: row.firmId, user_id: row.userId, partner_app_id: row.partnerAppId, webhook_guid: row.guid, name: row.name, label: row.label, is_active: 1, is_custom: 0, created_at: row.now })
      .onConflict((oc) => oc.columns(['user_id', 'partner_app_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async setEndpoint(id: number, url: string | null, secret: string | null, now: string | null) {
    await this.db.updateTable('notify_integrations').set({ push_url: url, push_secret: secret, push_registered_at: now }).where('id', '=', id).execute();
  }

  insert(n: NewNotification, now: string) {
    return insertNotification(this.db, n, now);
  }

  notification(id: number): Promise<NotificationRow | undefined> {
    return readQuery(this.db).where('n.id', '=', id).executeTakeFirst();
  }

  /** The user's notifications, newest first; `sinceId` keeps only those written after it. */
  async notifications(userId: number, page: { top: number; skip: number; sinceId?: number }): Promise<{ rows: NotificationRow[]; total: number }> {
    let rows = readQuery(this.db).where('n.user_id', '=', userId);
    let count = this.db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId);
    if (page.sinceId !== undefined) {
      rows = rows.where('n.id', '>', page.sinceId);
      count = count.where('id', '>', page.sinceId);
    }
    const [list, total] = await Promise.all([rows.orderBy('n.id', 'desc').limit(page.top).offset(page.skip).execute(), count.executeTakeFirstOrThrow()]);
    return { rows: list, total: Number(total.n) };
  }

  async deliveries(integrationId: number, page: { top: number; skip: number }): Promise<{ rows: DeliveryRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db.selectFrom('notification_deliveries').selectAll().where('integration_id', '=', integrationId).orderBy('id', 'desc').limit(page.top).offset(page.skip).execute(),
      this.db.selectFrom('notification_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('integration_id', '=', integrationId).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** A delivery with what sending it needs: the endpoint as registered now. */
  delivery(id: number) {
    return this.db
      .selectFrom('notification_deliveries as d')
      .innerJoin('notify_integrations as i', 'i.id', 'd.integration_id')
      .select(['d.id', 'd.notification_id', 'd.status', 'i.push_url', 'i.push_secret', 'i.is_active'])
      .where('d.id', '=', id)
      .executeTakeFirst();
  }

  async updateDelivery(id: number, patch: { status: DeliveryRow['status']; attempts: number; lastError: string | null; deliveredAt: string | null; now: string }) {
    await this.db
      .updateTable('notification_deliveries')
      .set({ status: patch.status, attempts: patch.attempts, last_error: patch.lastError?.slice(0, 1000) ?? null, delivered_at: patch.deliveredAt, updated_at: patch.now })
      .where('id', '=', id)
      // A delivery that ended stays ended, whatever a late retry of its message reports.
      .where('status', '=', 'pending')
      .execute();
  }
}
