import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * `firm_id` as a check on rows found some other way, never as the way to find them. Where a query
 * also narrows by a selective indexed column (client ids, registration ids), SQLite without
 * statistics prefers the (firm_id, id) index and walks every row of the firm, a cost that grows
 * with the firm; compared through this (`+firm_id`), the column is not indexable, so the plan takes
 * the selective index and keeps the firm as a filter. On PostgreSQL it also hides the column's
 * statistics from the planner, which then misjudges how many rows the firm has (firmCheckIn).
 */
export function firmCheck(column: string): RawBuilder<number> {
  return sql<number>`+${sql.ref(column)}`;
}

/**
 * firmCheck on SQLite, the plain column on PostgreSQL, whose planner has statistics of `firm_id`
 * but none of `+firm_id`: it estimates `+firm_id = $1` at half a per cent of the rows. For a
 * tax-aware chunk's household members (accounts joined to registrations, narrowed by the chunk's
 * clients) that estimate made a nested loop probing the registrations of every account of the
 * firm: 110 ms a chunk of 2,500 accounts in a firm of 35,000, against 19 ms as a hash join, and
 * growing with the firm.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function firmCheckIn(db: Kysely<any>, column: string): RawBuilder<number> {
  return isPostgres(db) ? sql<number>`${sql.ref(column)}` : firmCheck(column);
}
