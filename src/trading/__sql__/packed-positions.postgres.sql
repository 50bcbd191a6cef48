select "account_id", '[' || string_agg(positions.product_id || ',' || positions.shares_micros || ',' || positions.cost_cents, ',') || ']' as "held" from "positions" where "firm_id" = $1 and "account_id" = any($2::int4[]) group by "account_id"
-- parameters: [1,[10,11]]
