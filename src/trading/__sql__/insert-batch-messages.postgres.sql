copy "batch_messages" ("account_id", "severity", "code", "message", "firm_id", "batch_id", "created_at") from stdin
-- stream:
10	Warning	NeedReview	drifted 6% from its model	1	2	2026-11-26T12:00:00.000Z
-- fewer rows than COPY is worth:
insert into "batch_messages" ("account_id", "severity", "code", "message", "firm_id", "batch_id", "created_at")
      select u.*, $1::int4, $2::int4, $3::text from unnest($4::int4[], $5::text[], $6::text[], $7::text[]) as u
-- parameters: [1,2,"2026-11-26T12:00:00.000Z","{10}","{\"Warning\"}","{\"NeedReview\"}","{\"drifted 6% from its model\"}"]
