import type { Migration } from 'kysely';
import { type AnyDb, dropTables, firmTable, index } from './helpers.js';

/**
 * Tax-aware rebalancing (docs/tax-aware.md). The book learns an account's tax status
 * (null: from the registration type), a product's wash-sale group and harvest replacement; a
 * generated trade keeps the lots it plans to relieve and its estimated gains; execution keeps one
 * realized sale row per sold lot slice, which is both the household's realized gains of a year and
 * its recent loss sales; a batch keeps its per-household tax summary.
 */
export const taxAware: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('accounts').addColumn('tax_status', 'text').execute();
    await db.schema.alterTable('products').addColumn('wash_sale_group', 'text').execute();
    await db.schema.alterTable('products').addColumn('harvest_replacement_product_id', 'integer').execute();
    await db.schema.alterTable('trades').addColumn('lots', 'text').execute();
    await db.schema.alterTable('trades').addColumn('short_term_gain_cents', 'bigint').execute();
    await db.schema.alterTable('trades').addColumn('long_term_gain_cents', 'bigint').execute();
    await db.schema.alterTable('trades').addColumn('executed_at', 'text').execute();

    await firmTable(db, 'realized_sales')
      .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('trade_id', 'integer', (c) => c.references('trades.id'))
      .addColumn('trade_date', 'text', (c) => c.notNull())
      .addColumn('acquired_date', 'text', (c) => c.notNull())
      .addColumn('shares_micros', 'bigint', (c) => c.notNull())
      .addColumn('proceeds_cents', 'bigint', (c) => c.notNull())
      .addColumn('cost_cents', 'bigint', (c) => c.notNull())
      .addColumn('term', 'text', (c) => c.notNull())
      .addColumn('gain_cents', 'bigint', (c) => c.notNull())
      .addColumn('disallowed_loss_cents', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'realized_sales', ['firm_id', 'client_id', 'trade_date']);

    await firmTable(db, 'batch_tax_summaries')
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('batches.id'))
      .addColumn('client_id', 'integer', (c) => c.notNull())
      .addColumn('short_term_gain_cents', 'bigint', (c) => c.notNull())
      .addColumn('long_term_gain_cents', 'bigint', (c) => c.notNull())
      .addColumn('harvested_loss_cents', 'bigint', (c) => c.notNull())
      .addColumn('wash_sale_moves', 'integer', (c) => c.notNull())
      .addColumn('budget_cuts', 'integer', (c) => c.notNull())
      .execute();
    await index(db, 'batch_tax_summaries', ['batch_id', 'client_id']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['batch_tax_summaries', 'realized_sales']);
    for (const c of ['lots', 'short_term_gain_cents', 'long_term_gain_cents', 'executed_at']) await db.schema.alterTable('trades').dropColumn(c).execute();
    await db.schema.alterTable('products').dropColumn('harvest_replacement_product_id').execute();
    await db.schema.alterTable('products').dropColumn('wash_sale_group').execute();
    await db.schema.alterTable('accounts').dropColumn('tax_status').execute();
  },
};
