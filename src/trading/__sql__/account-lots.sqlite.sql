select "account_id", '[[' || group_concat(lots, '],[' order by product_id) || ']]' as "lots" from "positions" where "firm_id" = ? and "account_id" in (?, ?) and "lots" is not null group by "account_id"
-- parameters: [1,10,11]
