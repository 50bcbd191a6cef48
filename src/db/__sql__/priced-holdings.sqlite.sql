select "p"."account_id", group_concat(p.shares_micros || ' ' || pr.price_micros, ' ') as "held" from "positions" as "p" inner join "products" as "pr" on "pr"."id" = "p"."product_id" where "p"."firm_id" = ? and "p"."account_id" in (?, ?) and "pr"."price_micros" is not null group by "p"."account_id"
-- parameters: [1,10,11]
