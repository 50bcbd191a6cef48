select "p"."account_id", json_agg(json_build_array(p.product_id, l.id, l.shares_micros, l.cost_cents, l.acquired_date) order by p.product_id, l.acquired_date, l.id)::text as "lots" from "positions" as "p" inner join "tax_lots" as "l" on "l"."position_id" = "p"."id" where "p"."firm_id" = $1 and "p"."account_id" in ($2, $3) group by "p"."account_id"
-- parameters: [1,10,11]
