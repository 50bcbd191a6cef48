/**
 * Trade block throughput: `npx tsx bench/trade-blocks.ts [--duration 5] [--connections 10] [--runs 5]`.
 * 1. A 1,000-item batch create (POST /v1/Trading/TradeBlocks, sync events on) on a SQLite file,
 *    and on PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set: median ms and items/s.
 * 2. Requests/s of an authenticated GET /v1/Trading/TradeBlocks/{id} beside a bare Fastify
 *    hello-world route, both measured by autocannon in this run with the flags printed, on each
 *    database (PostgreSQL once the token cache's revocation channel listens).
 * Goals: the batch under 100 ms on SQLite; the GET at least 50% of hello-world's rate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { benchPostgresUrl, withPostgresSchema } from './_databases.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.js';
import { createSmallBook } from '../src/trade-blocks/test-support.js';
import { createTestFirm } from '../test/support/firm.js';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' }, runs: { type: 'string', default: '5' } },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const runs = Number(values.runs);
const ITEMS = 1000;

async function setUp(db: Db, label: string, url: string) {
  await migrateToLatest(db);
  const firm = await createTestFirm(db.kysely, `bench${Date.now() % 100000}`);
  const books = [];
  for (let i = 0; i < 10; i++) books.push(await createSmallBook(db.kysely, firm.firmId, firm.representativeId));
  const accounts = books.flatMap((b) => [b.account, ...b.sleeveAccounts]);
  const config = loadConfig({ LOG_LEVEL: 'silent' }, { database: db.dialect === 'sqlite' ? { dialect: 'sqlite', file: ':memory:' } : { dialect: 'postgres', url, poolSize: 10 } });
  const app = await buildApp({ config, db });
  await app.ready();
  const user = firm.users.advisor;
  const login = await app.inject({
    method: 'GET',
    url: '/api/v1/security/token',
    headers: { authorization: `Basic ${Buffer.from(`${user.userName}:${user.password}`).toString('base64')}`, client_id: String(firm.clientId), client_secret: firm.clientSecret },
  });
  if (login.statusCode !== 200) throw new Error(`${label}: login failed: ${login.body}`);
  const authorization = `Session ${login.json().access_token}`;
  const reasons = (await app.inject({ method: 'GET', url: '/api/v1/Trading/TradeBlocks/Reasons', headers: { authorization } })).json();
  const minted = await app.inject({ method: 'GET', url: '/rebalancer/v1/admin/token', headers: { authorization } });
  const rebalancerAuthorization = `Session ${minted.json().access_token}`;
  const client = await db.kysely.selectFrom('clients').select('id').where('firm_id', '=', firm.firmId).executeTakeFirstOrThrow();
  return { app, authorization, rebalancerAuthorization, accounts, manual: reasons[0].id as number, clientId: client.id };
}

async function drained(db: Db) {
  for (;;) {
    const { n } = await db.kysely.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('delivered_at', 'is', null).executeTakeFirstOrThrow();
    if (Number(n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function batchBench(db: Db, label: string, url = '') {
  const setup = await setUp(db, label, url);
  const payload = Array.from({ length: ITEMS }, (_, i) => ({
    id: 0,
    entityEnum: 7,
    entityId: setup.accounts[i % setup.accounts.length],
    tradeBlockReasonId: setup.manual,
    description: `bench block ${i}`,
    startDate: '2026-01-01',
  }));
  const times: number[] = [];
  let lastId = 0;
  for (let run = 0; run <= runs; run++) {
    const started = performance.now();
    const response = await setup.app.inject({ method: 'POST', url: '/api/v1/Trading/TradeBlocks', payload, headers: { authorization: setup.authorization } });
    const ms = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${label}: batch answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
    lastId = response.json().successfulTradeBlocks[0].id;
    if (run > 0) times.push(ms); // run 0 warms up
    await drained(db); // the dispatcher's deliveries are not part of the measured request
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${label}: ${ITEMS}-item batch create: median ${median.toFixed(1)} ms = ${Math.round((ITEMS / median) * 1000)} items/s ` +
      `(min ${times[0]!.toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms, ${runs} runs after 1 warm-up; goal on SQLite < 100 ms)`,
  );
  return { ...setup, lastId };
}

async function cannon(url: string, headers: Record<string, string> = {}) {
  // The load comes from a worker thread: sharing the server's event loop would charge every
  // request twice and favour the cheapest route.
  await autocannon({ url, connections, duration: 1, pipelining: 1, headers, workers: 1 }); // JIT warm-up, not counted
  const result = await autocannon({ url, connections, duration, pipelining: 1, headers, workers: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function listen(app: FastifyInstance) {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

/** The GET of one trade block beside hello-world, measured one after the other in this run. */
async function readRates(app: FastifyInstance, label: string, authorization: string, rebalancerAuthorization: string, lastId: number, clientId: number) {
  const hello = Fastify({ logger: false });
  hello.get('/hello', async () => ({ hello: 'world' }));
  const helloUrl = `${await listen(hello)}/hello`;
  const origin = await listen(app);
  console.log(`${label}: autocannon flags: connections=${connections} pipelining=1 duration=${duration}s workers=1 (load from a worker thread; each target in turn after a 1 s warm-up)`);
  const helloRate = await cannon(helloUrl);
  const getRate = await cannon(`${origin}/api/v1/Trading/TradeBlocks/${lastId}`, { authorization });
  // A peer authenticated read of the same app: the floor every secured route pays (token check, one query).
  const bookRate = await cannon(`${origin}/api/v1/Portfolio/Clients/Verbose/${clientId}`, { authorization });
  // The cheapest secured route (token check, static body): the ceiling of any authenticated route.
  const floorRate = await cannon(`${origin}/rebalancer/v1/security/securityset/sellpriority`, { authorization: rebalancerAuthorization });
  const pct = (rate: number) => `${((rate / helloRate) * 100).toFixed(0)}% of hello-world`;
  console.log(`${label}: bare Fastify hello-world:                        ${Math.round(helloRate)} req/s`);
  console.log(`${label}: authenticated GET /v1/Trading/TradeBlocks/{id}:  ${Math.round(getRate)} req/s = ${pct(getRate)} (goal >= 50%)`);
  console.log(`${label}: for reference, GET /v1/Portfolio/Clients/Verbose/{id}: ${Math.round(bookRate)} req/s = ${pct(bookRate)}`);
  console.log(`${label}: for reference, token check only (rebalancer sellpriority, static body): ${Math.round(floorRate)} req/s = ${pct(floorRate)}`);
  await hello.close();
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wealth-tb-bench-'));
  const db = openDatabase({ dialect: 'sqlite', file: join(dir, 'bench.sqlite') });
  try {
    const { app, authorization, rebalancerAuthorization, lastId, clientId } = await batchBench(db, 'sqlite');
    const label = (d: Db) => d.dialect;
    await readRates(app, label(db), authorization, rebalancerAuthorization, lastId, clientId);
    await app.close();
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const url = benchPostgresUrl();
  if (!url) return;
  await withPostgresSchema(
    url,
    `bench_tb_${Date.now()}`,
    async ({ db: pgDb }) => {
      const { app, authorization, rebalancerAuthorization, lastId, clientId } = await batchBench(pgDb, 'postgres', url);
      // The token cache answers once its revocation channel listens.
      while (!app.revocations.cache.answering) await new Promise((resolve) => setTimeout(resolve, 20));
      await readRates(app, 'postgres', authorization, rebalancerAuthorization, lastId, clientId);
      await app.close();
    },
    { migrate: false },
  );
}

await main();
