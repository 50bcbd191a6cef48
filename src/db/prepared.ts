import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { readDirectly } from './direct-reads.js';
import type { Database } from './schema.js';

class Argument {
  constructor(readonly index: number) {}

  /** How a checked-in copy of the SQL shows the argument (`*.sql.test.ts`). */
  toJSON() {
    return `<argument ${this.index}>`;
  }
}

/**
 * A hot query of fixed shape, built and compiled once per dialect: Kysely's builder and compiler
 * cost more than an indexed point read. The query is built with markers in place of the
 * arguments; each call swaps the markers for the real values. Only for queries whose SQL does not
 * depend on the values (no `in` lists, no optional clauses). Outside a transaction a read runs
 * directly (direct-reads.ts): on the SQLite statement, or as a PostgreSQL prepared statement.
 */
export function preparedQuery<A extends unknown[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>) {
  // Keyed by the dialect's adapter class: placeholders and quoting differ between dialects.
  const compiled = new Map<unknown, CompiledQuery<R>>();
  /** The query as the dialect of `db` compiles it, markers in place of its `count` arguments; built once. */
  const compile = (db: Kysely<Database>, count: number): CompiledQuery<R> => {
    const dialect = db.getExecutor().adapter.constructor;
    let query = compiled.get(dialect);
    if (!query) {
      query = build(db, ...(Array.from({ length: count }, (_, i) => new Argument(i)) as A)).compile();
      compiled.set(dialect, query);
    }
    return query;
  };
  const run = async (db: Kysely<Database>, ...args: A): Promise<QueryResult<R>> => {
    const query = compile(db, args.length);
    const parameters = query.parameters.map((p) => (p instanceof Argument ? args[p.index] : p));
    return runCompiled(db, { ...query, parameters });
  };
  return Object.assign(run, { compile });
}

/**
 * Runs a read built for one call the way preparedQuery runs its reads: outside a transaction on
 * the SQLite statement, or as a PostgreSQL prepared statement. Only for reads whose text takes few
 * shapes (each distinct text is prepared once per connection and kept): a hot read of one entity,
 * not one whose `in` list grows with a batch.
 */
export async function readPrepared<R>(db: Kysely<Database>, query: Compilable<R>): Promise<R[]> {
  return (await runCompiled(db, query.compile())).rows;
}

/** A compiled query, a read run directly where `db` allows it (direct-reads.ts), else through Kysely. */
async function runCompiled<R>(db: Kysely<Database>, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  const rows = query.query.kind === 'SelectQueryNode' ? readDirectly(db, query.sql, query.parameters) : undefined;
  return rows ? { rows: (await rows) as R[] } : db.executeQuery<R>(query);
}
