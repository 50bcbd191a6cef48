import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs a read outside Kysely's executor, or answers undefined when it may not. Embedded SQLite
 * answers at once; PostgreSQL answers with a promise.
 */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | Promise<unknown[]> | undefined;

const readers = new WeakMap<Kysely<Database>, DirectReader>();

/**
 * Registers how `kysely` (a database's own instance, never a transaction's) may read without its
 * executor. On embedded SQLite, Kysely's connection mutex and promise chain cost more than a point
 * read itself on every request (the token lookup, a trade block by id). On PostgreSQL the read runs
 * as a named prepared statement: planning a join of four tables costs several times its execution.
 */
export function allowDirectReads(kysely: Kysely<Database>, reader: DirectReader): void {
  readers.set(kysely, reader);
}

/** The rows of a compiled read run directly, or undefined when `db` must go through Kysely. */
export function readDirectly(db: Kysely<Database>, sql: string, parameters: readonly unknown[]): unknown[] | Promise<unknown[]> | undefined {
  return readers.get(db)?.(sql, parameters);
}
