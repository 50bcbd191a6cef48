// One file types every table on purpose (docs/decisions/code-layout.md): db/schema.test.ts reads it whole.
import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of every table. Storage conventions (docs/decisions/storage-and-amounts.md):
 * booleans are 0/1 integers on both dialects, timestamps ISO-8601 UTC text,
 * dates YYYY-MM-DD text, money integer cents, shares and prices integer millionths.
 */
type Id = Generated<number>;
export type Flag = 0 | 1;
type Audit = {
  created_at: string;
  created_by: string;
  edited_at: string;
  edited_by: string;
};

export interface FirmTable {
  id: Id;
  name: string;
  code: string;
  multi_trade_block: Flag;
  trade_block_dates: Flag;
  trade_block_custom_types: Flag;
  default_asset_values: string;
  /** The partner app Basic-only logins go through; null: Basic login needs client_id and client_secret. */
  basic_login_app_id: number | null;
  created_at: string;
}

export interface RoleTable {
  id: Id;
  firm_id: number;
  name: string;
}

export interface RolePrivilegeTable {
  firm_id: number;
  role_id: number;
  privilege: string;
}

export interface UserTable {
  id: Id;
  firm_id: number;
  user_name: string;
  display_name: string;
  email: string | null;
  kind: 'user' | 'api' | 'service';
  password_hash: string;
  role_id: number;
  is_active: Flag;
  created_at: string;
}

export interface PartnerAppTable {
  id: Id;
  firm_id: number;
  name: string;
  client_secret_hash: string;
  redirect_uris: string;
  access_token_ttl_seconds: number;
  refresh_token_ttl_seconds: number;
  is_active: Flag;
  created_at: string;
}

export interface AccessTokenTable {
  id: Id;
  firm_id: number;
  user_id: number;
  client_id: number | null;
  audience: 'platform' | 'rebalancer';
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
  chain_id: string | null;
}

export interface AuthorizationCodeTable {
  id: Id;
  firm_id: number;
  code_hash: string;
  client_id: number;
  user_id: number;
  redirect_uri: string;
  code_challenge: string | null;
  chain_id: string;
  expires_at: string;
  redeemed_at: string | null;
  created_at: string;
}

export interface RefreshTokenTable {
  id: Id;
  firm_id: number;
  token_hash: string;
  client_id: number;
  user_id: number;
  chain_id: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** The successor pair, sealed with this token (grace period for concurrent refreshes). */
  successor_sealed: string | null;
}

export interface OAuthFlowTable {
  id: string;
  firm_id: number;
  client_id: number;
  redirect_uri: string;
  state: string | null;
  code_challenge: string | null;
  csrf_token: string;
  user_id: number | null;
  expires_at: string;
  created_at: string;
}

export interface SignInFailureTable {
  key: string;
  failures: number;
  window_started_at: string;
  locked_until: string | null;
}

export interface BrokerDealerTable {
  id: Id;
  firm_id: number;
  name: string;
  code: string | null;
  is_active: Flag;
}

export interface RepresentativeTable extends Audit {
  id: Id;
  firm_id: number;
  broker_dealer_id: number;
  first_name: string;
  last_name: string;
  name: string;
  number: string;
  email: string | null;
  is_active: Flag;
  /** The long tail of section 2.13 fields, kept as JSON so the record round-trips whole. */
  details: string;
}

export interface ClientTable extends Audit {
  id: Id;
  firm_id: number;
  representative_id: number;
  name: string;
  notes: string | null;
}

export interface RegistrationTable extends Audit {
  id: Id;
  firm_id: number;
  client_id: number;
  name: string;
  type: string;
  is_sleeved: Flag;
  do_not_trade: Flag;
}

export interface AccountTable extends Audit {
  id: Id;
  firm_id: number;
  registration_id: number;
  number: string;
  name: string;
  custodian: string;
  model_id: number | null;
  cash_cents: number;
  is_trading_blocked: Flag;
  restricted_plan_id: number | null;
  is_active: Flag;
  /** Sleeve accounts of a sleeved registration carry their allocation; null otherwise. */
  sleeve_type: string | null;
  sleeve_target_pct: number | null;
  sleeve_tolerance_lower: number | null;
  sleeve_tolerance_upper: number | null;
  /** Taxable, TaxDeferred or TaxExempt; null: from the registration type (src/book/registration-types.ts). */
  tax_status: string | null;
  /** A separately managed account (spec 4.2 rule 7's UpdateDoNotTradeAndSma); 0 by default. */
  is_sma: Generated<Flag>;
}

export interface ProductTable extends Audit {
  id: Id;
  firm_id: number;
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
  /** Products of one group are "substantially identical" for wash sales; null: only itself. */
  wash_sale_group: string | null;
  harvest_replacement_product_id: number | null;
}

export interface ProductPriceTable {
  id: Id;
  firm_id: number;
  product_id: number;
  price_date: string;
  price_micros: number;
}

export interface PositionTable {
  id: Id;
  firm_id: number;
  account_id: number;
  product_id: number;
  shares_micros: number;
  cost_cents: number;
  /** The position's lots as one text (db/position-lots.ts), kept by every writer of tax_lots; null without lots. */
  lots: string | null;
  /** The newest acquired date of its lots, kept with `lots`; null without lots. */
  latest_lot_date: string | null;
}

export interface TaxLotTable {
  id: Id;
  firm_id: number;
  position_id: number;
  shares_micros: number;
  cost_cents: number;
  acquired_date: string;
}

export interface PendingTransactionTable {
  id: Id;
  firm_id: number;
  account_id: number;
  product_id: number | null;
  type: string;
  shares_micros: number;
  amount_cents: number;
  trade_date: string;
  created_at: string;
}

export interface ModelTable extends Audit {
  id: Id;
  firm_id: number;
  name: string;
  description: string | null;
  cash_target_pct: number;
  cash_lower_pct: number;
  cash_upper_pct: number;
  is_active: Flag;
}

export interface ModelAllocationTable {
  id: Id;
  firm_id: number;
  model_id: number;
  product_id: number;
  target_pct: number;
  lower_pct: number;
  upper_pct: number;
}

export interface ModelEquivalentTable {
  id: Id;
  firm_id: number;
  model_allocation_id: number;
  product_id: number;
  rank: number;
}

/** Section 2.8 priorities of a model's security (a target or an equivalent); null: not set. */
export interface ModelSecurityPriorityTable extends Audit {
  id: Id;
  firm_id: number;
  model_id: number;
  product_id: number;
  buy_priority_id: number | null;
  sell_priority_id: number | null;
}

export interface ModelAggTable {
  id: Id;
  firm_id: number;
  name: string;
}

export interface ModelAggModelTable {
  firm_id: number;
  model_agg_id: number;
  model_id: number;
  weight_pct: number;
}

export interface TeamTable {
  id: Id;
  firm_id: number;
  name: string;
}

export interface TeamUserTable {
  firm_id: number;
  team_id: number;
  user_id: number;
}

export interface ModelTeamTable {
  firm_id: number;
  model_id: number;
  team_id: number;
}

export interface TradeGroupTable {
  id: Id;
  firm_id: number;
  name: string;
}

export interface TradeGroupAccountTable {
  firm_id: number;
  trade_group_id: number;
  account_id: number;
}

export interface ProductSubstitutionTable {
  id: Id;
  firm_id: number;
  /** null: the substitution applies firm-wide. */
  account_id: number | null;
  product_id: number;
  substitute_product_id: number;
}

export interface TradeBlockReasonTable extends Audit {
  id: Id;
  firm_id: number;
  global_id: string;
  name: string;
  is_system_maintained: Flag;
  allow_detail_assignment: Flag;
}

export interface TradeBlockDetailTable extends Audit {
  id: Id;
  firm_id: number;
  global_id: string;
  /** 6 = Registration, 7 = Account (spec 2.3). */
  entity_enum: number;
  entity_id: number;
  reason_id: number;
  description: string;
  start_date: string;
  end_date: string | null;
  is_deleted: Flag;
  version: number;
}

export interface TradeBlockHistoryTable {
  id: Id;
  firm_id: number;
  detail_id: number;
  global_id: string;
  action: 'create' | 'update' | 'delete' | 'reassign';
  version: number;
  /** The detail as it was after the change (JSON of the v1 DTO). */
  snapshot: string;
  changed_by: string;
  changed_at: string;
}

export interface OutboxTable {
  id: Id;
  firm_id: number;
  topic: string;
  payload: string;
  created_at: string;
  attempts: number;
  next_attempt_at: string;
  delivered_at: string | null;
  last_error: string | null;
}

export interface RebalancerTradeBlockDetailTable extends Audit {
  id: Id;
  firm_id: number;
  global_id: string;
  /** 16 = Portfolio (a registration), 32 = Account (spec 9.3). */
  related_type: number;
  related_type_id: number;
  reason_id: number;
  reason_name: string;
  description: string;
  start_date: string;
  end_date: string | null;
  is_deleted: Flag;
  source_version: number;
}

export interface RebalancerSyncLogTable {
  id: Id;
  firm_id: number;
  event_id: number;
  global_id: string;
  version: number;
  outcome: 'applied' | 'stale' | 'duplicate';
  applied_at: string;
}

export interface TradeInstanceTable {
  id: Id;
  firm_id: number;
  routine: 'Rebalance' | 'QuickTrade';
  notes: string | null;
  /** The request as received (JSON), so a desk can see what produced the trades. */
  request: string;
  status: 'Open' | 'Cancelled';
  created_at: string;
  created_by: string;
  cancelled_at: string | null;
  cancelled_by: string | null;
  /** How many trades the instance holds, kept by the transactions that write them (migration 0019). */
  trade_count: Generated<number>;
  /** The lot method of a tax-aware run, which executions relieve lots by; null otherwise (migration 0020). */
  lot_selection: 'MinTax' | 'HIFO' | 'FIFO' | null;
}

export interface TradeOrderTable {
  id: Id;
  firm_id: number;
  trade_instance_id: number;
  account_id: number;
  product_id: number;
  side: 'Buy' | 'Sell';
  trade_type: 'Dollars' | 'Shares';
  shares_micros: number;
  amount_cents: number;
  price_micros: number;
  reason: string;
  status: 'Open' | 'Cancelled' | 'Executed';
  created_at: string;
  /** JSON array of the tax lots a sell in a taxable account plans to relieve (tax-aware runs only). */
  lots: string | null;
  short_term_gain_cents: number | null;
  long_term_gain_cents: number | null;
  executed_at: string | null;
}

export interface BatchTable {
  id: Id;
  firm_id: number;
  trade_instance_id: number;
  status: 'Running' | 'Complete' | 'Failed';
  message: string;
  total_items: number;
  items_completed: Generated<number>;
  error_count: Generated<number>;
  warning_count: Generated<number>;
  chunks_total: number;
  chunks_done: Generated<number>;
  created_at: string;
  created_by: string;
  created_by_user_id: number;
  completed_at: string | null;
}

export interface BatchChunkTable {
  id: Id;
  firm_id: number;
  batch_id: number;
  seq: number;
  /** JSON array of the account ids (or unknown keys) of this chunk. */
  keys: string;
  attempts: Generated<number>;
  done_at: string | null;
}

export interface BatchMessageTable {
  id: Id;
  firm_id: number;
  batch_id: number;
  account_id: number | null;
  severity: 'Error' | 'Warning' | 'Info';
  code: string;
  message: string;
  created_at: string;
}

export interface RestrictedPlanTable extends Audit {
  id: Id;
  firm_id: number;
  name: string;
  /** Lower-cased trimmed name: unique in the firm. */
  name_key: string;
  use_in_trade_file: Flag;
  external_plan_id: string | null;
}

export interface RestrictedPlanSecurityTable extends Audit {
  id: Id;
  firm_id: number;
  plan_id: number;
  product_id: number;
  do_not_buy_group_equivalency: Flag;
  /** Section 2.8 ids; null when the plan sets no priority. */
  buy_priority_id: number | null;
  sell_priority_id: number | null;
}

export interface SetAsideCashTable extends Audit {
  id: Id;
  firm_id: number;
  account_id: number;
  description: string | null;
  /** 1 dollars, 2 percent (spec 2.12). */
  cash_amount_type_id: number;
  /** Dollar records: still protected (falls when depleted over time). */
  cash_amount_cents: number | null;
  initial_amount_cents: number | null;
  /** Percent records. */
  cash_amount_pct: number | null;
  /** null: no bound beyond the amount itself. */
  min_cash_cents: number | null;
  max_cash_cents: number | null;
  percent_calculation_type_id: number | null;
  /** 1 Date, 2 Transaction, 3 None. */
  expiration_type_id: number;
  /** Date expiry: the last day the cash is protected. */
  expiration_date: string | null;
  /** Transaction expiry: 1 Distribution / Merge Out, 3 Fee. */
  expiration_transaction_type_id: number | null;
  tolerance_value: number | null;
  is_deplete_over_time: Flag;
  set_aside_account_type_id: number | null;
  start_date: string;
  /** Set by transaction processing or an explicit expiry; date expiry is judged on read. */
  is_expired: Flag;
  expired_on: string | null;
  expired_by: string | null;
  amount_expired_cents: number;
  is_deleted: Flag;
}

/** One executed sale of one lot slice: a household's realized gains and its recent loss sales. */
export interface RealizedSaleTable {
  id: Id;
  firm_id: number;
  client_id: number;
  account_id: number;
  product_id: number;
  trade_id: number | null;
  trade_date: string;
  acquired_date: string;
  shares_micros: number;
  proceeds_cents: number;
  cost_cents: number;
  term: 'Short' | 'Long';
  gain_cents: number;
  /** The part of a loss a wash sale disallows (added to the replacement lot's cost). */
  disallowed_loss_cents: Generated<number>;
  created_at: string;
}

export interface BatchTaxSummaryTable {
  id: Id;
  firm_id: number;
  batch_id: number;
  client_id: number;
  short_term_gain_cents: number;
  long_term_gain_cents: number;
  harvested_loss_cents: number;
  wash_sale_moves: number;
  budget_cuts: number;
}

export interface AccountTransactionTable {
  id: Id;
  firm_id: number;
  account_id: number;
  /** Distribution, MergeOut, Fee, Contribution, … */
  type: string;
  amount_cents: number;
  trade_date: string;
  description: string | null;
  created_at: string;
  created_by: string;
}

/** The built-in risk-profiling partner's client of a household. */
export interface RiskClientTable extends Audit {
  id: Id;
  firm_id: number;
  name: string;
  name_key: string;
  household_id: number;
  source: string;
  created_by_user_id: number;
  survey_token: string;
  current_survey_id: number | null;
}

export interface RiskSurveyTable {
  id: Id;
  firm_id: number;
  risk_client_id: number;
  /** JSON object: question key to answer key. */
  answers: string;
  points: number;
  risk_score: number;
  category: string;
  questionnaire_version: number;
  created_at: string;
}

/** A client created at an external partner, and the firm it belongs to. */
export interface RiskPartnerClientTable {
  id: Id;
  firm_id: number;
  partner_client_id: number;
  created_at: string;
  created_by: string;
}

export interface NotifyIntegrationTable {
  id: Id;
  firm_id: number;
  user_id: number;
  partner_app_id: number;
  /** The webhook's capability: with the partner's credentials it reads and posts the user's notifications. */
  webhook_guid: string;
  name: string;
  label: string | null;
  is_active: Flag;
  is_custom: Flag;
  push_url: string | null;
  push_secret: string | null;
  push_registered_at: string | null;
  created_at: string;
}

export interface NotificationTable {
  id: Id;
  firm_id: number;
  user_id: number;
  /** null for the platform's own notifications. */
  integration_id: number | null;
  partner_app_id: number | null;
  subject: string;
  body: string;
  /** Absolute, or a `{base_url}` / `{rebalancer_base_url}` template the platform resolves on read. */
  url: string | null;
  category_name: string | null;
  action_name: string | null;
  /** 0 unread. */
  status: Generated<number>;
  created_at: string;
}

export interface NotificationSourceTable {
  /** `batch:<id>`, `set-aside:<id>`. */
  key: string;
  firm_id: number;
  notification_id: number | null;
  created_at: string;
}

export interface NotificationDeliveryTable {
  id: Id;
  firm_id: number;
  notification_id: number;
  integration_id: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserDefinedDefinitionTable extends Audit {
  id: Id;
  firm_id: number;
  /** The level: Representative, Household, Registration, Account or Product. */
  entity: string;
  name: string;
  category: string | null;
  /** Text, Number, Date, List or Boolean. */
  type: string;
  code: string;
  sequence: number;
  /** JSON array of the allowed values of a List field; [] otherwise. */
  options: string;
  /** Privilege needed, beside portfolio.edit, to change a value; null: none. */
  security_code: string | null;
}

export interface UserDefinedValueTable extends Audit {
  id: Id;
  firm_id: number;
  definition_id: number;
  /** Id of a row of the definition's level table. */
  entity_id: number;
  value: string;
}

/** Sleeve settings of a sleeved registration (section 2.15); its sleeves are its accounts. */
export interface SleeveRegistrationTable extends Audit {
  id: Id;
  firm_id: number;
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
}

/** What a sleeve carries beyond accounts.sleeve_* (which stay the one source of target and tolerances). */
export interface AccountSleeveTable extends Audit {
  id: Id;
  firm_id: number;
  account_id: number;
  registration_id: number;
  description: string | null;
  contribution_pct: number | null;
  distribution_pct: number | null;
  corporate_action_pct: number | null;
  management_style_id: number | null;
  management_style: string | null;
  sub_advisor_id: number | null;
  sub_advisor: string | null;
  sweep_asset_id: number | null;
  self_directed: Flag;
  self_directed_model_id: number | null;
  removed_at: string | null;
  removed_by: string | null;
}

/** Cash a registration-level rebalance moves into (+) or out of (−) a sleeve; open while its instance is. */
export interface SleeveTransferTable {
  id: Id;
  firm_id: number;
  trade_instance_id: number;
  batch_id: number;
  registration_id: number;
  account_id: number;
  amount_cents: number;
  current_pct: number;
  target_pct: number;
  out_of_band: Flag;
  created_at: string;
}

/** An account's value at a day's close and that day's flows (shared/design/performance.md); money in cents. */
export interface AccountValueTable {
  firm_id: number;
  account_id: number;
  value_date: string;
  /** Null on a day with flows, fees or income but no valuation. */
  market_value_cents: number | null;
  net_flow_cents: ColumnType<number, number | undefined, number>;
  fees_cents: ColumnType<number, number | undefined, number>;
  income_cents: ColumnType<number, number | undefined, number>;
}

/** The daily valuation's claim of a firm's date: one node values it. */
export interface ValuationRunTable {
  firm_id: number;
  value_date: string;
  claimed_by: string;
  claimed_at: string;
  finished_at: string | null;
}

export interface Database {
  firms: FirmTable;
  roles: RoleTable;
  role_privileges: RolePrivilegeTable;
  users: UserTable;
  partner_apps: PartnerAppTable;
  access_tokens: AccessTokenTable;
  authorization_codes: AuthorizationCodeTable;
  refresh_tokens: RefreshTokenTable;
  oauth_flows: OAuthFlowTable;
  sign_in_failures: SignInFailureTable;
  broker_dealers: BrokerDealerTable;
  representatives: RepresentativeTable;
  clients: ClientTable;
  registrations: RegistrationTable;
  accounts: AccountTable;
  products: ProductTable;
  product_prices: ProductPriceTable;
  positions: PositionTable;
  tax_lots: TaxLotTable;
  pending_transactions: PendingTransactionTable;
  models: ModelTable;
  model_allocations: ModelAllocationTable;
  model_equivalents: ModelEquivalentTable;
  model_security_priorities: ModelSecurityPriorityTable;
  model_aggs: ModelAggTable;
  model_agg_models: ModelAggModelTable;
  teams: TeamTable;
  team_users: TeamUserTable;
  model_teams: ModelTeamTable;
  trade_groups: TradeGroupTable;
  trade_group_accounts: TradeGroupAccountTable;
  product_substitutions: ProductSubstitutionTable;
  trade_instances: TradeInstanceTable;
  trades: TradeOrderTable;
  batches: BatchTable;
  batch_chunks: BatchChunkTable;
  batch_messages: BatchMessageTable;
  trade_block_reasons: TradeBlockReasonTable;
  trade_block_details: TradeBlockDetailTable;
  trade_block_history: TradeBlockHistoryTable;
  outbox: OutboxTable;
  rebalancer_trade_block_details: RebalancerTradeBlockDetailTable;
  rebalancer_sync_log: RebalancerSyncLogTable;
  restricted_plans: RestrictedPlanTable;
  restricted_plan_securities: RestrictedPlanSecurityTable;
  set_aside_cash: SetAsideCashTable;
  account_transactions: AccountTransactionTable;
  risk_clients: RiskClientTable;
  risk_surveys: RiskSurveyTable;
  risk_partner_clients: RiskPartnerClientTable;
  notify_integrations: NotifyIntegrationTable;
  notifications: NotificationTable;
  notification_sources: NotificationSourceTable;
  notification_deliveries: NotificationDeliveryTable;
  user_defined_definitions: UserDefinedDefinitionTable;
  user_defined_values: UserDefinedValueTable;
  sleeve_registrations: SleeveRegistrationTable;
  account_sleeves: AccountSleeveTable;
  sleeve_transfers: SleeveTransferTable;
  realized_sales: RealizedSaleTable;
  batch_tax_summaries: BatchTaxSummaryTable;
  account_values: AccountValueTable;
  valuation_runs: ValuationRunTable;
}

export type { ColumnType };
