copy "batch_tax_summaries" ("client_id", "short_term_gain_cents", "long_term_gain_cents", "harvested_loss_cents", "wash_sale_moves", "budget_cuts", "firm_id", "batch_id") from stdin
-- stream:
8	120	-40	0	1	0	1	2
-- fewer rows than COPY is worth:
insert into "batch_tax_summaries" ("client_id", "short_term_gain_cents", "long_term_gain_cents", "harvested_loss_cents", "wash_sale_moves", "budget_cuts", "firm_id", "batch_id")
      select u.*, $1::int4, $2::int4 from unnest($3::int4[], $4::int8[], $5::int8[], $6::int8[], $7::int4[], $8::int4[]) as u
-- parameters: [1,2,"{8}","{120}","{-40}","{0}","{1}","{0}"]
