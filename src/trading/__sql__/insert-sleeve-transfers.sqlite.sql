insert into "sleeve_transfers" ("registration_id", "account_id", "amount_cents", "current_pct", "target_pct", "out_of_band", "firm_id", "trade_instance_id", "batch_id", "created_at") select *, ?, ?, ?, ? from (values (?,?,?,?,?,?))
-- parameters: [1,3,2,"2026-11-26T12:00:00.000Z",5,10,-250000,41.5,40,1]
