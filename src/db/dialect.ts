import { type Kysely, PostgresAdapter } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The one answer to "which database is this?". It reads the Kysely instance itself, so a
 * repository that holds only its Kysely (or a transaction of it) asks the same question the same
 * way as code that holds the whole `Db`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const isPostgres = (db: Kysely<any>): boolean => dialectOf(db) === 'postgres';

/**
 * Whether reads in a write should take row locks (`for update`). PostgreSQL runs concurrent
 * transactions at read committed, so a read-then-write of a record (a set aside depleted by two
 * transactions at once, a plan or model rewritten twice) must lock it; SQLite has one writer at a
 * time and no `for update`.
 */
export const locksRows = isPostgres;
