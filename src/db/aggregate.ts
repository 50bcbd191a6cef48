import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';

/** What joins a group's values (`],[` the lots of positions, db/position-lots.ts). */
export type Separator = ',' | ' ' | '],[';

/**
 * The values of a group joined into one text (null for a group of nulls): `group_concat` on SQLite,
 * `string_agg` on PostgreSQL. In the database's order, or by `orderBy` when given.
 * Reading a group as one row instead of one row a value is what makes the packed reads cheap
 * (docs/decisions/holding-values-one-row.md).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations pass their untyped Kysely
export function joinedText(db: Kysely<any>, value: RawBuilder<unknown>, separator: Separator, orderBy?: RawBuilder<unknown>): RawBuilder<string> {
  const by = orderBy === undefined ? sql`${sql.lit(separator)}` : sql`${sql.lit(separator)} order by ${orderBy}`;
  return isPostgres(db) ? sql<string>`string_agg(${value}, ${by})` : sql<string>`group_concat(${value}, ${by})`;
}

/** The group's values as the text of one flat JSON array; `value` renders each element as JSON (numbers, quoted text). */
export function jsonArrayText(db: Kysely<Database>, value: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`'[' || ${joinedText(db, value, ',')} || ']'`;
}
