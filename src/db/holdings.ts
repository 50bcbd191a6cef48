import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Each position's shares and its product's latest price (null when unpriced): what values an account. */
export function pricedHoldings(db: Kysely<Database>, firmId: number, accountIds: number[]) {
  if (accountIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('positions as p')
    .innerJoin('products as pr', 'pr.id', 'p.product_id')
    .select(['p.account_id', 'p.shares_micros', 'pr.price_micros'])
    .where('p.firm_id', '=', firmId)
    .where('p.account_id', 'in', accountIds)
    .execute();
}
