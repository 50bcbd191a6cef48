insert into "tax_lots" ("position_id", "shares_micros", "cost_cents", "acquired_date", "firm_id") select *, ? from (values (?,?,?,?))
-- parameters: [1,30,2000000,18000,"2024-03-01"]
