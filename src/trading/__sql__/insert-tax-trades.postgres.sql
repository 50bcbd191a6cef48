copy "trades" ("account_id", "product_id", "side", "trade_type", "shares_micros", "amount_cents", "price_micros", "reason", "lots", "short_term_gain_cents", "long_term_gain_cents", "firm_id", "trade_instance_id", "status", "created_at") from stdin
-- stream:
10	20	Sell	Dollars	1500000	15000	100000000	Model "Growth"	[{"lotId":7,"sharesMicros":1500000}]	120	-40	1	3	Open	2026-11-26T12:00:00.000Z
11	20	Sell	Dollars	1500000	15000	100000000	tab\there	\N	120	-40	1	3	Open	2026-11-26T12:00:00.000Z
12	20	Sell	Dollars	1500000	15000	100000000	back\\slash	[{"lotId":7,"sharesMicros":1500000}]	120	-40	1	3	Open	2026-11-26T12:00:00.000Z
-- fewer rows than COPY is worth:
insert into "trades" ("account_id", "product_id", "side", "trade_type", "shares_micros", "amount_cents", "price_micros", "reason", "lots", "short_term_gain_cents", "long_term_gain_cents", "firm_id", "trade_instance_id", "status", "created_at")
      select u.*, $1::int4, $2::int4, $3::text, $4::text from unnest($5::int4[], $6::int4[], $7::text[], $8::text[], $9::int8[], $10::int8[], $11::int8[], $12::text[], $13::text[], $14::int8[], $15::int8[]) as u
-- parameters: [1,3,"Open","2026-11-26T12:00:00.000Z","{10,11,12}","{20,20,20}","{\"Sell\",\"Sell\",\"Sell\"}","{\"Dollars\",\"Dollars\",\"Dollars\"}","{1500000,1500000,1500000}","{15000,15000,15000}","{100000000,100000000,100000000}","{\"Model \\\"Growth\\\"\",\"tab\there\",\"back\\\\slash\"}","{\"[{\\\"lotId\\\":7,\\\"sharesMicros\\\":1500000}]\",NULL,\"[{\\\"lotId\\\":7,\\\"sharesMicros\\\":1500000}]\"}","{120,120,120}","{-40,-40,-40}"]
