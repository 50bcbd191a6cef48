insert into "account_values" ("account_id", "market_value_cents", "net_flow_cents", "fees_cents", "income_cents", "firm_id", "value_date") select *, ?, ? from (values (?,?,?,?,?))
-- parameters: [1,"2026-11-26",10,100000,0,-25,12]
