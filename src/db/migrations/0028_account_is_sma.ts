import type { Migration } from 'kysely';
import type { AnyDb } from './helpers.js';

/**
 * `accounts.is_sma`: whether the account is a separately managed account, as the rebalancer
 * integration sets it through `UpdateDoNotTradeAndSma` (spec 4.2 rule 7). 0 for every account
 * that was never told otherwise.
 */
export const accountIsSma: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('accounts').addColumn('is_sma', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('accounts').dropColumn('is_sma').execute();
  },
};
