import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Many rows in one statement with a handful of bound values, whatever the row count: SQLite
 * reads a JSON array through json_each, PostgreSQL unnests one typed array per column. Kysely's
 * own multi-row insert binds every value and costs more to build than the rows cost to write.
 */
export type ColumnType = 'int4' | 'int8' | 'text' | 'float8';

export async function bulkInsert(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  conn: Kysely<any>,
  table: string,
  columns: [string, ColumnType][],
  constants: [string, ColumnType, string | number][],
  rows: unknown[][],
): Promise<void> {
  if (rows.length === 0) return;
  const names = sql.join([...columns.map(([c]) => c), ...constants.map(([c]) => c)].map((n) => sql.ref(n)));
  if (conn.getExecutor().adapter instanceof PostgresAdapter) {
    const arrays = columns.map(([, type], i) => sql`${rows.map((r) => r[i])}::${sql.raw(type)}[]`);
    const fixed = constants.map(([, type, v]) => sql`${v}::${sql.raw(type)}`);
    await sql`insert into ${sql.table(table)} (${names})
      select ${sql.join([sql`u.*`, ...fixed])} from unnest(${sql.join(arrays)}) as u`.execute(conn);
    return;
  }
  const select = [...columns.map((_, i) => sql.raw(`value ->> ${i}`)), ...constants.map(([, , v]) => sql`${v}`)];
  await sql`insert into ${sql.table(table)} (${names})
    select ${sql.join(select)} from json_each(${JSON.stringify(rows)})`.execute(conn);
}
