/**
 * The databases a bench runs on, set up and taken down alike by every bench: a SQLite file in a
 * temporary folder, and a PostgreSQL schema of its own (the job queue's schema beside it), each
 * removed afterwards whatever the bench did.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.js';

/** The PostgreSQL a bench uses (TEST_DATABASE_URL, else DATABASE_URL); without one it says it skips. */
export function benchPostgresUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) console.log('postgres: skipped (set TEST_DATABASE_URL)');
  return url;
}

/** A migrated SQLite file in a fresh folder under DATA_DIR (or the system's temporary folder). */
export async function withSqliteFile<T>(prefix: string, work: (db: Db, file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(process.env.DATA_DIR ?? tmpdir(), `${prefix}-`));
  const file = join(dir, 'bench.sqlite');
  const db = openDatabase({ dialect: 'sqlite', file });
  try {
    await migrateToLatest(db);
    return await work(db, file);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface BenchSchema {
  db: Db;
  schema: string;
  /** The URL with the schema as its search path, for a server or worker the bench starts. */
  scopedUrl: string;
  /** The admin connection, for what a bench does outside the schema. */
  admin: pg.Client;
}

/**
 * A schema `name` created for the work and dropped after it, with `<name>_jobs` (pg-boss's); the
 * database opened on it with `poolSize` connections, migrated unless `migrate` is false (a bench
 * that migrates inside what it measures). With `keep` the schema may already exist and is left in
 * place afterwards, for a bench that reuses a seeded firm from run to run.
 */
export async function withPostgresSchema<T>(url: string, name: string, work: (s: BenchSchema) => Promise<T>, options: { poolSize?: number; migrate?: boolean; keep?: boolean } = {}): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(options.keep ? `create schema if not exists ${name}` : `create schema ${name}`);
  const db = openDatabase({ dialect: 'postgres', url, poolSize: options.poolSize ?? 10 }, { schema: name });
  try {
    if (options.migrate ?? true) await migrateToLatest(db);
    const scoped = new URL(url);
    scoped.searchParams.set('options', `-c search_path=${name}`);
    return await work({ db, schema: name, scopedUrl: scoped.toString(), admin });
  } finally {
    await db.close();
    if (!options.keep) {
      await admin.query(`drop schema if exists ${name}_jobs cascade`);
      await admin.query(`drop schema ${name} cascade`);
    }
    await admin.end();
  }
}
