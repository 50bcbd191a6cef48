import { type Migration, sql } from 'kysely';
import { type AnyDb, dropTables, index, isPostgres } from './helpers.js';

/**
 * Performance history (shared/design/performance.md):
 * - `account_values`: one row per account and date — the close's market value (null on a day with
 *   flows, fees or income but no valuation) and the day's external flows, fees and income, money in
 *   cents. Keyed by (firm_id, account_id, value_date): an account's history is one index range in
 *   date order, and a firm's quarter-end run reads the firm's range in account order. On SQLite the
 *   table is WITHOUT ROWID, so the rows themselves are stored in that order (a history is read
 *   from consecutive pages, not one table lookup per row).
 * - `valuation_runs`: the daily valuation's claim of a date, so that of several server nodes one
 *   values the firm's accounts for the date (the row is inserted once; the others see it taken).
 */
export const performance: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('account_values')
      .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('value_date', 'text', (c) => c.notNull())
      .addColumn('market_value_cents', 'bigint')
      .addColumn('net_flow_cents', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('fees_cents', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('income_cents', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('account_values_pk', ['firm_id', 'account_id', 'value_date'])
      .$call((table) => (isPostgres(db) ? table : table.modifyEnd(sql`without rowid`)))
      .execute();
    // The daily valuation replaces one date's rows of a firm.
    await index(db, 'account_values', ['firm_id', 'value_date']);
    await db.schema
      .createTable('valuation_runs')
      .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
      .addColumn('value_date', 'text', (c) => c.notNull())
      .addColumn('claimed_by', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addPrimaryKeyConstraint('valuation_runs_pk', ['firm_id', 'value_date'])
      .execute();
  },
  async down(db: AnyDb) {
    await dropTables(db, ['valuation_runs', 'account_values']);
  },
};
