/**
 * Rows as the generator produces them, named by database column. They carry no `id` and no
 * `firm_id`: the repository assigns both at write time. A column ending in `_id` that points
 * at another generated table holds the 0-based position of the parent in that table's array
 * (firm-level tables: the firm's arrays; book tables: the same chunk's arrays), so the
 * generator stays independent of the database and of the ids it will hand out.
 */
export type Flag = 0 | 1;

export interface FirmRows {
  roles: { name: string }[];
  role_privileges: { role_id: number; privilege: string }[];
  users: {
    user_name: string;
    display_name: string;
    email: string | null;
    kind: 'user' | 'api' | 'service';
    password_hash: string;
    role_id: number;
    is_active: Flag;
    created_at: string;
  }[];
  partner_apps: { name: string; client_secret_hash: string; redirect_uris: string; is_active: Flag; created_at: string }[];
  broker_dealers: { name: string; code: string | null; is_active: Flag }[];
  representatives: {
    broker_dealer_id: number;
    first_name: string;
    last_name: string;
    name: string;
    number: string;
    email: string | null;
    is_active: Flag;
    details: string;
  }[];
  products: {
    ticker: string;
    name: string;
    type: string;
    class: string | null;
    sub_class: string | null;
    category: string | null;
    price_micros: number | null;
    price_date: string | null;
    is_cash: Flag;
    allows_fractional: Flag;
  }[];
  product_prices: { product_id: number; price_date: string; price_micros: number }[];
  models: {
    name: string;
    description: string | null;
    cash_target_pct: number;
    cash_lower_pct: number;
    cash_upper_pct: number;
    is_active: Flag;
  }[];
  model_allocations: { model_id: number; product_id: number; target_pct: number; lower_pct: number; upper_pct: number }[];
  model_equivalents: { model_allocation_id: number; product_id: number; rank: number }[];
  model_aggs: { name: string }[];
  model_agg_models: { model_agg_id: number; model_id: number; weight_pct: number }[];
  teams: { name: string }[];
  team_users: { team_id: number; user_id: number }[];
  model_teams: { model_id: number; team_id: number }[];
  trade_groups: { name: string }[];
  product_substitutions: { account_id: number | null; product_id: number; substitute_product_id: number }[];
  user_defined_definitions: {
    entity: string;
    name: string;
    category: string | null;
    type: string;
    code: string;
    sequence: number;
    options: string;
    security_code: string | null;
  }[];
  user_defined_values: FieldValueRow[];
  /** Profiles other than demo only (src/seed/profiles.ts). */
  restricted_plans?: { name: string; name_key: string; use_in_trade_file: Flag; external_plan_id: string | null }[];
  restricted_plan_securities?: {
    plan_id: number;
    product_id: number;
    do_not_buy_group_equivalency: Flag;
    buy_priority_id: number | null;
    sell_priority_id: number | null;
  }[];
  trade_block_reasons?: { global_id: string; name: string; is_system_maintained: Flag; allow_detail_assignment: Flag }[];
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
  clients: { representative_id: number; name: string; notes: string | null }[];
  registrations: { client_id: number; name: string; type: string; is_sleeved: Flag; do_not_trade: Flag }[];
  accounts: {
    registration_id: number;
    number: string;
    name: string;
    custodian: string;
    model_id: number | null;
    cash_cents: number;
    is_trading_blocked: Flag;
    is_active: Flag;
    sleeve_type: string | null;
    sleeve_target_pct: number | null;
    sleeve_tolerance_lower: number | null;
    sleeve_tolerance_upper: number | null;
    /** Profiles other than demo only. */
    restricted_plan_id?: number | null;
  }[];
  positions: { account_id: number; product_id: number; shares_micros: number; cost_cents: number }[];
  tax_lots: { position_id: number; shares_micros: number; cost_cents: number; acquired_date: string }[];
  pending_transactions: {
    account_id: number;
    product_id: number | null;
    type: string;
    shares_micros: number;
    amount_cents: number;
    trade_date: string;
    created_at: string;
  }[];
  trade_group_accounts: { trade_group_id: number; account_id: number }[];
  product_substitutions: FirmRows['product_substitutions'];
  user_defined_values: FieldValueRow[];
  sleeve_registrations: {
    registration_id: number;
    sleeve_strategy_id: number | null;
    is_active: Flag;
    as_of_date: string | null;
    contribution_method: string;
    distribution_method: string;
    corporate_action_method: string;
    auto_rebal_frequency: string;
    auto_rebal_month: number | null;
    auto_rebal_day: number | null;
    mandate: Flag;
  }[];
  set_aside_cash: {
    account_id: number;
    description: string;
    cash_amount_type_id: number;
    cash_amount_cents: number | null;
    initial_amount_cents: number | null;
    cash_amount_pct: number | null;
    percent_calculation_type_id: number | null;
    expiration_type_id: number;
    expiration_date: string | null;
    start_date: string;
  }[];
  /** `entity_id` indexes into `entity_table`: the chunk's accounts (entity 7) or registrations (6). */
  trade_block_details: {
    global_id: string;
    entity_enum: 6 | 7;
    entity_id: number;
    entity_table: 'accounts' | 'registrations';
    reason_id: number;
    description: string;
    start_date: string;
    end_date: string | null;
    is_deleted: Flag;
    version: number;
  }[];
}

export type TableName = keyof FirmRows | keyof ChunkRows;

export const rowCount = (rows: Partial<Record<TableName, readonly unknown[]>>): number =>
  Object.values(rows).reduce((n, list) => n + (list?.length ?? 0), 0);

/** The firm's book without its logins: what the generator draws. */
export type BookTables = Omit<FirmRows, 'roles' | 'role_privileges' | 'users' | 'partner_apps' | 'team_users'>;
