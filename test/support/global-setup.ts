import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

/** Probes PostgreSQL once for the whole run; suites read the outcome through `inject`. */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    project.provide('postgresUrl', url);
    console.warn(`database suites run on SQLite and on PostgreSQL (${url.replace(/\/\/[^@]*@/, '//')})`);
  } catch (error) {
    if (process.env.WEALTH_REQUIRE_POSTGRES === '1') {
      throw new Error(`PostgreSQL is required here (WEALTH_REQUIRE_POSTGRES=1) but ${url} is not reachable: ${(error as Error).message}`, { cause: error });
    }
    project.provide('postgresUrl', null);
    console.warn(`PostgreSQL half of the database suites skipped: ${url} is not reachable (${(error as Error).message}); set TEST_DATABASE_URL`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
