insert into "tax_lots" ("position_id", "shares_micros", "cost_cents", "acquired_date", "firm_id")
      select u.*, $1::int4 from unnest($2::int4[], $3::int8[], $4::int8[], $5::text[]) as u
-- parameters: [1,"{30}","{2000000}","{18000}","{\"2024-03-01\"}"]
