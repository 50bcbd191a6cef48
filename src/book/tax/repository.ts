import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The book's tax reads: lots with prices, realized gains. */
export class TaxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  accountExists(firmId: number, accountId: number) {
    return this.db.selectFrom('accounts').select('id').where('firm_id', '=', firmId).where('id', '=', accountId).executeTakeFirst();
  }

  clientExists(firmId: number, clientId: number) {
    return this.db.selectFrom('clients').select('id').where('firm_id', '=', firmId).where('id', '=', clientId).executeTakeFirst();
  }

  lots(firmId: number, accountId: number, productId: number | undefined) {
    let query = this.db
      .selectFrom('tax_lots as l')
      .innerJoin('positions as p', 'p.id', 'l.position_id')
      .innerJoin('products as x', 'x.id', 'p.product_id')
      .select(['l.id', 'p.product_id', 'x.ticker', 'x.price_micros', 'l.shares_micros', 'l.cost_cents', 'l.acquired_date'])
      .where('p.firm_id', '=', firmId)
      .where('p.account_id', '=', accountId);
    if (productId !== undefined) query = query.where('p.product_id', '=', productId);
    return query.orderBy('x.ticker').orderBy('l.acquired_date').orderBy('l.id').execute();
  }

  realizedGains(firmId: number, clientId: number, year: number) {
    return this.db
      .selectFrom('realized_sales')
      .select(['term'])
      .select((eb) => [eb.fn.sum<number>('gain_cents').as('gain'), eb.fn.sum<number>('disallowed_loss_cents').as('disallowed')])
      .where('firm_id', '=', firmId)
      .where('client_id', '=', clientId)
      .where('trade_date', '>=', `${year}-01-01`)
      .where('trade_date', '<=', `${year}-12-31`)
      .groupBy('term')
      .execute();
  }
}
