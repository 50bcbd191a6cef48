import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type MigrationResultSet, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { migrationProvider } from './migrations/index.js';
import { type Dialect, dialectOf } from './dialect.js';
import type { Database } from './schema.js';
import { type RowStatement, objectRows } from './sqlite-rows.js';
import { allowDirectReads } from './direct-reads.js';
import { ObservedDialect } from './observed-dialect.js';

// bigint columns hold cents, micros and ids, all far below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type { Dialect } from './dialect.js';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema in use when not the default. */
  schema?: string;
  /**
   * SQLite: a number that changes whenever another connection (another process) commits to the
   * database file, and only then (the pragma data_version); what this process cached may be stale.
   */
  dataVersion?: () => number;
  /**
   * Moves on whenever this process writes (SQLite: and whenever another process commits to the
   * file); undefined while a write may be half done (an open SQLite transaction). Read without a
   * query, for src/db/data-changes.ts.
   */
  writeStamp(): string | undefined;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL schema to use (tests isolate each suite in its own). */
  schema?: string;
  /** Told of connection errors the pool sees outside any query (an idle connection terminated). */
  onConnectionError?: (error: Error) => void;
}

/** A request waits at most this long for a connection, so a database outage answers 503 instead of hanging. */
const CONNECT_TIMEOUT_MS = 5000;

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every SQLite statement afresh; preparing costs more than running a point
 * query. Statements are reused by their SQL text (queries differ in parameters, not text). A
 * statement still iterating is busy and gets a fresh one.
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const cache = new Map<string, RowStatement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const cached = cache.get(text);
      if (cached && !cached.busy) return cached;
      const statement = objectRows(sqlite.prepare(text));
      if (!cached) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Db {
  if (config.dialect === 'sqlite') {
    if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
    const sqlite = new SqliteDatabase(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // WAL makes NORMAL durable across application crashes; only an OS crash can lose the last commits.
    sqlite.pragma('synchronous = NORMAL');
    const statements = withStatementCache(sqlite);
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
    // Only while no transaction is open on the one connection: a read then would see (and run
    // inside) another request's uncommitted transaction. Kysely's path waits its turn instead.
    allowDirectReads(kysely, (text, parameters) => (sqlite.open && !sqlite.inTransaction ? statements.prepare(text).all(parameters) : undefined));
    const dataVersion = onceARun(sqlite.prepare('pragma data_version').pluck());
    // Rows this connection changed since it opened, rolled back or not: any write moves it on.
    const totalChanges = sqlite.prepare('select total_changes()').pluck();
    return {
      kysely,
      dialect: dialectOf(kysely),
      dataVersion: () => (sqlite.open ? dataVersion() : 0),
      writeStamp: () => (sqlite.open && !sqlite.inTransaction ? `${dataVersion()}:${totalChanges.get() as number}` : undefined),
      close: () => kysely.destroy(),
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // Without a listener, an idle connection terminated by the server (failover, restart, a DBA's
  // pg_terminate_backend) is an unhandled 'error' event and ends the process. The pool drops the
  // broken connection itself and opens a fresh one on the next query.
  const report = options.onConnectionError ?? reportConnectionError;
  pool.on('error', report);
  // A connection checked out of the pool (a transaction between two statements) reports its loss
  // on the client itself; the query in hand then fails, and the pool discards the client.
  pool.on('connect', (client) => client.on('error', report));
  const observed = new ObservedDialect(new PostgresDialect({ pool }));
  const kysely = new Kysely<Database>({ dialect: observed });
  allowDirectReads(kysely, namedStatements(pool));
  return { kysely, dialect: dialectOf(kysely), schema: options.schema, writeStamp: () => String(observed.writes()), close: () => kysely.destroy() };
}

/**
 * `pragma data_version` (whether another process committed to the file), read once per
 * synchronous run of the process: a request's hooks ask twice in one run (the token cache, then
 * the response cache's stamp), and a commit of another process between two reads of the same run
 * could not be told from one just after it. It costs about 2 µs, a share of a cached answer's
 * whole request; the next run (any promise continuation) reads it again.
 */
function onceARun(statement: { get(): unknown }): () => number {
  let version: number | undefined;
  return () => {
    if (version === undefined) {
      version = statement.get() as number;
      queueMicrotask(() => void (version = undefined));
    }
    return version;
  };
}

/**
 * Hot reads (preparedQuery) as named prepared statements: each pooled connection plans one once,
 * and after a few runs PostgreSQL keeps a generic plan, where planning a join of four tables cost
 * several times its execution. A statement the server refuses to reuse (a column added under a
 * running process: "cached plan must not change result type") or no longer knows (a pooler in
 * transaction mode handed the session another server connection) runs unnamed from then on.
 */
const NOT_REUSABLE = new Set(['0A000', '26000']);

function namedStatements(pool: pg.Pool) {
  const unnamed = new Set<string>();
  return async (text: string, parameters: readonly unknown[]): Promise<unknown[]> => {
    const values = [...parameters];
    if (unnamed.has(text)) return (await pool.query<Record<string, unknown>>(text, values)).rows;
    const name = `q${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    try {
      return (await pool.query<Record<string, unknown>>({ name, text, values })).rows;
    } catch (error) {
      if (!NOT_REUSABLE.has((error as { code?: string }).code ?? '')) throw error;
      unnamed.add(text);
      return (await pool.query<Record<string, unknown>>(text, values)).rows;
    }
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  // Kysely looks for its bookkeeping tables across schemas; pin them to ours so that databases in
  // sibling schemas (parallel test suites, several firms' installs) never see each other's.
  // A schema chosen in the URL (`options=-c search_path=…`) is pinned the same way, by asking the
  // connection which schema it writes to.
  const schema = db.schema ?? (db.dialect === 'postgres' ? (await sql<{ name: string }>`select current_schema() as name`.execute(db.kysely)).rows[0]?.name : undefined);
  const migrator = new Migrator({ db: db.kysely, provider: migrationProvider, migrationTableSchema: schema });
  const { error, results } = await retryBookkeeping(() => migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : error === undefined ? 'unknown error' : JSON.stringify(error);
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`.replace('  ', ' '));
  }
  return (results ?? []).map((r) => r.migrationName);
}

/**
 * Before it runs a migration, Kysely looks for its bookkeeping tables by listing the columns of
 * every table in every schema of the database; on PostgreSQL a schema dropped at that moment by
 * someone else (another install's, a parallel test suite's) fails the listing ("column … does not
 * exist"). Nothing has been migrated then (no results), so that step is tried again.
 */
export async function retryBookkeeping(migrate: () => Promise<MigrationResultSet>, attempts = 5): Promise<MigrationResultSet> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await migrate();
    if (!outcome.error || outcome.results !== undefined || attempt >= attempts) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}

function reportConnectionError(error: Error) {
  console.error(JSON.stringify({ level: 50, time: Date.now(), msg: 'database connection lost; the pool reconnects on the next query', err: error.message }));
}

/** Whether the database answers within `timeoutMs` (health checks must not hang on an outage). */
export async function isReachable(db: Db, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = sql`select 1`.execute(db.kysely).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
