insert into "trades" ("account_id", "product_id", "side", "trade_type", "shares_micros", "amount_cents", "price_micros", "reason", "firm_id", "trade_instance_id", "status", "created_at") select *, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?),(?,?,?,?,?,?,?,?))
-- parameters: [1,3,"Open","2026-11-26T12:00:00.000Z",10,20,"Buy","Dollars",1500000,15000,100000000,"Model \"Growth\"",11,20,"Buy","Dollars",1500000,15000,100000000,"tab\there"]
insert into "trades" ("account_id", "product_id", "side", "trade_type", "shares_micros", "amount_cents", "price_micros", "reason", "firm_id", "trade_instance_id", "status", "created_at") select *, ?, ?, ?, ? from (values (?,?,?,?,?,?,?,?))
-- parameters: [1,3,"Open","2026-11-26T12:00:00.000Z",12,20,"Buy","Dollars",1500000,15000,100000000,"back\\slash"]
