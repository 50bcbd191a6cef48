/**
 * Rows as the generator produces them, named by database column. They carry no `id` and no
 * `firm_id`: the repository assigns both at write time. A column ending in `_id` that points
 * at another generated table holds the 0-based position of the parent in that table's array
 * (firm-level tables: the firm's arrays; book tables: the same chunk's arrays), so the
 * generator stays independent of the database and of the ids it will hand out.
 */
import type { Insertable } from 'kysely';
import type { Database } from '../db/schema.js';

export type { Flag } from '../db/schema.js';

/**
 * A generated row of a table: the columns the generator sets, typed by db/schema.ts (one place
 * types every table). Ids of other generated rows are positions until the writer maps them.
 */
type SeedRow<T extends keyof Database, Columns extends keyof Insertable<Database[T]>> = Pick<Insertable<Database[T]>, Columns>;

export interface FirmRows {
  roles: SeedRow<'roles', 'name'>[];
  role_privileges: SeedRow<'role_privileges', 'role_id' | 'privilege'>[];
  users: SeedRow<'users', 'user_name' | 'display_name' | 'email' | 'kind' | 'password_hash' | 'role_id' | 'is_active' | 'created_at'>[];
  partner_apps: SeedRow<'partner_apps', 'name' | 'client_secret_hash' | 'redirect_uris' | 'is_active' | 'created_at'>[];
  broker_dealers: SeedRow<'broker_dealers', 'name' | 'code' | 'is_active'>[];
  representatives: SeedRow<'representatives', 'broker_dealer_id' | 'first_name' | 'last_name' | 'name' | 'number' | 'email' | 'is_active' | 'details'>[];
  products: SeedRow<'products', 'ticker' | 'name' | 'type' | 'class' | 'sub_class' | 'category' | 'price_micros' | 'price_date' | 'is_cash' | 'allows_fractional' | 'wash_sale_group' | 'harvest_replacement_product_id'>[];
  product_prices: SeedRow<'product_prices', 'product_id' | 'price_date' | 'price_micros'>[];
  models: SeedRow<'models', 'name' | 'description' | 'cash_target_pct' | 'cash_lower_pct' | 'cash_upper_pct' | 'is_active'>[];
  model_allocations: SeedRow<'model_allocations', 'model_id' | 'product_id' | 'target_pct' | 'lower_pct' | 'upper_pct'>[];
  model_equivalents: SeedRow<'model_equivalents', 'model_allocation_id' | 'product_id' | 'rank'>[];
  model_aggs: SeedRow<'model_aggs', 'name'>[];
  model_agg_models: SeedRow<'model_agg_models', 'model_agg_id' | 'model_id' | 'weight_pct'>[];
  teams: SeedRow<'teams', 'name'>[];
  team_users: SeedRow<'team_users', 'team_id' | 'user_id'>[];
  model_teams: SeedRow<'model_teams', 'model_id' | 'team_id'>[];
  trade_groups: SeedRow<'trade_groups', 'name'>[];
  product_substitutions: SeedRow<'product_substitutions', 'account_id' | 'product_id' | 'substitute_product_id'>[];
  user_defined_definitions: SeedRow<'user_defined_definitions', 'entity' | 'name' | 'category' | 'type' | 'code' | 'sequence' | 'options' | 'security_code'>[];
  user_defined_values: FieldValueRow[];
  /** Profiles other than demo only (src/seed/profiles.ts). */
  restricted_plans?: SeedRow<'restricted_plans', 'name' | 'name_key' | 'use_in_trade_file' | 'external_plan_id'>[];
  restricted_plan_securities?: SeedRow<'restricted_plan_securities', 'plan_id' | 'product_id' | 'do_not_buy_group_equivalency' | 'buy_priority_id' | 'sell_priority_id'>[];
  trade_block_reasons?: SeedRow<'trade_block_reasons', 'global_id' | 'name' | 'is_system_maintained' | 'allow_detail_assignment'>[];
}

/**
 * A custom-field value. `entity_id` indexes into the table `entity_table` names (the definition's
 * level): one list for every level keeps values in household order whatever the chunk size.
 */
export interface FieldValueRow {
  definition_id: number;
  entity_table: 'representatives' | 'products' | 'clients' | 'registrations' | 'accounts';
  entity_id: number;
  value: string;
}

export interface ChunkRows {
  clients: SeedRow<'clients', 'representative_id' | 'name' | 'notes'>[];
  registrations: SeedRow<'registrations', 'client_id' | 'name' | 'type' | 'is_sleeved' | 'do_not_trade'>[];
  accounts: SeedRow<'accounts', 'registration_id' | 'number' | 'name' | 'custodian' | 'model_id' | 'cash_cents' | 'is_trading_blocked' | 'is_active' | 'sleeve_type' | 'sleeve_target_pct' | 'sleeve_tolerance_lower' | 'sleeve_tolerance_upper' | 'restricted_plan_id' | 'tax_status'>[];
  positions: SeedRow<'positions', 'account_id' | 'product_id' | 'shares_micros' | 'cost_cents'>[];
  tax_lots: SeedRow<'tax_lots', 'position_id' | 'shares_micros' | 'cost_cents' | 'acquired_date'>[];
  pending_transactions: SeedRow<'pending_transactions', 'account_id' | 'product_id' | 'type' | 'shares_micros' | 'amount_cents' | 'trade_date' | 'created_at'>[];
  trade_group_accounts: SeedRow<'trade_group_accounts', 'trade_group_id' | 'account_id'>[];
  product_substitutions: FirmRows['product_substitutions'];
  user_defined_values: FieldValueRow[];
  sleeve_registrations: SeedRow<'sleeve_registrations', 'registration_id' | 'sleeve_strategy_id' | 'is_active' | 'as_of_date' | 'contribution_method' | 'distribution_method' | 'corporate_action_method' | 'auto_rebal_frequency' | 'auto_rebal_month' | 'auto_rebal_day' | 'mandate'>[];
  set_aside_cash: SeedRow<'set_aside_cash', 'account_id' | 'description' | 'cash_amount_type_id' | 'cash_amount_cents' | 'initial_amount_cents' | 'cash_amount_pct' | 'percent_calculation_type_id' | 'expiration_type_id' | 'expiration_date' | 'start_date'>[];
  /** `entity_id` indexes into `entity_table`: the chunk's accounts (entity 7) or registrations (6). */
  trade_block_details: (SeedRow<'trade_block_details', 'global_id' | 'entity_enum' | 'entity_id' | 'reason_id' | 'description' | 'start_date' | 'end_date' | 'is_deleted' | 'version'> & {
    entity_table: 'accounts' | 'registrations';
  })[];  /** Performance history: an account's value and flows of a day (imports and the demo's history). */
  account_values?: SeedRow<'account_values', 'account_id' | 'value_date' | 'market_value_cents' | 'net_flow_cents' | 'fees_cents' | 'income_cents'>[];
}

export type TableName = keyof FirmRows | keyof ChunkRows;

export const rowCount = (rows: Partial<Record<TableName, readonly unknown[]>>): number =>
  Object.values(rows).reduce((n, list) => n + (list?.length ?? 0), 0);

/** The firm's book without its logins: what the generator draws. */
export type BookTables = Omit<FirmRows, 'roles' | 'role_privileges' | 'users' | 'partner_apps' | 'team_users'>;
