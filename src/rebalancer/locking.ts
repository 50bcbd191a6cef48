import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Whether reads in a write should take row locks (`for update`). PostgreSQL runs concurrent
 * transactions at read committed, so a read-then-write of a record (a set aside depleted by two
 * transactions at once, a plan or model rewritten twice) must lock it; SQLite has one writer at a
 * time and no `for update`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const locksRows = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
