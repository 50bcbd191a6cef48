/**
 * bench/rebalance: wall time from POST /Trading/GenerateTrades to Complete for a demo firm of
 * 100,000 accounts (NeedReview over every account), and the peak memory of the server, on SQLite
 * (in-process queue) and on PostgreSQL with two `wealth worker` processes.
 * Goals: under 10 s on SQLite, under 20 s on PostgreSQL, peak memory under 1.5 GiB.
 *
 *   npx tsx bench/rebalance.ts [--accounts 100000] [--households N] [--only sqlite|postgres] [--chunk-size N]
 * PostgreSQL runs when TEST_DATABASE_URL or DATABASE_URL is set.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.js';
import { seedDemoFirm } from '../src/seed/demo.js';

const { values } = parseArgs({
  options: { accounts: { type: 'string', default: '100000' }, households: { type: 'string' }, only: { type: 'string' }, 'chunk-size': { type: 'string' } },
});
// Settings under test reach the server and the workers alike.
const tuning: Record<string, string> = values['chunk-size'] ? { REBALANCE_CHUNK_SIZE: values['chunk-size'] } : {};
const ACCOUNTS = Number(values.accounts);
// The demo generator makes about 1.8 accounts per household.
const HOUSEHOLDS = Number(values.households ?? Math.ceil(ACCOUNTS / 1.75));
const root = join(import.meta.dirname, '..');
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** Peak resident memory of a process so far, from the kernel's own high-water mark. */
function peakRss(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
  return match ? Number(match[1]) * 1024 : 0;
}

async function run(name: string, db: Db, env: Record<string, string>, workers: () => ChildProcess[]) {
  const seeded = Date.now();
  const credentials = await seedDemoFirm(db, { households: HOUSEHOLDS, seed: 7, firmCode: 'BENCH' });
  const ids = (await db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', credentials.firm.id).orderBy('id').limit(ACCOUNTS).execute()).map((r) => r.id);
  console.log(`${name}: seeded ${HOUSEHOLDS} households in ${((Date.now() - seeded) / 1000).toFixed(1)} s; rebalancing ${ids.length} accounts`);
  const config = loadConfig({ LOG_LEVEL: 'silent', ...tuning, ...env }, { database: db.dialect === 'sqlite' ? { dialect: 'sqlite', file: ':memory:' } : { dialect: 'postgres', url: env.DATABASE_URL!, poolSize: 10 } });
  const app = await buildApp({ config, db });
  await app.ready();
  const children = workers();
  try {
    const api = credentials.users.find((u) => u.kind === 'api')!;
    const login = await app.inject({
      url: '/api/v1/security/token',
      headers: { authorization: `Basic ${Buffer.from(`${api.userName}:${api.password}`).toString('base64')}`, client_id: String(credentials.partner.clientId), client_secret: credentials.partner.clientSecret },
    });
    const authorization = `Session ${login.json().access_token}`;
    if (children.length > 0) await new Promise((r) => setTimeout(r, 3000)); // workers connect
    const started = performance.now();
    const response = await app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', headers: { authorization }, payload: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: ids } });
    const batchId = response.json<number>();
    let status = { isDone: false } as { isDone: boolean; status?: string; itemsCompleted?: number; errorCount?: number; tradeInstanceId?: number };
    while (!status.isDone) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await app.inject({ url: `/api/Trading/TradeGenerationStatus/${batchId}`, headers: { authorization } })).json();
    }
    const seconds = (performance.now() - started) / 1000;
    const trades = await db.kysely.selectFrom('trades').select((eb) => eb.fn.countAll<number>().as('n')).where('trade_instance_id', '=', status.tradeInstanceId!).executeTakeFirstOrThrow();
    console.log(
      `${name}: ${ids.length} accounts from POST to ${status.status} in ${seconds.toFixed(2)} s = ${Math.round(ids.length / seconds)} accounts/s; ` +
        `${trades.n} trades, ${status.errorCount} accounts with errors (no model, by design of the demo book)`,
    );
    console.log(`${name}: peak memory of the server ${mib(peakRss(process.pid))}` + children.map((c) => `, worker ${c.pid} ${mib(peakRss(c.pid!))}`).join(''));
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await app.close();
  }
}

async function main() {
  console.log(`goal: 100,000 accounts under 10 s on SQLite, under 20 s on PostgreSQL with two workers, peak memory under 1.5 GiB`);
  if (values.only !== 'postgres') {
    const sqlite = openDatabase({ dialect: 'sqlite', file: ':memory:' });
    await migrateToLatest(sqlite);
    await run('sqlite', sqlite, {}, () => []);
    await sqlite.close();
  }
  if (values.only === 'sqlite') return;

  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) {
    console.log('postgres: skipped (set TEST_DATABASE_URL)');
    return;
  }
  const schema = `bench_rebalance_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const db = openDatabase({ dialect: 'postgres', url, poolSize: 10 }, { schema });
  try {
    await migrateToLatest(db);
    const scoped = new URL(url);
    scoped.searchParams.set('options', `-c search_path=${schema}`);
    const env = { ...tuning, DATABASE_URL: scoped.toString(), JOB_SCHEMA: `${schema}_jobs`, WORKER_IN_SERVER: 'false' };
    const worker = () =>
      spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli.ts'), 'worker'], { cwd: root, env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, stdio: 'inherit' });
    await run('postgres (2 workers)', db, env, () => [worker(), worker()]);
  } finally {
    await db.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.query(`drop schema if exists ${schema}_jobs cascade`);
    await admin.end();
  }
}

await main();
