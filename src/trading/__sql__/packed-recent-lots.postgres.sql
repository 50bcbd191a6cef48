select "p"."account_id", '[' || string_agg(p.product_id || ',' || to_json(l.acquired_date)::text, ',') || ']' as "lots" from "tax_lots" as "l" inner join "positions" as "p" on "p"."id" = "l"."position_id" where "p"."firm_id" = $1 and "p"."account_id" in ($2, $3) and "l"."acquired_date" >= $4 group by "p"."account_id"
-- parameters: [1,10,11,"2026-10-27"]
