import type { Migration } from 'kysely';
import { type AnyDb, firmTable, index, withAudit, dropTables } from './helpers.js';

/**
 * The rebalancing application's data: restricted plans and their securities, set aside
 * cash records, and the account transactions that expire set asides of Transaction type.
 * Models, allocations, equivalents and teams already live in 0001.
 */
export const rebalancerData: Migration = {
  async up(db: AnyDb) {
    await withAudit(
      firmTable(db, 'restricted_plans')
        .addColumn('name', 'text', (c) => c.notNull())
        // Lower-cased trimmed name: plan names are unique in a firm regardless of case.
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('use_in_trade_file', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('external_plan_id', 'text'),
    ).execute();
    await index(db, 'restricted_plans', ['firm_id', 'name_key'], true);
    await index(db, 'restricted_plans', ['firm_id', 'external_plan_id'], true);

    await withAudit(
      firmTable(db, 'restricted_plan_securities')
        .addColumn('plan_id', 'integer', (c) => c.notNull().references('restricted_plans.id').onDelete('cascade'))
        .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
        .addColumn('do_not_buy_group_equivalency', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('buy_priority_id', 'integer')
        .addColumn('sell_priority_id', 'integer'),
    ).execute();
    await index(db, 'restricted_plan_securities', ['plan_id', 'product_id'], true);
    await index(db, 'restricted_plan_securities', ['firm_id', 'do_not_buy_group_equivalency']);
    // accountCount and the rebalance loader look accounts up by plan.
    await index(db, 'accounts', ['firm_id', 'restricted_plan_id']);

    await withAudit(
      firmTable(db, 'set_aside_cash')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('description', 'text')
        .addColumn('cash_amount_type_id', 'integer', (c) => c.notNull())
        // Dollar records: what is still protected (less than the initial amount once depleted).
        .addColumn('cash_amount_cents', 'bigint')
        .addColumn('initial_amount_cents', 'bigint')
        // Percent records: the percent of the base chosen by percent_calculation_type_id.
        .addColumn('cash_amount_pct', 'double precision')
        .addColumn('min_cash_cents', 'bigint')
        .addColumn('max_cash_cents', 'bigint')
        .addColumn('percent_calculation_type_id', 'integer')
        .addColumn('expiration_type_id', 'integer', (c) => c.notNull())
        .addColumn('expiration_date', 'text')
        .addColumn('expiration_transaction_type_id', 'integer')
        .addColumn('tolerance_value', 'double precision')
        .addColumn('is_deplete_over_time', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('set_aside_account_type_id', 'integer')
        .addColumn('start_date', 'text', (c) => c.notNull())
        .addColumn('is_expired', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expired_on', 'text')
        .addColumn('expired_by', 'text')
        .addColumn('amount_expired_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0)),
    ).execute();
    await index(db, 'set_aside_cash', ['firm_id', 'account_id']);

    await firmTable(db, 'account_transactions')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('amount_cents', 'bigint', (c) => c.notNull())
      .addColumn('trade_date', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'account_transactions', ['firm_id', 'account_id', 'trade_date']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['account_transactions', 'restricted_plan_securities', 'restricted_plans', 'set_aside_cash']);
  },
};
