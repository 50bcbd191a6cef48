-- roles
copy "roles" ("id", "name", "firm_id") from stdin
-- stream:
\N	\N	1
-- fewer rows than COPY is worth:
insert into "roles" ("id", "name", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[]) as u
-- parameters: [1,"{NULL}","{NULL}"]

-- role_privileges
copy "role_privileges" ("role_id", "privilege", "firm_id") from stdin
-- stream:
\N	\N	1
-- fewer rows than COPY is worth:
insert into "role_privileges" ("role_id", "privilege", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[]) as u
-- parameters: [1,"{NULL}","{NULL}"]

-- users
copy "users" ("id", "user_name", "display_name", "email", "kind", "password_hash", "role_id", "is_active", "created_at", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "users" ("id", "user_name", "display_name", "email", "kind", "password_hash", "role_id", "is_active", "created_at", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int4[], $9::int4[], $10::text[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- partner_apps
copy "partner_apps" ("id", "name", "client_secret_hash", "redirect_uris", "is_active", "created_at", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "partner_apps" ("id", "name", "client_secret_hash", "redirect_uris", "is_active", "created_at", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[], $4::text[], $5::text[], $6::int4[], $7::text[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- broker_dealers
copy "broker_dealers" ("id", "name", "code", "is_active", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "broker_dealers" ("id", "name", "code", "is_active", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[], $4::text[], $5::int4[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}"]

-- representatives
copy "representatives" ("id", "broker_dealer_id", "first_name", "last_name", "name", "number", "email", "is_active", "details", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "representatives" ("id", "broker_dealer_id", "first_name", "last_name", "name", "number", "email", "is_active", "details", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::int4[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int4[], $14::text[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- products
copy "products" ("id", "ticker", "name", "type", "class", "sub_class", "category", "price_micros", "price_date", "is_cash", "allows_fractional", "wash_sale_group", "harvest_replacement_product_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "products" ("id", "ticker", "name", "type", "class", "sub_class", "category", "price_micros", "price_date", "is_cash", "allows_fractional", "wash_sale_group", "harvest_replacement_product_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int8[], $14::text[], $15::int4[], $16::int4[], $17::text[], $18::int4[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- restricted_plans
copy "restricted_plans" ("id", "name", "name_key", "use_in_trade_file", "external_plan_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "restricted_plans" ("id", "name", "name_key", "use_in_trade_file", "external_plan_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::text[], $8::text[], $9::int4[], $10::text[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- restricted_plan_securities
copy "restricted_plan_securities" ("id", "plan_id", "product_id", "do_not_buy_group_equivalency", "buy_priority_id", "sell_priority_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "restricted_plan_securities" ("id", "plan_id", "product_id", "do_not_buy_group_equivalency", "buy_priority_id", "sell_priority_id", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::int4[], $8::int4[], $9::int4[], $10::int4[], $11::int4[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- trade_block_reasons
copy "trade_block_reasons" ("id", "global_id", "name", "is_system_maintained", "allow_detail_assignment", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "trade_block_reasons" ("id", "global_id", "name", "is_system_maintained", "allow_detail_assignment", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::text[], $8::text[], $9::int4[], $10::int4[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- product_prices
copy "product_prices" ("id", "product_id", "price_date", "price_micros", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "product_prices" ("id", "product_id", "price_date", "price_micros", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[], $4::text[], $5::int8[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}"]

-- models
copy "models" ("id", "name", "description", "cash_target_pct", "cash_lower_pct", "cash_upper_pct", "is_active", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "models" ("id", "name", "description", "cash_target_pct", "cash_lower_pct", "cash_upper_pct", "is_active", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::text[], $8::text[], $9::float8[], $10::float8[], $11::float8[], $12::int4[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- model_allocations
copy "model_allocations" ("id", "model_id", "product_id", "target_pct", "lower_pct", "upper_pct", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "model_allocations" ("id", "model_id", "product_id", "target_pct", "lower_pct", "upper_pct", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[], $4::int4[], $5::float8[], $6::float8[], $7::float8[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- model_equivalents
copy "model_equivalents" ("id", "model_allocation_id", "product_id", "rank", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "model_equivalents" ("id", "model_allocation_id", "product_id", "rank", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[], $4::int4[], $5::int4[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}"]

-- model_aggs
copy "model_aggs" ("id", "name", "firm_id") from stdin
-- stream:
\N	\N	1
-- fewer rows than COPY is worth:
insert into "model_aggs" ("id", "name", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[]) as u
-- parameters: [1,"{NULL}","{NULL}"]

-- model_agg_models
copy "model_agg_models" ("model_agg_id", "model_id", "weight_pct", "firm_id") from stdin
-- stream:
\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "model_agg_models" ("model_agg_id", "model_id", "weight_pct", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[], $4::float8[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}"]

-- teams
copy "teams" ("id", "name", "firm_id") from stdin
-- stream:
\N	\N	1
-- fewer rows than COPY is worth:
insert into "teams" ("id", "name", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[]) as u
-- parameters: [1,"{NULL}","{NULL}"]

-- team_users
copy "team_users" ("team_id", "user_id", "firm_id") from stdin
-- stream:
\N	\N	1
-- fewer rows than COPY is worth:
insert into "team_users" ("team_id", "user_id", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[]) as u
-- parameters: [1,"{NULL}","{NULL}"]

-- model_teams
copy "model_teams" ("model_id", "team_id", "firm_id") from stdin
-- stream:
\N	\N	1
-- fewer rows than COPY is worth:
insert into "model_teams" ("model_id", "team_id", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[]) as u
-- parameters: [1,"{NULL}","{NULL}"]

-- trade_groups
copy "trade_groups" ("id", "name", "firm_id") from stdin
-- stream:
\N	\N	1
-- fewer rows than COPY is worth:
insert into "trade_groups" ("id", "name", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[]) as u
-- parameters: [1,"{NULL}","{NULL}"]

-- clients
copy "clients" ("id", "representative_id", "name", "notes", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "clients" ("id", "representative_id", "name", "notes", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::int4[], $8::text[], $9::text[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}"]

-- registrations
copy "registrations" ("id", "client_id", "name", "type", "is_sleeved", "do_not_trade", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "registrations" ("id", "client_id", "name", "type", "is_sleeved", "do_not_trade", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::int4[], $8::text[], $9::text[], $10::int4[], $11::int4[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- accounts
copy "accounts" ("id", "registration_id", "number", "name", "custodian", "model_id", "cash_cents", "is_trading_blocked", "is_active", "sleeve_type", "sleeve_target_pct", "sleeve_tolerance_lower", "sleeve_tolerance_upper", "restricted_plan_id", "tax_status", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "accounts" ("id", "registration_id", "number", "name", "custodian", "model_id", "cash_cents", "is_trading_blocked", "is_active", "sleeve_type", "sleeve_target_pct", "sleeve_tolerance_lower", "sleeve_tolerance_upper", "restricted_plan_id", "tax_status", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::int4[], $8::text[], $9::text[], $10::text[], $11::int4[], $12::int8[], $13::int4[], $14::int4[], $15::text[], $16::float8[], $17::float8[], $18::float8[], $19::int4[], $20::text[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- positions
copy "positions" ("id", "account_id", "product_id", "shares_micros", "cost_cents", "lots", "latest_lot_date", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "positions" ("id", "account_id", "product_id", "shares_micros", "cost_cents", "lots", "latest_lot_date", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[], $4::int4[], $5::int8[], $6::int8[], $7::text[], $8::text[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- tax_lots
copy "tax_lots" ("id", "position_id", "shares_micros", "cost_cents", "acquired_date", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "tax_lots" ("id", "position_id", "shares_micros", "cost_cents", "acquired_date", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[], $4::int8[], $5::int8[], $6::text[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- pending_transactions
copy "pending_transactions" ("id", "account_id", "product_id", "type", "shares_micros", "amount_cents", "trade_date", "created_at", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "pending_transactions" ("id", "account_id", "product_id", "type", "shares_micros", "amount_cents", "trade_date", "created_at", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[], $4::int4[], $5::text[], $6::int8[], $7::int8[], $8::text[], $9::text[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- trade_group_accounts
copy "trade_group_accounts" ("trade_group_id", "account_id", "firm_id") from stdin
-- stream:
\N	\N	1
-- fewer rows than COPY is worth:
insert into "trade_group_accounts" ("trade_group_id", "account_id", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[]) as u
-- parameters: [1,"{NULL}","{NULL}"]

-- product_substitutions
copy "product_substitutions" ("id", "account_id", "product_id", "substitute_product_id", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "product_substitutions" ("id", "account_id", "product_id", "substitute_product_id", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int4[], $4::int4[], $5::int4[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}"]

-- user_defined_definitions
copy "user_defined_definitions" ("id", "entity", "name", "category", "type", "code", "sequence", "options", "security_code", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "user_defined_definitions" ("id", "entity", "name", "category", "type", "code", "sequence", "options", "security_code", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::int4[], $13::text[], $14::text[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- user_defined_values
copy "user_defined_values" ("id", "definition_id", "entity_id", "value", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "user_defined_values" ("id", "definition_id", "entity_id", "value", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::int4[], $8::int4[], $9::text[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}"]

-- sleeve_registrations
copy "sleeve_registrations" ("id", "registration_id", "sleeve_strategy_id", "is_active", "as_of_date", "contribution_method", "distribution_method", "corporate_action_method", "auto_rebal_frequency", "auto_rebal_month", "auto_rebal_day", "mandate", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "sleeve_registrations" ("id", "registration_id", "sleeve_strategy_id", "is_active", "as_of_date", "contribution_method", "distribution_method", "corporate_action_method", "auto_rebal_frequency", "auto_rebal_month", "auto_rebal_day", "mandate", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::int4[], $8::int4[], $9::int4[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::int4[], $16::int4[], $17::int4[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- set_aside_cash
copy "set_aside_cash" ("id", "account_id", "description", "cash_amount_type_id", "cash_amount_cents", "initial_amount_cents", "cash_amount_pct", "percent_calculation_type_id", "expiration_type_id", "expiration_date", "start_date", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "set_aside_cash" ("id", "account_id", "description", "cash_amount_type_id", "cash_amount_cents", "initial_amount_cents", "cash_amount_pct", "percent_calculation_type_id", "expiration_type_id", "expiration_date", "start_date", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::int4[], $8::text[], $9::int4[], $10::int8[], $11::int8[], $12::float8[], $13::int4[], $14::int4[], $15::text[], $16::text[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- trade_block_details
copy "trade_block_details" ("id", "global_id", "entity_enum", "entity_id", "reason_id", "description", "start_date", "end_date", "is_deleted", "version", "firm_id", "created_at", "created_by", "edited_at", "edited_by") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	1	2026-01-01T00:00:00.000Z	seed	2026-01-01T00:00:00.000Z	seed
-- fewer rows than COPY is worth:
insert into "trade_block_details" ("id", "global_id", "entity_enum", "entity_id", "reason_id", "description", "start_date", "end_date", "is_deleted", "version", "firm_id", "created_at", "created_by", "edited_at", "edited_by")
      select u.*, $1::int4, $2::text, $3::text, $4::text, $5::text from unnest($6::int4[], $7::text[], $8::int4[], $9::int4[], $10::int4[], $11::text[], $12::text[], $13::text[], $14::int4[], $15::int4[]) as u
-- parameters: [1,"2026-01-01T00:00:00.000Z","seed","2026-01-01T00:00:00.000Z","seed","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]

-- account_values
copy "account_values" ("account_id", "value_date", "market_value_cents", "net_flow_cents", "fees_cents", "income_cents", "firm_id") from stdin
-- stream:
\N	\N	\N	\N	\N	\N	1
-- fewer rows than COPY is worth:
insert into "account_values" ("account_id", "value_date", "market_value_cents", "net_flow_cents", "fees_cents", "income_cents", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::text[], $4::int8[], $5::int8[], $6::int8[], $7::int8[]) as u
-- parameters: [1,"{NULL}","{NULL}","{NULL}","{NULL}","{NULL}","{NULL}"]
