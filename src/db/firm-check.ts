import { type RawBuilder, sql } from 'kysely';

/**
 * `firm_id` as a check on rows found some other way, never as the way to find them. Where a query
 * also narrows by a selective indexed column (client ids, registration ids), SQLite without
 * statistics prefers the (firm_id, id) index and walks every row of the firm, a cost that grows
 * with the firm; compared through this (`+firm_id`), the column is not indexable, so the plan takes
 * the selective index and keeps the firm as a filter. On PostgreSQL it also hides the column's
 * statistics from the planner, which then estimates the firm at half a per cent of the rows and
 * takes the selective index too.
 */
export function firmCheck(column: string): RawBuilder<number> {
  return sql<number>`+${sql.ref(column)}`;
}
