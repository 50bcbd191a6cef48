import { type Kysely, sql } from 'kysely';
import { firmCheck } from '../db/firm-check.js';
import { type PageRequest, withTotal } from '../db/paging.js';
import type { Database } from '../db/schema.js';

/** Trade instances and their trades as users list, page and cancel them. */
export class TradeInstanceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Trade instances of a firm with their batch and how many trades they hold. */
  private instanceRows(firmId: number) {
    return this.db
      .selectFrom('trade_instances as i')
      .leftJoin('batches as b', 'b.trade_instance_id', 'i.id')
      .select(['i.id', 'i.routine', 'i.notes', 'i.status', 'i.created_at', 'i.created_by', 'i.cancelled_at', 'i.cancelled_by', 'i.trade_count', 'b.id as batch_id'])
      .where('i.firm_id', '=', firmId);
  }

  instances(firmId: number, top: number, skip: number) {
    return this.instanceRows(firmId).orderBy('i.id', 'desc').limit(top).offset(skip).execute();
  }

  async instanceCount(firmId: number): Promise<number> {
    const row = await this.db.selectFrom('trade_instances').select((eb) => eb.fn.countAll<number>().as('n')).where('firm_id', '=', firmId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  instance(firmId: number, id: number) {
    return this.instanceRows(firmId).where('i.id', '=', id).executeTakeFirst();
  }

  /**
   * A page of an instance's trades in id order, optionally of one account. A rebalance of 100,000
   * accounts writes a million trades to one instance, so they are read a page at a time: `$skip`
   * walks only the (trade_instance_id, id) index to the page's first id, as the book's pages do.
   */
  async tradesPage(firmId: number, instanceId: number, page: PageRequest & { accountId?: number }) {
    // One account's trades are found by its index (a few per rebalance it was in); the instance
    // then only filters them. Without an account the instance's index finds them in id order.
    const instanceOf = (column: string) => (page.accountId === undefined ? sql.ref(column) : sql`+${sql.ref(column)}`);
    // Every trade of an instance is of the instance's firm (the page query checks it again), so the
    // walk to a page's first id and the count read the instance's index alone, not the trades.
    const ofInstance = (db: Kysely<Database>) => {
      let query = db.selectFrom('trades as s').where(instanceOf('s.trade_instance_id'), '=', instanceId);
      if (page.accountId !== undefined) query = query.where('s.account_id', '=', page.accountId);
      return query;
    };
    // The page's trades are chosen first, then joined to their account's number and ticker: the
    // join stays a page long whatever the planner believes of the instance's size (a fresh
    // instance has no statistics until ANALYZE, and joining all its trades before the limit
    // read 7,500 trades to send 100).
    let trades = this.db
      .selectFrom('trades as t')
      .select(['t.id', 't.trade_instance_id', 't.account_id', 't.product_id', 't.side', 't.trade_type', 't.shares_micros', 't.amount_cents', 't.price_micros', 't.reason', 't.status', 't.created_at', 't.lots', 't.short_term_gain_cents', 't.long_term_gain_cents'])
      .where(firmCheck('t.firm_id'), '=', firmId)
      .where(instanceOf('t.trade_instance_id'), '=', instanceId);
    if (page.accountId !== undefined) trades = trades.where('t.account_id', '=', page.accountId);
    if (page.skip > 0) trades = trades.where('t.id', '>=', ofInstance(this.db).select('s.id').orderBy('s.id').limit(1).offset(page.skip));
    const rows = await this.db
      .selectFrom(trades.orderBy('t.id').limit(page.top).as('t'))
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .innerJoin('products as p', 'p.id', 't.product_id')
      .select(['t.id', 't.trade_instance_id', 't.account_id', 'a.number as account_number', 't.product_id', 'p.ticker', 't.side', 't.trade_type', 't.shares_micros', 't.amount_cents', 't.price_micros', 't.reason', 't.status', 't.created_at', 't.lots', 't.short_term_gain_cents', 't.long_term_gain_cents'])
      .orderBy('t.id')
      .execute();
    return withTotal(rows, page, async () => Number((await ofInstance(this.db).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n));
  }

  /** Withdraws the open trades of an instance; a running batch cannot be cancelled. */
  async cancel(firmId: number, instanceId: number, userName: string, now: string) {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('trades').set({ status: 'Cancelled' }).where('firm_id', '=', firmId).where('trade_instance_id', '=', instanceId).where('status', '=', 'Open').execute();
      await trx.updateTable('trade_instances').set({ status: 'Cancelled', cancelled_at: now, cancelled_by: userName }).where('firm_id', '=', firmId).where('id', '=', instanceId).execute();
    });
  }
}
