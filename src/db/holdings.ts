import { type Kysely, sql } from 'kysely';
import { joinedText } from './aggregate.js';
import type { Database } from './schema.js';

/**
 * Each account's priced holdings as one row, "<shares_micros> <price_micros> …" in pairs (shared
 * /holding-values.ts reads them): a page of households values thousands of positions, and one row
 * per account instead of one per position makes that read three times cheaper. The pairs, not a
 * sum, leave the rounding of each holding to the one exact function that does it everywhere.
 */
export function pricedHoldingsByAccount(db: Kysely<Database>, firmId: number, accountIds: number[]): Promise<{ account_id: number; held: string }[]> {
  if (accountIds.length === 0) return Promise.resolve([]);
  return pricedHoldingsQuery(db, firmId, accountIds).execute();
}

/** The statement of pricedHoldingsByAccount (its SQL is checked in: src/db/sql-snapshots.test.ts). */
export function pricedHoldingsQuery(db: Kysely<Database>, firmId: number, accountIds: number[]) {
  const pairs = joinedText(db, sql`p.shares_micros || ' ' || pr.price_micros`, ' ');
  return db
    .selectFrom('positions as p')
    .innerJoin('products as pr', 'pr.id', 'p.product_id')
    .select(['p.account_id', pairs.as('held')])
    .where('p.firm_id', '=', firmId)
    .where('p.account_id', 'in', accountIds)
    .where('pr.price_micros', 'is not', null)
    .groupBy('p.account_id');
}
