insert into "batch_messages" ("account_id", "severity", "code", "message", "firm_id", "batch_id", "created_at") select *, ?, ?, ? from (values (?,?,?,?))
-- parameters: [1,2,"2026-11-26T12:00:00.000Z",10,"Warning","NeedReview","drifted 6% from its model"]
