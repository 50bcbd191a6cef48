-- roles
insert into "roles" ("id", "name", "firm_id") select *, ? from (values (?,?))
-- parameters: [1,null,null]

-- role_privileges
insert into "role_privileges" ("role_id", "privilege", "firm_id") select *, ? from (values (?,?))
-- parameters: [1,null,null]

-- users
insert into "users" ("id", "user_name", "display_name", "email", "kind", "password_hash", "role_id", "is_active", "created_at", "firm_id") select *, ? from (values (?,?,?,?,?,?,?,?,?))
-- parameters: [1,null,null,null,null,null,null,null,null,null]

-- partner_apps
insert into "partner_apps" ("id", "name", "client_secret_hash", "redirect_uris", "is_active", "created_at", "firm_id") select *, ? from (values (?,?,?,?,?,?))
-- parameters: [1,null,null,null,null,null,null]

-- broker_dealers
insert into "broker_dealers" ("id", "name", "code", "is_active", "firm_id") select *, ? from (values (?,?,?,?))
-- parameters: [1,null,null,null,null]

-- representatives
insert into "representatives" ("id", "broker_dealer_id", "first_name", "last_name", "name", "number", "email", "is_active", "details", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null,null,null,null]

-- products
insert into "products" ("id", "ticker", "name", "type", "class", "sub_class", "category", "price_micros", "price_date", "is_cash", "allows_fractional", "wash_sale_group", "harvest_replacement_product_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null,null,null,null,null,null,null,null]

-- restricted_plans
insert into "restricted_plans" ("id", "name", "name_key", "use_in_trade_file", "external_plan_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null]

-- restricted_plan_securities
insert into "restricted_plan_securities" ("plan_id", "product_id", "do_not_buy_group_equivalency", "buy_priority_id", "sell_priority_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null]

-- trade_block_reasons
insert into "trade_block_reasons" ("id", "global_id", "name", "is_system_maintained", "allow_detail_assignment", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null]

-- product_prices
insert into "product_prices" ("product_id", "price_date", "price_micros", "firm_id") select *, ? from (values (?,?,?))
-- parameters: [1,null,null,null]

-- models
insert into "models" ("id", "name", "description", "cash_target_pct", "cash_lower_pct", "cash_upper_pct", "is_active", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null,null]

-- model_allocations
insert into "model_allocations" ("id", "model_id", "product_id", "target_pct", "lower_pct", "upper_pct", "firm_id") select *, ? from (values (?,?,?,?,?,?))
-- parameters: [1,null,null,null,null,null,null]

-- model_equivalents
insert into "model_equivalents" ("model_allocation_id", "product_id", "rank", "firm_id") select *, ? from (values (?,?,?))
-- parameters: [1,null,null,null]

-- model_aggs
insert into "model_aggs" ("id", "name", "firm_id") select *, ? from (values (?,?))
-- parameters: [1,null,null]

-- model_agg_models
insert into "model_agg_models" ("model_agg_id", "model_id", "weight_pct", "firm_id") select *, ? from (values (?,?,?))
-- parameters: [1,null,null,null]

-- teams
insert into "teams" ("id", "name", "firm_id") select *, ? from (values (?,?))
-- parameters: [1,null,null]

-- team_users
insert into "team_users" ("team_id", "user_id", "firm_id") select *, ? from (values (?,?))
-- parameters: [1,null,null]

-- model_teams
insert into "model_teams" ("model_id", "team_id", "firm_id") select *, ? from (values (?,?))
-- parameters: [1,null,null]

-- trade_groups
insert into "trade_groups" ("id", "name", "firm_id") select *, ? from (values (?,?))
-- parameters: [1,null,null]

-- clients
insert into "clients" ("id", "representative_id", "name", "notes", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null]

-- registrations
insert into "registrations" ("id", "client_id", "name", "type", "is_sleeved", "do_not_trade", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null]

-- accounts
insert into "accounts" ("id", "registration_id", "number", "name", "custodian", "model_id", "cash_cents", "is_trading_blocked", "is_active", "sleeve_type", "sleeve_target_pct", "sleeve_tolerance_lower", "sleeve_tolerance_upper", "restricted_plan_id", "tax_status", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null,null,null,null,null,null,null,null,null,null]

-- positions
insert into "positions" ("id", "account_id", "product_id", "shares_micros", "cost_cents", "lots", "latest_lot_date", "firm_id") select *, ? from (values (?,?,?,?,?,?,?))
-- parameters: [1,null,null,null,null,null,null,null]

-- tax_lots
insert into "tax_lots" ("position_id", "shares_micros", "cost_cents", "acquired_date", "firm_id") select *, ? from (values (?,?,?,?))
-- parameters: [1,null,null,null,null]

-- pending_transactions
insert into "pending_transactions" ("account_id", "product_id", "type", "shares_micros", "amount_cents", "trade_date", "created_at", "firm_id") select *, ? from (values (?,?,?,?,?,?,?))
-- parameters: [1,null,null,null,null,null,null,null]

-- trade_group_accounts
insert into "trade_group_accounts" ("trade_group_id", "account_id", "firm_id") select *, ? from (values (?,?))
-- parameters: [1,null,null]

-- product_substitutions
insert into "product_substitutions" ("account_id", "product_id", "substitute_product_id", "firm_id") select *, ? from (values (?,?,?))
-- parameters: [1,null,null,null]

-- user_defined_definitions
insert into "user_defined_definitions" ("id", "entity", "name", "category", "type", "code", "sequence", "options", "security_code", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null,null,null,null]

-- user_defined_values
insert into "user_defined_values" ("definition_id", "entity_id", "value", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null]

-- sleeve_registrations
insert into "sleeve_registrations" ("registration_id", "sleeve_strategy_id", "is_active", "as_of_date", "contribution_method", "distribution_method", "corporate_action_method", "auto_rebal_frequency", "auto_rebal_month", "auto_rebal_day", "mandate", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null,null,null,null,null,null]

-- set_aside_cash
insert into "set_aside_cash" ("account_id", "description", "cash_amount_type_id", "cash_amount_cents", "initial_amount_cents", "cash_amount_pct", "percent_calculation_type_id", "expiration_type_id", "expiration_date", "start_date", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null,null,null,null,null]

-- trade_block_details
insert into "trade_block_details" ("global_id", "entity_enum", "entity_id", "reason_id", "description", "start_date", "end_date", "is_deleted", "version", "firm_id", "created_at", "created_by", "edited_at", "edited_by") select *, ?, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?,?))
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed",null,null,null,null,null,null,null,null,null]

-- account_values
insert into "account_values" ("account_id", "value_date", "market_value_cents", "net_flow_cents", "fees_cents", "income_cents", "firm_id") select *, ? from (values (?,?,?,?,?,?))
-- parameters: [1,null,null,null,null,null,null]
