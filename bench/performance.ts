/**
 * Performance reporting's speed (shared/design/performance.md), each figure beside a floor
 * measured in the same run:
 *   npx tsx bench/performance.ts [--accounts 10000] [--valuation-accounts 100000] [--duration 5] [--connections 10] [--only sqlite|postgres]
 * - quarter-end run: the batch read (`POST /v1/Reporting/Performance`'s service, pages of 1000) of
 *   every account and every household over the last quarter, standard periods included, against
 *   reading the same history rows (once for the accounts, once for the households) with the driver
 *   alone (goal <= 2x);
 * - one account's `Performance` over HTTP under `--connections` (goal p50 < 20 ms), beside a bare
 *   Fastify hello-world served the same way;
 * - the daily valuation of every account of a `--valuation-accounts` firm, against reading their
 *   positions and cash and writing their value rows with the driver alone (goal <= 2x).
 * PostgreSQL runs when TEST_DATABASE_URL or DATABASE_URL is set, in a schema of its own.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { benchPostgresUrl, withPostgresSchema, withSqliteFile } from './_databases.js';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import { bulkInsert } from '../src/db/bulk-insert.js';
import { dayOf, isoOf, yearsBefore } from '../src/engine/performance/days.js';
import { PerformanceRepository } from '../src/performance/repository.js';
import { PerformanceService } from '../src/performance/service.js';
import { ValuationService } from '../src/performance/valuation.js';
import { seedDemoFirm } from '../src/seed/demo.js';
import { systemClock } from '../src/shared/clock.js';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '10000' },
    'valuation-accounts': { type: 'string', default: '100000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const ACCOUNTS = Number(values.accounts);
const VALUATION_ACCOUNTS = Number(values['valuation-accounts']);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
/** The demo generator's households hold about 2.04 accounts each (4,167 households: 8,501 accounts). */
const ACCOUNTS_PER_HOUSEHOLD = 2.04;
const AS_OF = '2026-09-30';
const QUARTER = { startDate: '2026-07-01', endDate: '2026-09-30' };

const seconds = (started: number) => (performance.now() - started) / 1000;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

/** Three years of weekday values for every account of the firm, written in large statements (untimed). */
async function writeHistory(db: Db, firmId: number): Promise<number> {
  const accounts = (await db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', firmId).orderBy('id').execute()).map((a) => a.id);
  const end = dayOf(AS_OF);
  const days: string[] = [];
  for (let d = yearsBefore(end, 3) - 7; d <= end; d++) {
    const weekday = new Date(d * 86_400_000).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(isoOf(d));
  }
  let rows: unknown[][] = [];
  let written = 0;
  const flush = async () => {
    await bulkInsert(db.kysely, 'account_values', [['account_id', 'int4'], ['value_date', 'text'], ['market_value_cents', 'int8'], ['net_flow_cents', 'int8'], ['fees_cents', 'int8'], ['income_cents', 'int8']], [['firm_id', 'int4', firmId]], rows);
    written += rows.length;
    rows = [];
  };
  let seed = 1;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  for (const account of accounts) {
    let value = 5_000_000 + Math.floor(random() * 50_000_000);
    for (const [i, date] of days.entries()) {
      const flow = i % 61 === 17 ? 100_000 : 0;
      const fee = i % 63 === 62 ? Math.round(value * 0.0025) : 0;
      value = Math.max(0, Math.round((value + flow) * (1 + (random() - 0.48) * 0.02)) - fee);
      rows.push([account, date, value, flow, fee, i % 21 === 3 ? 1_500 : 0]);
    }
    if (rows.length >= 100_000) await flush();
  }
  await flush();
  return written;
}

const HISTORY = 'select account_id, value_date, market_value_cents, net_flow_cents, fees_cents, income_cents from account_values where firm_id = ? and value_date <= ? order by account_id, value_date';

async function historyFloor(dialect: 'sqlite' | 'postgres', target: string, firmId: number): Promise<number> {
  if (dialect === 'sqlite') {
    const direct = new SqliteDatabase(target, { readonly: true });
    let n = 0;
    for (const row of direct.prepare(HISTORY).raw().iterate(firmId, QUARTER.endDate)) if (row) n++;
    direct.close();
    return n;
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  let n = 0;
  await client.query('begin');
  await client.query({ text: `declare h no scroll cursor for ${HISTORY.replace('?', '$1').replace('?', '$2')}`, values: [firmId, QUARTER.endDate] });
  for (;;) {
    const part = await client.query({ text: 'fetch 50000 from h', rowMode: 'array' });
    n += part.rowCount ?? 0;
    if ((part.rowCount ?? 0) < 50_000) break;
  }
  await client.query('rollback');
  await client.end();
  return n;
}

async function valuationFloor(dialect: 'sqlite' | 'postgres', target: string, firmId: number, date: string): Promise<void> {
  const READ = 'select a.id, a.cash_cents, p.product_id, p.shares_micros from accounts a left join positions p on p.account_id = a.id where a.firm_id = ? order by a.id';
  if (dialect === 'sqlite') {
    const direct = new SqliteDatabase(target);
    const prices = new Map((direct.prepare('select id, price_micros from products where firm_id = ?').raw().all(firmId) as [number, number][]).map(([id, p]) => [id, p]));
    const totals = new Map<number, number>();
    for (const [id, cash, product, shares] of direct.prepare(READ).raw().iterate(firmId) as Iterable<[number, number, number | null, number | null]>) {
      totals.set(id, (totals.get(id) ?? cash) + (product === null ? 0 : Math.round(((shares ?? 0) / 1e6) * ((prices.get(product) ?? 0) / 1e4))));
    }
    const insert = direct.prepare('insert into account_values (firm_id, account_id, value_date, market_value_cents) values (?, ?, ?, ?)');
    direct.exec('begin');
    for (const [id, cents] of totals) insert.run(firmId, id, date, cents);
    direct.exec('rollback');
    direct.close();
    return;
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  const prices = new Map((await client.query({ text: 'select id, price_micros from products where firm_id = $1', values: [firmId], rowMode: 'array' })).rows.map(([id, p]) => [id as number, Number(p)]));
  const totals = new Map<number, number>();
  for (const [id, cash, product, shares] of (await client.query({ text: READ.replace('?', '$1'), values: [firmId], rowMode: 'array' })).rows) {
    totals.set(id as number, (totals.get(id as number) ?? Number(cash)) + (product === null ? 0 : Math.round((Number(shares) / 1e6) * ((prices.get(product as number) ?? 0) / 1e4))));
  }
  await client.query('begin');
  await client.query('insert into account_values (firm_id, account_id, value_date, market_value_cents) select $1, unnest($2::int[]), $3, unnest($4::int8[])', [firmId, [...totals.keys()], date, [...totals.values()]]);
  await client.query('rollback');
  await client.end();
}

async function cannon(url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers, workers: 1 });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, workers: 1, timeout: 10 });
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} non-2xx`);
  return `${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`;
}

async function run(name: 'sqlite' | 'postgres', db: Db, target: string, databaseConfig: Parameters<typeof loadConfig>[1]) {
  console.log(`\n${name}:`);
  // Quarter-end run.
  let started = performance.now();
  const firm = await seedDemoFirm(db, { households: Math.ceil(ACCOUNTS / ACCOUNTS_PER_HOUSEHOLD), seed: 3, asOf: AS_OF, firmCode: 'PERF' });
  const rows = await writeHistory(db, firm.firm.id);
  // Statistics and the visibility map as autovacuum leaves them on a table loaded over years, not
  // seconds: without them the planner guesses at a firm it has never seen and index-only scans
  // visit the table.
  if (name === 'postgres') await sql`vacuum (analyze) account_values`.execute(db.kysely);
  const accountCount = (await db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('firm_id', '=', firm.firm.id).executeTakeFirstOrThrow()).n;
  console.log(`  firm: ${accountCount} accounts, ${rows.toLocaleString('en-US')} value rows (set up in ${seconds(started).toFixed(1)} s, untimed)`);
  const service = new PerformanceService(new PerformanceRepository(db.kysely));
  const principal = { firmId: firm.firm.id, userId: 0, userName: 'bench', kind: 'user' as const, clientId: null, privileges: new Set<string>() };
  started = performance.now();
  let records = 0;
  for (const entity of ['Accounts', 'Clients'] as const) {
    for (let skip = 0; ; skip += 1000) {
      const page = await service.batch(principal, { entity, ...QUARTER }, 1000, skip);
      records += page.length;
      if (page.length < 1000) break;
    }
  }
  const run = seconds(started);
  started = performance.now();
  const read = (await historyFloor(name, target, firm.firm.id)) + (await historyFloor(name, target, firm.firm.id));
  const floor = seconds(started);
  console.log(`  quarter-end run: ${records} records (every account and household) in ${run.toFixed(2)} s; floor (driver reads ${read.toLocaleString('en-US')} rows) ${floor.toFixed(2)} s: ${ratio(run, floor)} (goal <= 2x)`);

  // One account's Performance under connections.
  const config = loadConfig({ LOG_LEVEL: 'silent', VALUATION_TIME: 'off', ...(name === 'postgres' ? { DATABASE_URL: target, JOB_SCHEMA: `${db.schema}_jobs`, WORKER_IN_SERVER: 'false' } : {}) }, databaseConfig);
  const app = await buildApp({ config, db });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const user = firm.users.find((u) => u.kind === 'api')!;
  const login = await app.inject({ url: '/api/v1/security/token', headers: { authorization: `Basic ${Buffer.from(`${user.userName}:${user.password}`).toString('base64')}`, client_id: String(firm.partner.clientId), client_secret: firm.partner.clientSecret } });
  const headers = { authorization: `Session ${login.json<{ access_token: string }>().access_token}` };
  const account = (await db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', firm.firm.id).orderBy('id').limit(1).offset(Math.floor(Number(accountCount) / 2)).executeTakeFirstOrThrow()).id;
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  const helloOrigin = await hello.listen({ port: 0, host: '127.0.0.1' });
  console.log(`  bare Fastify hello-world, ${CONNECTIONS} connections: ${await cannon(helloOrigin)}`);
  console.log(`  one account's Performance (3 years daily, standard periods), ${CONNECTIONS} connections: ${await cannon(`${origin}/api/v1/Portfolio/Accounts/${account}/Performance`, headers)} (goal p50 < 20 ms)`);
  await hello.close();
  await app.close();

  // Daily valuation.
  started = performance.now();
  const big = await seedDemoFirm(db, { households: Math.ceil(VALUATION_ACCOUNTS / ACCOUNTS_PER_HOUSEHOLD), seed: 4, asOf: AS_OF, firmCode: 'VAL' });
  const valued = new ValuationService(new PerformanceRepository(db.kysely), systemClock);
  console.log(`  valuation firm seeded in ${seconds(started).toFixed(1)} s (untimed)`);
  started = performance.now();
  const summary = await valued.valueDay('2026-10-01', { firmCode: 'VAL' });
  const valuation = seconds(started);
  started = performance.now();
  await valuationFloor(name, target, big.firm.id, '2026-10-02');
  const valuationFloorSeconds = seconds(started);
  console.log(`  daily valuation: ${summary.accounts} accounts in ${valuation.toFixed(2)} s; floor (driver reads positions and cash, writes the rows) ${valuationFloorSeconds.toFixed(2)} s: ${ratio(valuation, valuationFloorSeconds)} (goal <= 2x)`);
  const memory = process.memoryUsage().rss / 2 ** 20;
  console.log(`  peak resident memory so far: ${Math.round(memory)} MiB`);
}

async function main() {
  console.log(`goals: quarter-end run <= 2x its read floor; one account's Performance p50 < 20 ms under ${CONNECTIONS} connections; daily valuation <= 2x its floor. Machine load: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  if (values.only !== 'postgres') {
    await withSqliteFile('bench-performance', (db, file) => run('sqlite', db, file, { database: { dialect: 'sqlite', file } }));
  }
  if (values.only === 'sqlite') return;
  const url = benchPostgresUrl();
  if (!url) return;
  await withPostgresSchema(url, `bench_performance_${process.pid}`, ({ db, scopedUrl }) =>
    run('postgres', db, scopedUrl, { database: { dialect: 'postgres', url: scopedUrl, poolSize: 10 } }),
  );
}

await main();
