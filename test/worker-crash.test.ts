import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoFirm } from '../src/seed/demo.js';
import { useTestApp } from './support/app.js';
import { describeEachDatabase } from './support/databases.js';
import { SYSTEM_SLEEVE_TYPES } from '../src/book/sleeves/schemas.js';

const root = join(import.meta.dirname, '..');
const ACCOUNTS = 10_000;
const CHUNK = 200;

/**
 * A PostgreSQL worker killed with SIGKILL in the middle of a 10,000-account batch; after
 * another worker starts, the batch completes with every account's trades stored exactly once.
 */
describeEachDatabase('a worker killed mid-batch', (database) => {
  if (database.config.dialect !== 'postgres') {
    it.skip('needs PostgreSQL: on SQLite chunks run inside the server process');
    return;
  }
  const env = { WORKER_IN_SERVER: 'false', REBALANCE_CHUNK_SIZE: String(CHUNK), CHUNK_TIMEOUT_SECONDS: '4' };
  const t = useTestApp(database, { env });
  const workers: ChildProcess[] = [];
  let authorization = '';
  let accountIds: number[] = [];

  const worker = () => {
    const url = new URL(database.config.dialect === 'postgres' ? database.config.url : '');
    url.searchParams.set('options', `-c search_path=${t.db.schema}`);
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli.ts'), 'worker'], {
      cwd: root,
      env: { ...process.env, ...env, DATABASE_URL: url.toString(), JOB_SCHEMA: `${t.db.schema}_jobs`, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    const credentials = await seedDemoFirm(t.db, { households: 5_800, seed: 3, firmCode: 'CRASH' });
    const rows = await t.db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', credentials.firm.id).orderBy('id').limit(ACCOUNTS).execute();
    accountIds = rows.map((r) => r.id);
    const api = credentials.users.find((u) => u.kind === 'api')!;
    const login = await t.app.inject({
      url: '/api/v1/security/token',
      headers: { authorization: `Basic ${Buffer.from(`${api.userName}:${api.password}`).toString('base64')}`, client_id: String(credentials.partner.clientId), client_secret: credentials.partner.clientSecret },
    });
    authorization = `Session ${login.json().access_token}`;
  }, 120_000);
  afterAll(() => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  });

  it('completes after a restart with every account\'s trades stored exactly once', async () => {
    expect(accountIds.length).toBe(ACCOUNTS);
    const first = worker();
    const started = await t.app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', headers: { authorization }, payload: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: accountIds } });
    expect(started.statusCode).toBe(200);
    const batchId = started.json<number>();
    const status = async () => (await t.app.inject({ url: `/api/Trading/TradeGenerationStatus/${batchId}`, headers: { authorization } })).json();

    // Kill the first worker once it is well into the batch.
    let before = await status();
    for (let i = 0; i < 1200 && before.itemsCompleted < ACCOUNTS / 4; i++) {
      await new Promise((r) => setTimeout(r, 50));
      before = await status();
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = (await status()).itemsCompleted;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(ACCOUNTS);

    worker();
    let after = await status();
    for (let i = 0; i < 1800 && !after.isDone; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await status();
    }
    // The demo book leaves a few accounts without a model on purpose: those, and only those, are
    // errors; a model-less custodial sleeve is a warning.
    const withoutModel = await t.db.kysely
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', 'in', accountIds)
      .where('model_id', 'is', null)
      .where((eb) => eb.or([eb('sleeve_type', 'is', null), eb('sleeve_type', 'not in', [...SYSTEM_SLEEVE_TYPES])]))
      .executeTakeFirstOrThrow();
    const errors = Number(withoutModel.n);
    expect(after).toMatchObject({ status: errors > 0 ? 'Failed' : 'Complete', isDone: true, totalItems: ACCOUNTS, itemsCompleted: ACCOUNTS, errorCount: errors });

    const duplicates = await sql<{ n: number }>`select count(*) as n from (select account_id, product_id from trades where trade_instance_id = ${after.tradeInstanceId} group by account_id, product_id having count(*) > 1) d`.execute(t.db.kysely);
    expect(Number(duplicates.rows[0]!.n)).toBe(0);
    const chunks = await t.db.kysely.selectFrom('batch_chunks').select(['done_at']).where('batch_id', '=', batchId).execute();
    expect(chunks).toHaveLength(ACCOUNTS / CHUNK);
    expect(chunks.every((c) => c.done_at !== null)).toBe(true);
    // Every account the engine trades has its trades once: the messages of each account appear once too.
    const repeatedMessages = await sql<{ n: number }>`select count(*) as n from (select account_id, code from batch_messages where batch_id = ${batchId} and code <> 'TRADE_DROPPED' group by account_id, code, message having count(*) > 1) d`.execute(t.db.kysely);
    expect(Number(repeatedMessages.rows[0]!.n)).toBe(0);
    const traded = await sql<{ n: number }>`select count(distinct account_id) as n from trades where trade_instance_id = ${after.tradeInstanceId}`.execute(t.db.kysely);
    expect(Number(traded.rows[0]!.n)).toBeGreaterThan(ACCOUNTS / 10);
    // The batch's end is notified once, in the transaction of whichever worker ended it.
    const notes = await t.db.kysely.selectFrom('notifications').select('subject').where('subject', 'like', `Rebalance batch ${batchId} %`).execute();
    expect(notes).toEqual([{ subject: `Rebalance batch ${batchId} ${after.status}` }]);
  }, 240_000);
});
