select "p"."account_id", string_agg(p.shares_micros || ' ' || pr.price_micros, ' ') as "held" from "positions" as "p" inner join "products" as "pr" on "pr"."id" = "p"."product_id" where "p"."firm_id" = $1 and "p"."account_id" in ($2, $3) and "pr"."price_micros" is not null group by "p"."account_id"
-- parameters: [1,10,11]
