import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/database.js';
import type { Clock } from '../../src/shared/clock.js';
import type { TestDatabase } from './databases.js';
import { createTestFirm, type TestFirm } from './firm.js';

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  firm: TestFirm;
  otherFirm: TestFirm;
  /** `Authorization` header value of a platform token for the given user of `firm` (or `otherFirm`). */
  session(user: keyof TestFirm['users'], of?: 'firm' | 'otherFirm'): Promise<string>;
}

/** Builds the real app on a fresh database with two firms; call inside a describe block. */
export function useTestApp(
  database: TestDatabase,
  options: { clock?: Clock; env?: Record<string, string>; logStream?: { write(line: string): void } } = {},
): TestContext {
  const context = {} as TestContext;
  let drop: () => Promise<void> = async () => undefined;
  const sessions = new Map<string, string>();
  beforeAll(async () => {
    const opened = await database.open();
    drop = opened.drop;
    context.db = opened.db;
    context.firm = await createTestFirm(opened.db.kysely, 'alpha');
    context.otherFirm = await createTestFirm(opened.db.kysely, 'beta');
    // pg-boss's tables go in a schema beside the suite's, dropped with it.
    const jobs = opened.db.schema ? { JOB_SCHEMA: `${opened.db.schema}_jobs` } : {};
    const config = loadConfig({ LOG_LEVEL: 'silent', VALUATION_TIME: 'off', ...jobs, ...options.env }, { database: database.config });
    context.app = await buildApp({ config, db: opened.db, clock: options.clock, logStream: options.logStream });
    await context.app.ready();
    context.session = async (user, of = 'firm') => {
      const key = `${of}:${user}`;
      const cached = sessions.get(key);
      if (cached) return cached;
      const firm = context[of];
      const credentials = firm.users[user];
      const response = await context.app.inject({
        method: 'GET',
        url: '/api/v1/security/token',
        headers: {
          authorization: `Basic ${Buffer.from(`${credentials.userName}:${credentials.password}`).toString('base64')}`,
          client_id: String(firm.clientId),
          client_secret: firm.clientSecret,
        },
      });
      if (response.statusCode !== 200) throw new Error(`login of ${key} failed: ${response.body}`);
      const header = `Session ${response.json().access_token}`;
      sessions.set(key, header);
      return header;
    };
  });
  afterAll(async () => {
    await context.app?.close();
    await drop();
  });
  return context;
}
