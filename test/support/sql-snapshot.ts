import { type Compilable, type CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { type BulkWrite, bulkInsertQueries } from '../../src/db/bulk-insert.js';
import { copyStatement, copyText } from '../../src/db/copy-rows.js';
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
export function sqlText(query: Compilable<unknown> | CompiledQuery): string {
  const { sql, parameters } = 'compile' in query ? query.compile() : query;
  return `${sql}\n-- parameters: ${JSON.stringify(parameters)}\n`;
}

/**
 * What a bulk write sends for `dialect`: the insert statements bulkInsert runs (SQLite: one per
 * batch of a power-of-two size), and for a write through copyRows on PostgreSQL also the COPY
 * statement and the text it streams (COPY from 16 rows; fewer go through the insert).
 */
export function bulkWriteText<T extends keyof Database>(dialect: Dialect, write: BulkWrite<T>, via: 'insert' | 'copy' = 'insert'): string {
  const inserts = [...bulkInsertQueries(compilerOf(dialect), write)].map(sqlText).join('');
  if (via === 'insert' || dialect === 'sqlite') return inserts;
  const stream = copyText(write.rows, write.columns.length, write.constants.map(([, , v]) => v));
  return `${copyStatement(write.table, write.columns, write.constants)}\n-- stream:\n${stream.toString('utf8')}-- fewer rows than COPY is worth:\n${inserts}`;
}
