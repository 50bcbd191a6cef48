import type { ColumnDefinitionBuilder, Migration } from 'kysely';
import { type AnyDb, firmTable, index, withAudit, withId, dropTables } from './helpers.js';

// Booleans are 0/1 integers on both dialects (better-sqlite3 cannot bind JS booleans).
const flag = (name: string, fallback: 0 | 1) =>
  [name, 'integer', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(fallback)] as const;

export const book: Migration = {
  async up(db: AnyDb) {
    await withId(db, db.schema.createTable('firms'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('multi_trade_block', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('trade_block_dates', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('trade_block_custom_types', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('default_asset_values', 'text', (c) => c.notNull().defaultTo('PendingTransactionsAndOrders'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await firmTable(db, 'roles').addColumn('name', 'text', (c) => c.notNull()).execute();
    await index(db, 'roles', ['firm_id', 'name'], true);

    await db.schema
      .createTable('role_privileges')
      .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addColumn('privilege', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('role_privileges_pk', ['role_id', 'privilege'])
      .execute();

    await firmTable(db, 'users')
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // User names are global: Basic login carries no firm.
    await index(db, 'users', ['user_name'], true);

    await firmTable(db, 'partner_apps')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('client_secret_hash', 'text', (c) => c.notNull())
      .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('access_token_ttl_seconds', 'integer', (c) => c.notNull().defaultTo(36000))
      .addColumn('refresh_token_ttl_seconds', 'integer', (c) => c.notNull().defaultTo(375 * 86400))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await firmTable(db, 'access_tokens')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('client_id', 'integer', (c) => c.references('partner_apps.id'))
      .addColumn('audience', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'access_tokens', ['user_id']);

    await firmTable(db, 'broker_dealers')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('code', 'text')
      .addColumn(...flag('is_active', 1))
      .execute();

    await withAudit(
      firmTable(db, 'representatives')
        .addColumn('broker_dealer_id', 'integer', (c) => c.notNull().references('broker_dealers.id'))
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('number', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn(...flag('is_active', 1))
        .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}')),
    ).execute();
    await index(db, 'representatives', ['firm_id', 'number'], true);

    await withAudit(
      firmTable(db, 'clients')
        .addColumn('representative_id', 'integer', (c) => c.notNull().references('representatives.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('notes', 'text'),
    ).execute();
    await index(db, 'clients', ['firm_id', 'id']);

    await withAudit(
      firmTable(db, 'registrations')
        .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn(...flag('is_sleeved', 0))
        .addColumn(...flag('do_not_trade', 0)),
    ).execute();
    await index(db, 'registrations', ['client_id']);

    await withAudit(
      firmTable(db, 'products')
        .addColumn('ticker', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('class', 'text')
        .addColumn('sub_class', 'text')
        .addColumn('category', 'text')
        .addColumn('price_micros', 'bigint')
        .addColumn('price_date', 'text')
        .addColumn(...flag('is_cash', 0))
        .addColumn(...flag('allows_fractional', 0)),
    ).execute();
    await index(db, 'products', ['firm_id', 'ticker'], true);

    await firmTable(db, 'product_prices')
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('price_date', 'text', (c) => c.notNull())
      .addColumn('price_micros', 'bigint', (c) => c.notNull())
      .execute();
    await index(db, 'product_prices', ['product_id', 'price_date'], true);

    await withAudit(
      firmTable(db, 'models')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('cash_target_pct', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('cash_lower_pct', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('cash_upper_pct', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn(...flag('is_active', 1)),
    ).execute();
    await index(db, 'models', ['firm_id', 'name'], true);

    await firmTable(db, 'model_allocations')
      .addColumn('model_id', 'integer', (c) => c.notNull().references('models.id').onDelete('cascade'))
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('target_pct', 'double precision', (c) => c.notNull())
      .addColumn('lower_pct', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('upper_pct', 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
    await index(db, 'model_allocations', ['model_id', 'product_id'], true);

    await firmTable(db, 'model_equivalents')
      .addColumn('model_allocation_id', 'integer', (c) =>
        c.notNull().references('model_allocations.id').onDelete('cascade'),
      )
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('rank', 'integer', (c) => c.notNull())
      .execute();
    await index(db, 'model_equivalents', ['model_allocation_id', 'rank'], true);

    await firmTable(db, 'model_aggs').addColumn('name', 'text', (c) => c.notNull()).execute();
    await db.schema
      .createTable('model_agg_models')
      .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
      .addColumn('model_agg_id', 'integer', (c) => c.notNull().references('model_aggs.id').onDelete('cascade'))
      .addColumn('model_id', 'integer', (c) => c.notNull().references('models.id'))
      .addColumn('weight_pct', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('model_agg_models_pk', ['model_agg_id', 'model_id'])
      .execute();

    await firmTable(db, 'teams').addColumn('name', 'text', (c) => c.notNull()).execute();
    for (const [table, left, right] of [
      ['team_users', 'team_id', 'user_id'],
      ['model_teams', 'model_id', 'team_id'],
    ] as const) {
      await db.schema
        .createTable(table)
        .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
        .addColumn(left, 'integer', (c) => c.notNull())
        .addColumn(right, 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, [left, right])
        .execute();
    }

    await withAudit(
      firmTable(db, 'accounts')
        .addColumn('registration_id', 'integer', (c) => c.notNull().references('registrations.id'))
        .addColumn('number', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('custodian', 'text', (c) => c.notNull())
        .addColumn('model_id', 'integer', (c) => c.references('models.id'))
        .addColumn('cash_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn(...flag('is_trading_blocked', 0))
        .addColumn('restricted_plan_id', 'integer')
        .addColumn(...flag('is_active', 1))
        .addColumn('sleeve_type', 'text')
        .addColumn('sleeve_target_pct', 'double precision')
        .addColumn('sleeve_tolerance_lower', 'double precision')
        .addColumn('sleeve_tolerance_upper', 'double precision'),
    ).execute();
    await index(db, 'accounts', ['firm_id', 'number'], true);
    await index(db, 'accounts', ['registration_id']);
    await index(db, 'accounts', ['model_id']);

    await firmTable(db, 'trade_groups').addColumn('name', 'text', (c) => c.notNull()).execute();
    await db.schema
      .createTable('trade_group_accounts')
      .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
      .addColumn('trade_group_id', 'integer', (c) => c.notNull().references('trade_groups.id').onDelete('cascade'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addPrimaryKeyConstraint('trade_group_accounts_pk', ['trade_group_id', 'account_id'])
      .execute();

    await firmTable(db, 'positions')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('shares_micros', 'bigint', (c) => c.notNull())
      .addColumn('cost_cents', 'bigint', (c) => c.notNull())
      .execute();
    await index(db, 'positions', ['account_id', 'product_id'], true);

    await firmTable(db, 'tax_lots')
      .addColumn('position_id', 'integer', (c) => c.notNull().references('positions.id').onDelete('cascade'))
      .addColumn('shares_micros', 'bigint', (c) => c.notNull())
      .addColumn('cost_cents', 'bigint', (c) => c.notNull())
      .addColumn('acquired_date', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'tax_lots', ['position_id']);

    await firmTable(db, 'pending_transactions')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('product_id', 'integer', (c) => c.references('products.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('shares_micros', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('amount_cents', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('trade_date', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'pending_transactions', ['account_id']);

    await firmTable(db, 'product_substitutions')
      .addColumn('account_id', 'integer', (c) => c.references('accounts.id'))
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('substitute_product_id', 'integer', (c) => c.notNull().references('products.id'))
      .execute();
    await index(db, 'product_substitutions', ['firm_id', 'product_id']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['access_tokens', 'accounts', 'broker_dealers', 'clients', 'firms', 'model_agg_models', 'model_aggs', 'model_allocations', 'model_equivalents', 'model_teams', 'models', 'partner_apps', 'pending_transactions', 'positions', 'product_prices', 'product_substitutions', 'products', 'registrations', 'representatives', 'role_privileges', 'roles', 'tax_lots', 'team_users', 'teams', 'trade_group_accounts', 'trade_groups', 'users']);
  },
};
