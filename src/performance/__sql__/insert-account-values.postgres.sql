insert into "account_values" ("account_id", "market_value_cents", "net_flow_cents", "fees_cents", "income_cents", "firm_id", "value_date")
      select u.*, $1::int4, $2::text from unnest($3::int4[], $4::int8[], $5::int8[], $6::int8[], $7::int8[]) as u
-- parameters: [1,"2026-11-26","{10}","{100000}","{0}","{-25}","{12}"]
