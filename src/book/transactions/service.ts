import { applyTransactionToSetAsides } from '../../set-aside-cash/expiry.js';
import { type Clock, isoNow } from '../../shared/clock.js';
import { notFound } from '../../shared/errors.js';
import { centsToDollars, dollarsToCents } from '../../shared/money.js';
import type { TransactionRepository, TransactionRow } from './repository.js';
import type { RecordedTransaction, TransactionInput, TransactionRecord } from './schemas.js';

const toRecord = (row: TransactionRow): TransactionRecord => ({
  id: row.id,
  accountId: row.account_id,
  type: row.type,
  amount: centsToDollars(Number(row.amount_cents)),
  tradeDate: row.trade_date,
  description: row.description,
  createdOn: row.created_at,
  createdBy: row.created_by,
});

/**
 * Account transactions as the custodian reports them. Recording one does not move the account's
 * cash (the custodial balance arrives with the book); it expires the set aside cash waiting for
 * it, in the same database transaction.
 */
export class TransactionService {
  constructor(
    private readonly repository: TransactionRepository,
    private readonly clock: Clock,
  ) {}

  async list(firmId: number, accountId: number, page: { top: number; skip: number }): Promise<{ items: TransactionRecord[]; total: number }> {
    if (!(await this.repository.accountExists(firmId, accountId))) throw notFound('account', accountId);
    const { rows, total } = await this.repository.list(firmId, accountId, page);
    return { items: rows.map(toRecord), total };
  }

  record(actor: { firmId: number; userName: string }, accountId: number, input: TransactionInput): Promise<RecordedTransaction> {
    return this.repository.transaction(async (repository) => {
      if (!(await repository.accountExists(actor.firmId, accountId))) throw notFound('account', accountId);
      const now = isoNow(this.clock);
      const row = await repository.insert({
        firm_id: actor.firmId,
        account_id: accountId,
        type: input.type,
        amount_cents: dollarsToCents(input.amount),
        trade_date: input.tradeDate,
        description: input.description?.trim() || null,
        created_at: now,
        created_by: actor.userName,
      });
      const outcome = await applyTransactionToSetAsides(repository.db, {
        firmId: actor.firmId,
        accountId,
        id: row.id,
        type: row.type,
        amountCents: Number(row.amount_cents),
        tradeDate: row.trade_date,
        now,
      });
      return { ...toRecord(row), expiredSetAsideIds: outcome.expired, depletedSetAsideIds: outcome.depleted };
    });
  }
}
