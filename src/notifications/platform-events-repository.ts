import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { centsToDollars } from '../shared/money.js';
import { insertNotification } from './repository.js';

/**
 * The platform's own notifications (partnerAppName `Platform`, integrationId null). These run
 * inside the transaction of the change they report, so a notification commits with its event or
 * not at all; each event's key is claimed once, so retries and racing workers notify once.
 */
export const PLATFORM_CATEGORY = { rebalance: 'Rebalance', setAside: 'Set Aside Cash' } as const;

async function claim(trx: Kysely<Database>, key: string, firmId: number, now: string): Promise<boolean> {
  const row = await trx
    .insertInto('notification_sources')
    .values({ key, firm_id: firmId, notification_id: null, created_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

async function link(trx: Kysely<Database>, key: string, notificationId: number) {
  await trx.updateTable('notification_sources').set({ notification_id: notificationId }).where('key', '=', key).execute();
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** BatchRepository's BatchEndedHook: tells the user who started a rebalance that it ended. */
export async function recordBatchEnded(trx: Kysely<Database>, batchId: number, now: string): Promise<void> {
  const batch = await trx
    .selectFrom('batches as b')
    .innerJoin('users as u', (join) => join.onRef('u.id', '=', 'b.created_by_user_id').onRef('u.firm_id', '=', 'b.firm_id'))
    .select(['b.id', 'b.firm_id', 'b.status', 'b.message', 'b.total_items', 'b.items_completed', 'b.error_count', 'b.warning_count', 'b.created_by_user_id', 'u.is_active'])
    .where('b.id', '=', batchId)
    .executeTakeFirst();
  if (!batch || batch.status === 'Running') return;
  const key = `batch:${batch.id}`;
  if (!(await claim(trx, key, batch.firm_id, now))) return;
  if (batch.is_active !== 1) return;
  const counts = `${batch.items_completed} of ${plural(batch.total_items, 'item')}, ${plural(batch.error_count, 'error')}, ${plural(batch.warning_count, 'warning')}.`;
  const id = await insertNotification(
    trx,
    {
      firmId: batch.firm_id,
      userId: batch.created_by_user_id,
      integrationId: null,
      partnerAppId: null,
      subject: `Rebalance batch ${batch.id} ${batch.status}`,
      body: `Rebalance batch ${batch.id} ended ${batch.status}: ${counts}${batch.message ? ` ${batch.message}` : ''}`,
      url: `{base_url}/Trading/TradeGenerationStatus/${batch.id}/Message`,
      categoryName: PLATFORM_CATEGORY.rebalance,
      actionName: null,
    },
    now,
  );
  await link(trx, key, id);
}

export type SetAsideExpiry = { by: 'transaction'; transactionId: number; date: string } | { by: 'date'; today: string };

function amountOf(row: { cash_amount_type_id: number; cash_amount_pct: number | null; initial_amount_cents: number | null; cash_amount_cents: number | null }) {
  if (row.cash_amount_type_id === 2) return `${Number(row.cash_amount_pct ?? 0)}%`;
  const dollars = centsToDollars(Number(row.initial_amount_cents ?? row.cash_amount_cents ?? 0));
  return dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

/**
 * Tells the user who created each set aside (its `created_by` user name, in the record's firm)
 * that it expired. A creator who is no longer an active user is told nothing; the record still
 * counts as notified.
 */
export async function recordSetAsidesExpired(trx: Kysely<Database>, firmId: number, ids: number[], expiry: SetAsideExpiry, now: string): Promise<number> {
  let notified = 0;
  for (const setAsideId of ids) {
    const row = await trx
      .selectFrom('set_aside_cash as s')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .leftJoin('users as u', (join) => join.onRef('u.firm_id', '=', 's.firm_id').on('u.user_name', '=', sql<string>`lower(s.created_by)`))
      .select(['s.id', 's.account_id', 's.description', 's.cash_amount_type_id', 's.cash_amount_pct', 's.cash_amount_cents', 's.initial_amount_cents', 's.expiration_type_id', 's.expiration_date', 's.is_deleted', 'a.number as account_number', 'u.id as user_id', 'u.is_active'])
      .where('s.firm_id', '=', firmId)
      .where('s.id', '=', setAsideId)
      .executeTakeFirst();
    if (!row || row.is_deleted === 1) continue;
    // The sweep's pick is checked again here: the record may have changed since it was read.
    if (expiry.by === 'date' && !(row.expiration_type_id === 1 && row.expiration_date !== null && row.expiration_date < expiry.today)) continue;
    const key = `set-aside:${row.id}`;
    if (!(await claim(trx, key, firmId, now))) continue;
    if (row.user_id === null || row.is_active !== 1) continue;
    const what = `${row.description?.trim() || 'Set aside cash'} (${amountOf(row)}) on account ${row.account_number}`;
    const how = expiry.by === 'transaction' ? `expired on ${expiry.date} by transaction ${expiry.transactionId}.` : `expired after ${row.expiration_date}, its last protected day.`;
    const id = await insertNotification(
      trx,
      {
        firmId,
        userId: row.user_id,
        integrationId: null,
        partnerAppId: null,
        subject: `Set aside cash expired on account ${row.account_number}`,
        body: `${what} ${how}`,
        url: `{rebalancer_base_url}/v1/account/accounts/${row.account_id}/asidecash/${row.id}`,
        categoryName: PLATFORM_CATEGORY.setAside,
        actionName: null,
      },
      now,
    );
    await link(trx, key, id);
    notified++;
  }
  return notified;
}

/** The sweep's reads and writes for set asides expiring by date. */
export class SetAsideExpiryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Date records past their last protected day (no earlier than `earliest`) not yet notified. */
  due(today: string, earliest: string, limit: number) {
    return this.db
      .selectFrom('set_aside_cash as s')
      .leftJoin('notification_sources as n', (join) => join.on('n.key', '=', sql<string>`'set-aside:' || cast(s.id as text)`))
      .select(['s.id', 's.firm_id'])
      .where('s.expiration_type_id', '=', 1)
      .where('s.is_deleted', '=', 0)
      .where('s.is_expired', '=', 0)
      .where('s.expiration_date', '<', today)
      .where('s.expiration_date', '>=', earliest)
      .where('n.key', 'is', null)
      .orderBy('s.id')
      .limit(limit)
      .execute();
  }

  notify(rows: { id: number; firm_id: number }[], today: string, now: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let notified = 0;
      const byFirm = new Map<number, number[]>();
      for (const row of rows) byFirm.set(row.firm_id, [...(byFirm.get(row.firm_id) ?? []), row.id]);
      for (const [firmId, ids] of byFirm) notified += await recordSetAsidesExpired(trx, firmId, ids, { by: 'date', today }, now);
      return notified;
    });
  }
}
