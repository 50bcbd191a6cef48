select "account_id", '[[' || group_concat(lots, '],[' order by product_id) || ']]' as "lots" from "positions" where "firm_id" = ? and "account_id" in (?, ?) and "lots" is not null and "latest_lot_date" >= ? group by "account_id"
-- parameters: [1,10,11,"2026-10-27"]
