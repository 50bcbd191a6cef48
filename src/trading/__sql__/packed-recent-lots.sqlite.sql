select "p"."account_id", '[' || group_concat(p.product_id || ',' || json_quote(l.acquired_date), ',') || ']' as "lots" from "tax_lots" as "l" inner join "positions" as "p" on "p"."id" = "l"."position_id" where "p"."firm_id" = ? and "p"."account_id" in (?, ?) and "l"."acquired_date" >= ? group by "p"."account_id"
-- parameters: [1,10,11,"2026-10-27"]
