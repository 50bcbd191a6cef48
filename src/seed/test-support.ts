import pg from 'pg';
import { type Db, migrateToLatest, openDatabase } from '../db/database.js';

/**
 * Opens migrated databases for the seed and import tests: SQLite in memory always, PostgreSQL
 * in a fresh random schema when reachable. (Superseded once test/support/ offers the same.)
 */
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDb {
  db: Db;
  dispose(): Promise<void>;
}

export async function openSqlite(): Promise<TestDb> {
  const db = openDatabase({ dialect: 'sqlite', file: ':memory:' });
  await migrateToLatest(db);
  return { db, dispose: () => db.close() };
}

let reachable: Promise<string | null> | undefined;

/** null when PostgreSQL answers, else the reason to skip; asked once per test file. */
export function postgresUnavailable(): Promise<string | null> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return null;
    } catch (error) {
      return `PostgreSQL at ${PG_URL} unreachable: ${(error as Error).message}`;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

/**
 * Creates `schema` with Kysely's migration tables already inside it. migrateToLatest does not
 * pass the schema to the Migrator, which then finds another schema's kysely_migration table and
 * skips creating its own; pre-creating them keeps parallel test schemas apart.
 */
export async function createIsolatedSchema(admin: pg.Client, schema: string): Promise<void> {
  await admin.query(`create schema ${schema}`);
  await admin.query(`create table ${schema}.kysely_migration (name varchar(255) primary key, timestamp varchar(255) not null)`);
  await admin.query(
    `create table ${schema}.kysely_migration_lock (id varchar(255) primary key, is_locked integer not null default 0)`,
  );
}

export async function openPostgres(): Promise<TestDb> {
  const schema = `t_seed_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await createIsolatedSchema(admin, schema);
  const db = openDatabase({ dialect: 'postgres', url: PG_URL, poolSize: 4 }, { schema });
  try {
    await migrateToLatest(db);
  } catch (error) {
    // The suite never gets a handle to dispose of, so clean up here.
    await db.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
    throw error;
  }
  return {
    db,
    async dispose() {
      await db.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

/** The dialects to run a suite on, with a skip reason for PostgreSQL when it is down. */
export async function dialects(): Promise<{ name: 'sqlite' | 'postgres'; skip: string | null; open: () => Promise<TestDb> }[]> {
  const skip = await postgresUnavailable();
  if (skip) console.warn(`skipping the PostgreSQL half: ${skip}`);
  return [
    { name: 'sqlite', skip: null, open: openSqlite },
    { name: 'postgres', skip, open: openPostgres },
  ];
}
