import type { Migration } from 'kysely';
import { type AnyDb, firmTable, index, withAudit, dropTables } from './helpers.js';

/**
 * Sleeves (section 2.15). A sleeve is an account of its registration: its type, target
 * and tolerances stay on `accounts` (what the rebalance reads), so these tables hold only what the
 * engine does not: the registration's sleeve settings, each sleeve's descriptive fields, and the
 * cash transfers between sleeves that a registration-level rebalance plans.
 */
export const sleeves: Migration = {
  async up(db: AnyDb) {
    await withAudit(
      firmTable(db, 'sleeve_registrations')
        .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id'))
        .addColumn('sleeve_strategy_id', 'integer')
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('as_of_date', 'text')
        .addColumn('contribution_method', 'text', (c) => c.notNull())
        .addColumn('distribution_method', 'text', (c) => c.notNull())
        .addColumn('corporate_action_method', 'text', (c) => c.notNull())
        .addColumn('auto_rebal_frequency', 'text', (c) => c.notNull())
        .addColumn('auto_rebal_month', 'integer')
        .addColumn('auto_rebal_day', 'integer')
        .addColumn('mandate', 'integer', (c) => c.notNull().defaultTo(0)),
    ).execute();
    await index(db, 'sleeve_registrations', ['registration_id'], true);

    await withAudit(
      firmTable(db, 'account_sleeves')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id'))
        .addColumn('description', 'text')
        .addColumn('contribution_pct', 'double precision')
        .addColumn('distribution_pct', 'double precision')
        .addColumn('corporate_action_pct', 'double precision')
        .addColumn('management_style_id', 'integer')
        .addColumn('management_style', 'text')
        .addColumn('sub_advisor_id', 'integer')
        .addColumn('sub_advisor', 'text')
        .addColumn('sweep_asset_id', 'integer', (c) => c.references('products.id'))
        // 1: the sleeve's model is its own, built from its modelAllocations (self-directed).
        .addColumn('self_directed', 'integer', (c) => c.notNull().defaultTo(0))
        // Kept while the sleeve is a strategy sleeve, so switching back reuses the same model.
        .addColumn('self_directed_model_id', 'integer', (c) => c.references('models.id'))
        // A removed sleeve's account stays (trades and blocks point at it), out of the registration's sleeves.
        .addColumn('removed_at', 'text')
        .addColumn('removed_by', 'text'),
    ).execute();
    await index(db, 'account_sleeves', ['account_id'], true);
    await index(db, 'account_sleeves', ['registration_id']);

    await firmTable(db, 'sleeve_transfers')
      .addColumn('trade_instance_id', 'integer', (c) => c.notNull().references('trade_instances.id'))
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('batches.id'))
      .addColumn('registration_id', 'integer', (c) => c.notNull())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('amount_cents', 'bigint', (c) => c.notNull())
      .addColumn('current_pct', 'double precision', (c) => c.notNull())
      .addColumn('target_pct', 'double precision', (c) => c.notNull())
      .addColumn('out_of_band', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'sleeve_transfers', ['trade_instance_id']);
    await index(db, 'sleeve_transfers', ['account_id']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['account_sleeves', 'sleeve_registrations', 'sleeve_transfers']);
  },
};
