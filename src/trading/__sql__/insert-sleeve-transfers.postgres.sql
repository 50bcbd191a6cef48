insert into "sleeve_transfers" ("registration_id", "account_id", "amount_cents", "current_pct", "target_pct", "out_of_band", "firm_id", "trade_instance_id", "batch_id", "created_at")
      select u.*, $1::int4, $2::int4, $3::int4, $4::text from unnest($5::int4[], $6::int4[], $7::int8[], $8::float8[], $9::float8[], $10::int4[]) as u
-- parameters: [1,3,2,"2026-11-26T12:00:00.000Z","{5}","{10}","{-250000}","{41.5}","{40}","{1}"]
