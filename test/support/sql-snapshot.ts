import { type Compilable, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { Dialect } from '../../src/db/dialect.js';
import type { Database } from '../../src/db/schema.js';

/** A Kysely of `dialect` that compiles queries and never connects: for checking SQL in as text. */
export function compilerOf(dialect: Dialect): Kysely<Database> {
  const pg = dialect === 'postgres';
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (pg ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
  });
}

/** The statement's SQL as the dialect compiles it, and its parameters. */
export function sqlText(query: Compilable<unknown>): string {
  const { sql, parameters } = query.compile();
  return `${sql}\n-- parameters: ${JSON.stringify(parameters)}\n`;
}
