import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { countTrades, insertInstance, insertTrades, type NewTrade, tradeRow } from './trade-writes-repository.js';

/** What a quick trade reads (accounts, products, held shares) and its instance, written whole. */
export class QuickTradeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  accountsByIds(firmId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('accounts').select(['id', 'number', 'cash_cents']).where('firm_id', '=', firmId).where('id', 'in', ids).execute();
  }

  productsOf(firmId: number, by: { tickers?: string[]; ids?: number[] }) {
    let query = this.db.selectFrom('products').select(['id', 'ticker', 'type', 'price_micros', 'allows_fractional']).where('firm_id', '=', firmId);
    if (by.tickers) query = query.where('ticker', 'in', by.tickers.length ? by.tickers : ['']);
    if (by.ids) query = query.where('id', 'in', by.ids.length ? by.ids : [0]);
    return query.execute();
  }

  heldShares(firmId: number, accountIds: number[]) {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('positions').select(['account_id', 'product_id', 'shares_micros']).where('firm_id', '=', firmId).where('account_id', 'in', accountIds).execute();
  }

  /** Writes a quick-trade instance whole: its trades are stored at once, no batch work remains. */
  async storeQuickTrades(input: { firmId: number; userId: number; userName: string; notes: string | null; request: string; trades: NewTrade[]; now: string }) {
    return this.db.transaction().execute(async (trx) => {
      const instance = await insertInstance(trx, 'QuickTrade', input);
      const accounts = new Set(input.trades.map((t) => t.accountId)).size;
      const batch = await trx
        .insertInto('batches')
        .values({ firm_id: input.firmId, trade_instance_id: instance.id, status: 'Complete', message: '', total_items: accounts, items_completed: accounts, chunks_total: 0, created_at: input.now, created_by: input.userName, created_by_user_id: input.userId, completed_at: input.now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertTrades(trx, input.firmId, instance.id, input.trades.map(tradeRow), input.now);
      await countTrades(trx, instance.id, input.trades.length);
      return { instanceId: instance.id, batchId: batch.id };
    });
  }
}
