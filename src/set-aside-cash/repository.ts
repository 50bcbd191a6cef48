import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, SetAsideCashTable } from '../db/schema.js';
import { locksRows } from '../db/dialect.js';
import { pricedHoldingsByAccount } from '../db/holdings.js';
import { idChunks, inIds } from '../db/id-chunks.js';
import { isSetAsideActive, type SetAsideCash } from '../engine/index.js';
import { toEngineSetAside } from './engine-input.js';

export class SetAsideRepository {
  constructor(readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: SetAsideRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx: Transaction<Database>) => work(new SetAsideRepository(trx)));
  }

  async accountExists(firmId: number, accountId: number): Promise<boolean> {
    return (await this.db.selectFrom('accounts').select('id').where('firm_id', '=', firmId).where('id', '=', accountId).executeTakeFirst()) !== undefined;
  }

  records(firmId: number, accountId: number) {
    return this.db
      .selectFrom('set_aside_cash')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('account_id', '=', accountId)
      .where('is_deleted', '=', 0)
      .orderBy('id')
      .execute();
  }

  /** `lock`: inside a write, so that a concurrent transaction cannot change it in between. */
  record(firmId: number, accountId: number, id: number, lock = false) {
    return this.db
      .selectFrom('set_aside_cash')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('is_deleted', '=', 0)
      .$if(lock && locksRows(this.db), (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async insert(row: Insertable<SetAsideCashTable>): Promise<number> {
    return (await this.db.insertInto('set_aside_cash').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async update(firmId: number, id: number, row: Updateable<SetAsideCashTable>) {
    await this.db.updateTable('set_aside_cash').set(row).where('firm_id', '=', firmId).where('id', '=', id).execute();
  }

  /** Unexpired Transaction-type records of the account waiting for this kind of transaction. */
  waitingFor(firmId: number, accountId: number, transactionType: number, tradeDate: string) {
    return this.db
      .selectFrom('set_aside_cash')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('account_id', '=', accountId)
      .where('is_deleted', '=', 0)
      .where('is_expired', '=', 0)
      .where('expiration_type_id', '=', 2)
      .where('expiration_transaction_type_id', '=', transactionType)
      .where('start_date', '<=', tradeDate)
      .orderBy('id')
      .$if(locksRows(this.db), (q) => q.forUpdate())
      .execute();
  }
}

/** The reads of the cash needs report, a page of accounts at a time. */
export class CashNeedsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Up to `limit` active accounts after `afterId`, by id (the firm's (firm_id, id) index). */
  activeAccounts(firmId: number, afterId: number, limit: number) {
    return this.db
      .selectFrom('accounts')
      .select(['id', 'number', 'name', 'model_id', 'cash_cents'])
      .where('firm_id', '=', firmId)
      .where('is_active', '=', 1)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Each account's priced holdings as one row of (shares, price) pairs (db/holdings.ts). */
  holdings(firmId: number, accountIds: number[]) {
    return pricedHoldingsByAccount(this.db, firmId, accountIds);
  }

  setAsideCash(firmId: number, accountIds: number[], asOfDate: string) {
    return loadSetAsideCash(this.db, firmId, accountIds, asOfDate);
  }

  async cashTargets(firmId: number): Promise<Map<number, number>> {
    const rows = await this.db.selectFrom('models').select(['id', 'cash_target_pct']).where('firm_id', '=', firmId).execute();
    return new Map(rows.map((r) => [r.id, Number(r.cash_target_pct)]));
  }
}

/**
 * The set aside cash a rebalance (and the account reads) count: every requested account id, with
 * its records active on `asOfDate` (possibly none), judged by the engine's own isSetAsideActive.
 */
export async function loadSetAsideCash(db: Kysely<Database>, firmId: number, accountIds: number[], asOfDate: string): Promise<Map<number, SetAsideCash[]>> {
  const setAsideCash = new Map<number, SetAsideCash[]>(accountIds.map((id) => [id, []]));
  for (const chunk of idChunks(db, accountIds)) {
    const records = await db
      .selectFrom('set_aside_cash')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where(inIds(db, 'account_id', chunk))
      .where('is_deleted', '=', 0)
      .where('is_expired', '=', 0)
      .orderBy('id')
      .execute();
    for (const row of records) {
      const record = toEngineSetAside(row);
      if (isSetAsideActive(record, asOfDate)) setAsideCash.get(row.account_id)?.push(record);
    }
  }
  return setAsideCash;
}
