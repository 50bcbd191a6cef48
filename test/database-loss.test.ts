import { createServer, type Server, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.js';
import { seedDemoFirm } from '../src/seed/demo.js';
import { describeEachDatabase } from './support/databases.js';

const ACCOUNTS = 10_000;
const CHUNK = 200;

/**
 * A TCP relay in front of PostgreSQL: `down()` cuts every connection through it and refuses new
 * ones (the database host gone: a failover, a network partition); `up()` lets them through again.
 */
async function relay(target: URL) {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = new Socket();
    upstream.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      // Either side going (an end or a reset) takes the other with it, as a real connection would:
      // pipe() passes on an end but not an error, and the service would wait on a silent socket.
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    down() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    up() {
      open = true;
    },
    // server.close() waits for every relayed connection to end: end them first.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

/**
 * Terminating the service's PostgreSQL connections (twice, during a running
 * 10,000-account rebalance) and taking the database away for a while: the process stays up,
 * health says 503 while the database is away, requests get a 503 problem, and the batch completes
 * by itself with every trade stored once.
 */
describeEachDatabase('database connection loss', (database) => {
  if (database.config.dialect !== 'postgres') {
    it.skip('needs PostgreSQL: SQLite is a file inside the process');
    return;
  }
  const adminUrl = database.config.url;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const applicationName = `wealth-${schema}`;
  let proxy: Awaited<ReturnType<typeof relay>>;
  let db: Db;
  let app: FastifyInstance;
  let authorization = '';
  let accountIds: number[] = [];

  /** Where the test is, on stderr: a fault test that stalls must say at which step. */
  const step = (what: string) => console.warn(`database-loss: ${new Date().toISOString()} ${what}`);
  const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000, statement_timeout: 10_000 });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  /** What a DBA or a failover does: every backend of this service is terminated. */
  const terminateBackends = () =>
    admin(async (client) => {
      const { rows } = await client.query<{ terminated: boolean }>(
        'select pg_terminate_backend(pid) as terminated from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
        [applicationName],
      );
      return rows.length;
    });

  beforeAll(async () => {
    proxy = await relay(new URL(adminUrl));
    await admin((client) => client.query(`create schema ${schema}`));
    const url = new URL(adminUrl);
    url.port = String(proxy.port);
    url.searchParams.set('application_name', applicationName);
    db = openDatabase({ dialect: 'postgres', url: url.toString(), poolSize: 4 }, { schema });
    await migrateToLatest(db);
    const credentials = await seedDemoFirm(db, { households: 5_800, seed: 3, firmCode: 'OUTAGE' });
    const rows = await db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', credentials.firm.id).orderBy('id').limit(ACCOUNTS).execute();
    accountIds = rows.map((r) => r.id);
    const config = loadConfig(
      { LOG_LEVEL: 'silent', JOB_SCHEMA: `${schema}_jobs`, REBALANCE_CHUNK_SIZE: String(CHUNK), CHUNK_TIMEOUT_SECONDS: '10' },
      { database: { dialect: 'postgres', url: url.toString(), poolSize: 4 } },
    );
    app = await buildApp({ config, db });
    await app.ready();
    const api = credentials.users.find((u) => u.kind === 'api')!;
    const login = await app.inject({
      url: '/api/v1/security/token',
      headers: { authorization: `Basic ${Buffer.from(`${api.userName}:${api.password}`).toString('base64')}`, client_id: String(credentials.partner.clientId), client_secret: credentials.partner.clientSecret },
    });
    authorization = `Session ${login.json().access_token}`;
  }, 180_000);

  afterAll(async () => {
    step('closing');
    proxy?.up();
    await app?.close();
    step('app closed');
    await db?.close();
    await proxy?.close();
    step('relay closed');
    await admin(async (client) => {
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.query(`drop schema if exists ${schema}_jobs cascade`);
    });
    step('schemas dropped');
    // Closing waits for pg-boss's graceful stop (up to 30 s) on a loaded machine.
  }, 150_000);

  it('stays up, answers 503 while the database is away, and finishes the batch once', async () => {
    expect(accountIds.length).toBe(ACCOUNTS);
    const started = await app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', headers: { authorization }, payload: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: accountIds } });
    expect(started.statusCode).toBe(200);
    const batchId = started.json<number>();
    /** The status, or undefined while the database is away (the service answers 503 then). */
    const status = async () => {
      const response = await app.inject({ url: `/api/Trading/TradeGenerationStatus/${batchId}`, headers: { authorization } });
      if (response.statusCode === 503) return undefined;
      expect(response.statusCode).toBe(200);
      return response.json<{ itemsCompleted: number; isDone: boolean; status: string; tradeInstanceId: number; totalItems: number }>();
    };
    const until = async (done: (s: NonNullable<Awaited<ReturnType<typeof status>>>) => boolean, tries = 2400) => {
      for (let i = 0; i < tries; i++) {
        const s = await status();
        if (s && done(s)) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the batch did not get there');
    };

    step('started');
    await until((s) => s.itemsCompleted >= ACCOUNTS / 4);
    step('a quarter done: terminating the backends');
    expect(await terminateBackends()).toBeGreaterThan(0);

    // The database host goes away for a while.
    step('taking the database away');
    proxy.down();
    const health = await app.inject({ url: '/api/healthz' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'unavailable', database: 'down' });
    const read = await app.inject({ url: '/api/v1/Portfolio/Accounts?$top=1', headers: { authorization } });
    expect(read.statusCode).toBe(503);
    expect(read.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(read.json()).toMatchObject({ status: 503, code: 'database_unavailable' });
    await new Promise((r) => setTimeout(r, 1500));
    proxy.up();
    step('database back');
    const healthAfter = await app.inject({ url: '/api/healthz' });
    expect(healthAfter.statusCode).toBe(200);

    const midway = await until((s) => s.itemsCompleted >= ACCOUNTS / 2 || s.isDone);
    step('half done: terminating the backends again');
    if (!midway.isDone) expect(await terminateBackends()).toBeGreaterThan(0);

    const after = await until((s) => s.isDone, 3600);
    step('batch done');
    expect(after).toMatchObject({ isDone: true, totalItems: ACCOUNTS, itemsCompleted: ACCOUNTS });
    const duplicates = await sql<{ n: number }>`select count(*) as n from (select account_id, product_id from trades where trade_instance_id = ${after.tradeInstanceId} group by account_id, product_id having count(*) > 1) d`.execute(db.kysely);
    expect(Number(duplicates.rows[0]!.n)).toBe(0);
    const chunks = await db.kysely.selectFrom('batch_chunks').select(['done_at']).where('batch_id', '=', batchId).execute();
    expect(chunks).toHaveLength(ACCOUNTS / CHUNK);
    expect(chunks.every((c) => c.done_at !== null)).toBe(true);
    const notes = await db.kysely.selectFrom('notifications').select('subject').where('subject', 'like', `Rebalance batch ${batchId} %`).execute();
    expect(notes).toEqual([{ subject: `Rebalance batch ${batchId} ${after.status}` }]);
  }, 300_000);
});
