select "account_id", '[[' || string_agg(lots, '],[' order by product_id) || ']]' as "lots" from "positions" where "firm_id" = $1 and "account_id" = any($2::int4[]) and "lots" is not null group by "account_id"
-- parameters: [1,[10,11]]
