insert into "batch_tax_summaries" ("client_id", "short_term_gain_cents", "long_term_gain_cents", "harvested_loss_cents", "wash_sale_moves", "budget_cuts", "firm_id", "batch_id") select *, ?, ? from (values (?,?,?,?,?,?))
-- parameters: [1,2,8,120,-40,0,1,0]
