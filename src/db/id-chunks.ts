import type { Kysely } from 'kysely';
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
