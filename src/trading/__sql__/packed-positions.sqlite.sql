select "account_id", '[' || group_concat(positions.product_id || ',' || positions.shares_micros || ',' || positions.cost_cents, ',') || ']' as "held" from "positions" where "firm_id" = ? and "account_id" in (?, ?) group by "account_id"
-- parameters: [1,10,11]
