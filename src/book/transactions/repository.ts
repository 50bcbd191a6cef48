import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { AccountTransactionTable, Database } from '../../db/schema.js';

export type TransactionRow = Selectable<AccountTransactionTable>;

export class TransactionRepository {
  constructor(readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: TransactionRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx: Transaction<Database>) => work(new TransactionRepository(trx)));
  }

  async accountExists(firmId: number, accountId: number): Promise<boolean> {
    return (await this.db.selectFrom('accounts').select('id').where('firm_id', '=', firmId).where('id', '=', accountId).executeTakeFirst()) !== undefined;
  }

  list(firmId: number, accountId: number) {
    return this.db
      .selectFrom('account_transactions')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('account_id', '=', accountId)
      .orderBy('trade_date', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  insert(row: Insertable<AccountTransactionTable>) {
    return this.db.insertInto('account_transactions').values(row).returningAll().executeTakeFirstOrThrow();
  }
}
