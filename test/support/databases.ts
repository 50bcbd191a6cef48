import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../src/db/database.js';
import type { DatabaseConfig } from '../../src/config.js';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  config: DatabaseConfig;
  /** Opens a fresh, migrated, empty database; `drop` removes it. */
  open(): Promise<{ db: Db; drop: () => Promise<void> }>;
}

function sqlite(): TestDatabase {
  const config: DatabaseConfig = { dialect: 'sqlite', file: ':memory:' };
  return {
    name: 'sqlite',
    config,
    async open() {
      const db = openDatabase(config);
      await migrateToLatest(db);
      return { db, drop: () => db.close() };
    },
  };
}

function postgres(url: string): TestDatabase {
  const config: DatabaseConfig = { dialect: 'postgres', url, poolSize: 4 };
  return {
    name: 'postgres',
    config,
    async open() {
      // Each suite gets its own schema so that test files run in parallel on one database.
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const db = openDatabase(config, { schema });
      await migrateToLatest(db);
      return {
        db,
        async drop() {
          await db.close();
          const cleanup = new pg.Client({ connectionString: url });
          await cleanup.connect();
          await cleanup.query(`drop schema ${schema} cascade`);
          // pg-boss's schema beside it (test/support/app.ts sets JOB_SCHEMA so).
          await cleanup.query(`drop schema if exists ${schema}_jobs cascade`);
          await cleanup.end();
        },
      };
    },
  };
}

export function testDatabases(): TestDatabase[] {
  const url = inject('postgresUrl');
  return url ? [sqlite(), postgres(url)] : [sqlite()];
}

/** Runs the same suite once per database; PostgreSQL is skipped (reason printed once) when unreachable. */
export function describeEachDatabase(title: string, suite: (database: TestDatabase) => void) {
  for (const database of testDatabases()) {
    describe(`${title} [${database.name}]`, () => suite(database));
  }
}

// Free of vitest, so the fuzz campaign (scripts/fuzz.ts) can use it outside a test run.
export { tablesOf } from './tables.js';
