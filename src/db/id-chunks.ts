import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { type Dialect, dialectOf } from './dialect.js';

/**
 * Ids bound in one `in (…)` list, per dialect: the one place this limit is stated. A list of ids
 * may hold every account of a firm or of a batch (a million), far past what one statement may
 * bind: SQLite binds at most 32,766 values a statement (SQLITE_MAX_VARIABLE_NUMBER), PostgreSQL
 * 65,535 parameters (the wire protocol's 16-bit count). Each limit leaves room for the
 * statement's other parameters.
 */
export const IDS_PER_LIST: Readonly<Record<Dialect, number>> = { sqlite: 10_000, postgres: 30_000 };

/** `items` in consecutive slices of at most `size` (rows of a multi-row insert, for one). */
export function slices<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `ids` in slices that fit one `in (…)` list of `db`'s dialect. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function idChunks<T>(db: Kysely<any>, ids: readonly T[]): T[][] {
  return slices(ids, IDS_PER_LIST[dialectOf(db)]);
}

/** Reads `ids` a list at a time and returns every row, in slice order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readByIds<T, R>(db: Kysely<any>, ids: readonly T[], read: (slice: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const slice of idChunks(db, ids)) out.push(...(await read(slice)));
  return out;
}

/**
 * `ids` for one `in (…)` list of a read whose list length varies from call to call, padded on
 * SQLite (by repeating the last id, which selects nothing more) to one of eight lengths per
 * doubling. SQLite's statements are cached by their text (db/database.ts), and an `in` list of n
 * ids is a text of its own: the chunks of a tax-aware run hold whole households, so no two have
 * the same number of accounts, and each chunk prepared each of its reads afresh, a millisecond
 * apiece for lists of thousands. Padding adds at most an eighth to a list. PostgreSQL does not
 * keep these statements, so its lists are left as they are (inIds binds them as one array).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function paddedIds<T>(db: Kysely<any>, ids: readonly T[]): readonly T[] {
  const n = ids.length;
  if (n <= 8 || dialectOf(db) === 'postgres') return ids;
  const step = 2 ** (Math.floor(Math.log2(n)) - 3);
  const length = Math.ceil(n / step) * step;
  if (length === n) return ids;
  const out = ids.slice();
  const last = ids[n - 1] as T;
  for (let i = n; i < length; i++) out.push(last);
  return out;
}

/**
 * `column` is one of `ids`, for a read whose list varies from call to call (a chunk's accounts, their
 * households): on SQLite an `in (…)` list padded by paddedIds; on PostgreSQL one array parameter,
 * `= any($1::int4[])`. As a list of thousands of parameters, each statement cost PostgreSQL a
 * parse and bind of every parameter, and its client as many to send: a chunk of 2,500 accounts
 * spent 25–35 ms of the database's time binding and parsing its reads' lists, a tenth of what its
 * reads cost. The planner sees the array's values all the same (an unnamed statement is planned
 * with its parameters). `ids` are whole numbers of `int4`, as every id column is.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function inIds(db: Kysely<any>, column: string, ids: readonly number[]): RawBuilder<SqlBool> {
  if (dialectOf(db) === 'postgres') return sql<SqlBool>`${sql.ref(column)} = any(${sql.val(ids)}::int4[])`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(paddedIds(db, ids))})`;
}
