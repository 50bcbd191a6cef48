import type { ColumnType } from '../db/bulk-insert.js';
import type { TableName } from './rows.js';

/** Every generated table's columns, their references into other tables, and the order tables are written in. */

export interface TableSpec {
  columns: Record<string, ColumnType>;
  /** Column -> table its value indexes into (see rows.ts). */
  refs?: Record<string, TableName>;
  audit?: boolean;
  /** No generated row points at this table: let the database number it. */
  leaf?: boolean;
  /** Composite primary key, no id column at all. */
  noId?: boolean;
  /** Column -> the row field naming the table its value indexes into, for a column pointing at several tables. */
  refsBy?: Record<string, string>;
}

const I = 'int4';
const B = 'int8';
const T = 'text';
const F = 'float8';

export const SPECS: Record<TableName, TableSpec> = {
  roles: { columns: { name: T } },
  role_privileges: { columns: { role_id: I, privilege: T }, refs: { role_id: 'roles' }, noId: true },
  users: {
    columns: { user_name: T, display_name: T, email: T, kind: T, password_hash: T, role_id: I, is_active: I, created_at: T },
    refs: { role_id: 'roles' },
  },
  partner_apps: { columns: { name: T, client_secret_hash: T, redirect_uris: T, is_active: I, created_at: T } },
  broker_dealers: { columns: { name: T, code: T, is_active: I } },
  representatives: {
    columns: { broker_dealer_id: I, first_name: T, last_name: T, name: T, number: T, email: T, is_active: I, details: T },
    refs: { broker_dealer_id: 'broker_dealers' },
    audit: true,
  },
  products: {
    columns: {
      ticker: T,
      name: T,
      type: T,
      class: T,
      sub_class: T,
      category: T,
      price_micros: B,
      price_date: T,
      is_cash: I,
      allows_fractional: I,
      wash_sale_group: T,
      harvest_replacement_product_id: I,
    },
    // Another product of the same write (seed/profiles.ts): writeTables draws the ids before it reads the rows.
    refs: { harvest_replacement_product_id: 'products' },
    audit: true,
  },
  product_prices: {
    columns: { product_id: I, price_date: T, price_micros: B },
    refs: { product_id: 'products' },
    leaf: true,
  },
  models: {
    columns: { name: T, description: T, cash_target_pct: F, cash_lower_pct: F, cash_upper_pct: F, is_active: I },
    audit: true,
  },
  model_allocations: {
    columns: { model_id: I, product_id: I, target_pct: F, lower_pct: F, upper_pct: F },
    refs: { model_id: 'models', product_id: 'products' },
  },
  model_equivalents: {
    columns: { model_allocation_id: I, product_id: I, rank: I },
    refs: { model_allocation_id: 'model_allocations', product_id: 'products' },
    leaf: true,
  },
  model_aggs: { columns: { name: T } },
  model_agg_models: {
    columns: { model_agg_id: I, model_id: I, weight_pct: F },
    refs: { model_agg_id: 'model_aggs', model_id: 'models' },
    noId: true,
  },
  teams: { columns: { name: T } },
  team_users: { columns: { team_id: I, user_id: I }, refs: { team_id: 'teams', user_id: 'users' }, noId: true },
  model_teams: { columns: { model_id: I, team_id: I }, refs: { model_id: 'models', team_id: 'teams' }, noId: true },
  trade_groups: { columns: { name: T } },
  product_substitutions: {
    columns: { account_id: I, product_id: I, substitute_product_id: I },
    refs: { account_id: 'accounts', product_id: 'products', substitute_product_id: 'products' },
    leaf: true,
  },
  clients: {
    columns: { representative_id: I, name: T, notes: T },
    refs: { representative_id: 'representatives' },
    audit: true,
  },
  registrations: {
    columns: { client_id: I, name: T, type: T, is_sleeved: I, do_not_trade: I },
    refs: { client_id: 'clients' },
    audit: true,
  },
  accounts: {
    columns: {
      registration_id: I,
      number: T,
      name: T,
      custodian: T,
      model_id: I,
      cash_cents: B,
      is_trading_blocked: I,
      is_active: I,
      sleeve_type: T,
      sleeve_target_pct: F,
      sleeve_tolerance_lower: F,
      sleeve_tolerance_upper: F,
      restricted_plan_id: I,
      tax_status: T,
    },
    refs: { registration_id: 'registrations', model_id: 'models', restricted_plan_id: 'restricted_plans' },
    audit: true,
  },
  sleeve_registrations: {
    columns: {
      registration_id: I,
      sleeve_strategy_id: I,
      is_active: I,
      as_of_date: T,
      contribution_method: T,
      distribution_method: T,
      corporate_action_method: T,
      auto_rebal_frequency: T,
      auto_rebal_month: I,
      auto_rebal_day: I,
      mandate: I,
    },
    refs: { registration_id: 'registrations' },
    audit: true,
    leaf: true,
  },
  positions: {
    // `lots` and `latest_lot_date` are not in the rows: queueTables builds them from the write's tax_lots rows (db/position-lots.ts).
    columns: { account_id: I, product_id: I, shares_micros: B, cost_cents: B, lots: T, latest_lot_date: T },
    refs: { account_id: 'accounts', product_id: 'products' },
  },
  tax_lots: {
    columns: { position_id: I, shares_micros: B, cost_cents: B, acquired_date: T },
    refs: { position_id: 'positions' },
    leaf: true,
  },
  pending_transactions: {
    columns: { account_id: I, product_id: I, type: T, shares_micros: B, amount_cents: B, trade_date: T, created_at: T },
    refs: { account_id: 'accounts', product_id: 'products' },
    leaf: true,
  },
  user_defined_definitions: {
    columns: { entity: T, name: T, category: T, type: T, code: T, sequence: I, options: T, security_code: T },
    audit: true,
  },
  user_defined_values: {
    columns: { definition_id: I, entity_id: I, value: T },
    refs: { definition_id: 'user_defined_definitions' },
    refsBy: { entity_id: 'entity_table' },
    audit: true,
    leaf: true,
  },
  restricted_plans: { columns: { name: T, name_key: T, use_in_trade_file: I, external_plan_id: T }, audit: true },
  restricted_plan_securities: {
    columns: { plan_id: I, product_id: I, do_not_buy_group_equivalency: I, buy_priority_id: I, sell_priority_id: I },
    refs: { plan_id: 'restricted_plans', product_id: 'products' },
    audit: true,
    leaf: true,
  },
  trade_block_reasons: { columns: { global_id: T, name: T, is_system_maintained: I, allow_detail_assignment: I }, audit: true },
  trade_block_details: {
    columns: { global_id: T, entity_enum: I, entity_id: I, reason_id: I, description: T, start_date: T, end_date: T, is_deleted: I, version: I },
    refs: { reason_id: 'trade_block_reasons' },
    refsBy: { entity_id: 'entity_table' },
    audit: true,
    leaf: true,
  },
  set_aside_cash: {
    columns: {
      account_id: I,
      description: T,
      cash_amount_type_id: I,
      cash_amount_cents: B,
      initial_amount_cents: B,
      cash_amount_pct: F,
      percent_calculation_type_id: I,
      expiration_type_id: I,
      expiration_date: T,
      start_date: T,
    },
    refs: { account_id: 'accounts' },
    audit: true,
    leaf: true,
  },
  trade_group_accounts: {
    columns: { trade_group_id: I, account_id: I },
    refs: { trade_group_id: 'trade_groups', account_id: 'accounts' },
    noId: true,
  },
  account_values: {
    columns: { account_id: I, value_date: T, market_value_cents: B, net_flow_cents: B, fees_cents: B, income_cents: B },
    refs: { account_id: 'accounts' },
    noId: true,
    leaf: true,
  },
};

/** Parents before children: the order every write follows. */
export const WRITE_ORDER: TableName[] = [
  'roles', 'role_privileges', 'users', 'partner_apps', 'broker_dealers', 'representatives', 'products',
  'restricted_plans', 'restricted_plan_securities', 'trade_block_reasons', 'product_prices', 'models', 'model_allocations', 'model_equivalents', 'model_aggs', 'model_agg_models', 'teams',
  'team_users', 'model_teams', 'trade_groups', 'clients', 'registrations', 'accounts', 'positions', 'tax_lots',
  'pending_transactions', 'trade_group_accounts', 'product_substitutions', 'user_defined_definitions', 'user_defined_values', 'sleeve_registrations',
  'set_aside_cash', 'trade_block_details',
  'account_values',
];

/** Table -> ids by row position: existing rows first (when a caller passes them), then written rows. */
