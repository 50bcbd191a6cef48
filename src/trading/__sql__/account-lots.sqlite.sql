select "p"."account_id", json_group_array(json_array(p.product_id, l.id, l.shares_micros, l.cost_cents, l.acquired_date)) as "lots" from "positions" as "p" inner join "tax_lots" as "l" on "l"."position_id" = "p"."id" where "p"."firm_id" = ? and "p"."account_id" in (?, ?) group by "p"."account_id"
-- parameters: [1,10,11]
