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

  /** A page of the account's transactions, newest first, with how many it has (one account's rows: always counted). */
  async list(firmId: number, accountId: number, page: { top: number; skip: number }) {
    const ofAccount = this.db.selectFrom('account_transactions').where('firm_id', '=', firmId).where('account_id', '=', accountId);
    const rows = await ofAccount.selectAll().orderBy('trade_date', 'desc').orderBy('id', 'desc').limit(page.top).offset(page.skip).execute();
    const counted = await ofAccount.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  insert(row: Insertable<AccountTransactionTable>) {
    return this.db.insertInto('account_transactions').values(row).returningAll().executeTakeFirstOrThrow();
  }
}
