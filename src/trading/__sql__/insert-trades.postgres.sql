copy "trades" ("account_id", "product_id", "side", "trade_type", "shares_micros", "amount_cents", "price_micros", "reason", "firm_id", "trade_instance_id", "status", "created_at") from stdin
-- stream:
10	20	Buy	Dollars	1500000	15000	100000000	Model "Growth"	1	3	Open	2026-11-26T12:00:00.000Z
11	20	Buy	Dollars	1500000	15000	100000000	tab\there	1	3	Open	2026-11-26T12:00:00.000Z
12	20	Buy	Dollars	1500000	15000	100000000	back\\slash	1	3	Open	2026-11-26T12:00:00.000Z
-- fewer rows than COPY is worth:
insert into "trades" ("account_id", "product_id", "side", "trade_type", "shares_micros", "amount_cents", "price_micros", "reason", "firm_id", "trade_instance_id", "status", "created_at")
      select u.*, $1::int4, $2::int4, $3::text, $4::text from unnest($5::int4[], $6::int4[], $7::text[], $8::text[], $9::int8[], $10::int8[], $11::int8[], $12::text[]) as u
-- parameters: [1,3,"Open","2026-11-26T12:00:00.000Z","{10,11,12}","{20,20,20}","{\"Buy\",\"Buy\",\"Buy\"}","{\"Dollars\",\"Dollars\",\"Dollars\"}","{1500000,1500000,1500000}","{15000,15000,15000}","{100000000,100000000,100000000}","{\"Model \\\"Growth\\\"\",\"tab\there\",\"back\\\\slash\"}"]
