/**
 * Reads that must not grow with the firm: `npx tsx bench/reads.ts [--accounts 100000] [--duration 5] [--connections 10] [--only sqlite|postgres]`.
 * The two goals' pairs (hello-world and the trade block; the bare page and the page) are measured
 * in turns, three rounds, and judged on the median round's ratio.
 * Seeds a demo firm on a SQLite file and, when TEST_DATABASE_URL or DATABASE_URL is set, in a
 * PostgreSQL schema of its own, and serves it; autocannon (from a worker thread) measures, one
 * target after another in the same run, req/s with p50/p99:
 * Both hot reads are measured as served (from the response cache after their first read) and
 * again on the same app with the cache off; the list latencies are taken with it off.
 * - a bare Fastify hello-world, and an authenticated GET of a single trade block (goal >= 50 %),
 *   beside a bare route making the same two reads with the driver directly (better-sqlite3, or pg
 *   with prepared statements: the route's floor);
 * - a bare Fastify route sending the exact body of a page of 100 accounts, and that page
 *   (goal >= 50 %, no timeouts), beside a bare route making the page's reads directly (its floor);
 * - every list route's first and a deep page (goal: p50 < 20 ms on a 100,000 account firm), the
 *   trades of a trade instance of a 10,000 account rebalance among them, each by one client and
 *   under the connections of the other lines;
 * - the rebalancer's whole lists (every account of the firm in one call), with how long a health
 *   check waits meanwhile beside the same check on the idle server.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { benchPostgresUrl, withPostgresSchema, withSqliteFile } from './_databases.js';
import { buildApp } from '../src/app.js';
import { digest } from '../src/auth/secrets.js';
import { type AppConfig, loadConfig } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import { seedDemoFirm } from '../src/seed/demo.js';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const ACCOUNTS = Number(values.accounts);
const duration = Number(values.duration);
const connections = Number(values.connections);

interface Rate {
  rps: number;
  p50: number;
  p99: number;
  timeouts: number;
}

async function cannon(url: string, headers: Record<string, string> = {}, clients = connections): Promise<Rate> {
  // Load from a worker thread: sharing the server's event loop would charge every request twice.
  await autocannon({ url, connections: clients, duration: 1, pipelining: 1, headers, workers: 1 }); // warm-up, not counted
  const r = await autocannon({ url, connections: clients, duration, pipelining: 1, headers, workers: 1, timeout: 10 });
  if (r.non2xx > 0 || r.errors > r.timeouts) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, timeouts: r.timeouts };
}

const ROUNDS = 3;

/**
 * A reference and a route measured in turns, ROUNDS times: the round whose ratio is the median,
 * with every round's ratio (as percentages) for the record.
 */
async function alternated(referenceUrl: string, referenceHeaders: Record<string, string>, url: string, headers: Record<string, string>): Promise<[Rate, Rate, string]> {
  const rounds: [Rate, Rate][] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push([await cannon(referenceUrl, referenceHeaders), await cannon(url, headers)]);
  const ratio = ([reference, route]: [Rate, Rate]) => route.rps / reference.rps;
  const sorted = [...rounds].sort((a, b) => ratio(a) - ratio(b));
  const [reference, route] = sorted[Math.floor(sorted.length / 2)]!;
  return [reference, route, `${ROUNDS} rounds: ${rounds.map((r) => `${Math.round(ratio(r) * 100)} %`).join(', ')}`];
}

/** Health checks one after another, 20 ms apart, `count` of them or until `stop()`: their latencies. */
async function healthLatencies(origin: string, count: number, stop: () => boolean = () => false): Promise<{ p50: number; max: number }> {
  const latencies: number[] = [];
  while (latencies.length < count && !stop()) {
    const started = performance.now();
    await (await fetch(`${origin}/healthz`)).arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  latencies.sort((a, b) => a - b);
  return { p50: latencies[Math.floor(latencies.length / 2)] ?? 0, max: latencies[latencies.length - 1] ?? 0 };
}

/**
 * A list route's latency two ways: what one client waits for a page on a server doing nothing
 * else, and under the `connections` of every other line, where a request also waits for the
 * pages queued ahead of it (p50 is then about connections ÷ req/s). The goal (p50 < 20 ms) is
 * judged on both and each verdict printed.
 */
async function pageLatency(url: string, headers: Record<string, string>): Promise<string> {
  const alone = await cannon(url, headers, 1);
  const loaded = await cannon(url, headers);
  const verdict = (r: Rate) => (r.p50 < 20 ? 'met' : 'missed');
  return `one client ${show(alone)}; ${connections} connections ${show(loaded)} (goal p50 < 20 ms: ${verdict(alone)} by one client, ${verdict(loaded)} under ${connections} connections)`;
}

const show = (r: Rate) => `${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.timeouts ? `, ${r.timeouts} timeouts` : ''}`;
const listen = (app: FastifyInstance) => app.listen({ port: 0, host: '127.0.0.1' });

/**
 * The reads a route's floor makes with the driver directly: the token with its user and
 * privileges, one trade block of the firm, a page of the firm's accounts with their registration
 * type (which the effective tax status comes from), rows as arrays where the driver allows.
 */
interface FloorReads {
  tokenFirm(authorization: string): Promise<number | undefined>;
  block(firmId: number, id: number): Promise<boolean>;
  page(firmId: number, top: number): Promise<number>;
  close(): Promise<void>;
}

const TOKEN_READ = `select t.id, t.user_id, t.firm_id, u.kind, p.privilege from access_tokens t join users u on u.id = t.user_id left join role_privileges p on p.role_id = u.role_id
  where t.token_hash = $1 and t.audience = 'platform' and t.revoked_at is null and t.expires_at > $2 and u.is_active = 1`;
const BLOCK_READ = 'select d.*, f.trade_block_dates from trade_block_details d join firms f on f.id = d.firm_id where d.firm_id = $1 and d.id = $2';
const PAGE_READ = 'select a.*, r.type from accounts a join registrations r on r.id = a.registration_id where a.firm_id = $1 order by a.id limit $2';
const tokenHash = (authorization: string) => digest(authorization.slice('Session '.length));

function sqliteFloor(file: string): FloorReads {
  const direct = new SqliteDatabase(file, { readonly: true });
  const positional = (text: string) => text.replace(/\$\d+/g, '?');
  const token = direct.prepare(positional(TOKEN_READ));
  const block = direct.prepare(positional(BLOCK_READ));
  const page = direct.prepare(positional(PAGE_READ)).raw(true);
  return {
    tokenFirm: async (authorization) => (token.all(tokenHash(authorization), new Date().toISOString())[0] as { firm_id: number } | undefined)?.firm_id,
    block: async (firmId, id) => block.get(firmId, id) !== undefined,
    page: async (firmId, top) => page.all(firmId, top).length,
    close: async () => void direct.close(),
  };
}

function postgresFloor(url: string): FloorReads {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const rows = async (name: string, text: string, values: unknown[], rowMode?: 'array') => (await pool.query({ name, text, values, ...(rowMode ? { rowMode } : {}) })).rows;
  return {
    tokenFirm: async (authorization) => ((await rows('floor_token', TOKEN_READ, [tokenHash(authorization), new Date().toISOString()]))[0] as { firm_id: number } | undefined)?.firm_id,
    block: async (firmId, id) => (await rows('floor_block', BLOCK_READ, [firmId, id])).length > 0,
    page: async (firmId, top) => (await rows('floor_page', PAGE_READ, [firmId, top], 'array')).length,
    close: () => pool.end(),
  };
}

async function run(label: string, db: Db, config: AppConfig, floor: FloorReads) {
  console.log(`\n${label}:`);
  const started = Date.now();
  const credentials = await seedDemoFirm(db, { households: Math.ceil(ACCOUNTS / 1.75), seed: 3, firmCode: 'READS' });
  const app = await buildApp({ config, db });
  await app.ready();
  const user = credentials.users.find((u) => u.kind === 'api')!;
  const login = await app.inject({
    url: '/api/v1/security/token',
    headers: { authorization: `Basic ${Buffer.from(`${user.userName}:${user.password}`).toString('base64')}`, client_id: String(credentials.partner.clientId), client_secret: credentials.partner.clientSecret },
  });
  const headers = { authorization: `Session ${login.json().access_token}` };
  const total = Number((await app.inject({ url: '/api/v1/Portfolio/Accounts?$top=1&$count=true', headers })).headers['x-total-count']);
  const account = (await app.inject({ url: '/api/v1/Portfolio/Accounts?$top=1', headers })).json()[0].id as number;
  const reasons = (await app.inject({ url: '/api/v1/Trading/TradeBlocks/Reasons', headers })).json();
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/Trading/TradeBlocks',
    headers,
    payload: [{ id: 0, entityEnum: 7, entityId: account, tradeBlockReasonId: reasons[0].id, description: 'bench', startDate: '2026-01-01' }],
  });
  const blockId = created.json().successfulTradeBlocks[0].id as number;
  // A trade instance of realistic size to page through: a rebalance of the first 10,000 accounts.
  const keys: number[] = [];
  for (let skip = 0; skip < 10_000; skip += 1000) {
    keys.push(...(await app.inject({ url: `/api/v1/Portfolio/Accounts?$top=1000&$skip=${skip}`, headers })).json<{ id: number }[]>().map((a) => a.id));
  }
  const batchId = (await app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades?wait=true', headers, payload: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys } })).json<number>();
  const instanceId = (await app.inject({ url: `/api/Trading/TradeGenerationStatus/${batchId}`, headers })).json<{ tradeInstanceId: number }>().tradeInstanceId;
  const tradeCount = (await app.inject({ url: `/api/v1/Trading/TradeInstances/${instanceId}`, headers })).json<{ tradeCount: number }>().tradeCount;
  console.log(`firm of ${total} accounts seeded in ${((Date.now() - started) / 1000).toFixed(1)} s, a trade instance of ${tradeCount} trades; autocannon connections=${connections} duration=${duration}s workers=1`);

  const origin = await listen(app);
  const pageUrl = `${origin}/api/v1/Portfolio/Accounts?$top=100`;
  const body = await (await fetch(pageUrl, { headers })).text();
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  bare.get('/page', async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
  // Where a single trade block's floor is: a bare route making the route's two reads (the token,
  // the block) with the driver directly and sending the same body.
  const blockBody = await (await fetch(`${origin}/api/v1/Trading/TradeBlocks/${blockId}`, { headers })).text();
  bare.get('/block/:id', async (request, reply) => {
    const firmId = await floor.tokenFirm(String(request.headers.authorization));
    if (firmId === undefined || !(await floor.block(firmId, Number((request.params as { id: string }).id)))) return reply.code(404).send();
    return reply.header('content-type', 'application/json; charset=utf-8').send(blockBody);
  });
  // Where a page of accounts' floor is: the same bare route making the page's reads directly (the
  // token; the page in one statement) and sending the same body.
  bare.get('/page-reads', async (request, reply) => {
    const firmId = await floor.tokenFirm(String(request.headers.authorization));
    if (firmId === undefined || (await floor.page(firmId, 100)) === 0) return reply.code(404).send();
    return reply.header('content-type', 'application/json; charset=utf-8').send(body);
  });
  const bareOrigin = await listen(bare);
  // The same app with its response cache off: what the reads cost when every request makes them
  // (after a write, until the next answer is cached), and what the list latencies are judged on.
  const uncached = await buildApp({ config: { ...config, responseCacheBytes: 0 }, db });
  await uncached.ready();
  const uncachedOrigin = await listen(uncached);

  // Each goal's pair is measured in turns, ROUNDS times, and judged on the median round: a busy
  // moment of a shared machine then slows one round of both, not one side of the ratio.
  const [hello, block, blockRounds] = await alternated(`${bareOrigin}/hello`, {}, `${origin}/api/v1/Trading/TradeBlocks/${blockId}`, headers);
  const bareBlock = await cannon(`${bareOrigin}/block/${blockId}`, headers);
  const [barePage, page, pageRounds] = await alternated(`${bareOrigin}/page`, {}, pageUrl, headers);
  const barePageReads = await cannon(`${bareOrigin}/page-reads`, headers);
  const blockUncached = await cannon(`${uncachedOrigin}/api/v1/Trading/TradeBlocks/${blockId}`, headers);
  const pageUncached = await cannon(`${uncachedOrigin}/api/v1/Portfolio/Accounts?$top=100`, headers);
  const pct = (a: Rate, b: Rate) => `${((a.rps / b.rps) * 100).toFixed(0)} %`;
  console.log(`bare Fastify hello-world:                 ${show(hello)}`);
  console.log(`bare route, the same two reads directly:  ${show(bareBlock)} = ${pct(bareBlock, hello)} of hello-world`);
  console.log(`GET /v1/Trading/TradeBlocks/{id}:         ${show(block)} = ${pct(block, hello)} of hello-world (goal >= 50 %; median of ${blockRounds}), ${pct(block, bareBlock)} of the bare route with its reads`);
  console.log(`  the same, response cache off:           ${show(blockUncached)} = ${pct(blockUncached, hello)} of hello-world, ${pct(blockUncached, bareBlock)} of the bare route with its reads`);
  console.log(`bare Fastify route, same ${(body.length / 1024).toFixed(1)} KB body: ${show(barePage)}`);
  console.log(`bare route, the page's reads directly:    ${show(barePageReads)} = ${pct(barePageReads, barePage)} of the bare route`);
  console.log(`GET /v1/Portfolio/Accounts?$top=100:      ${show(page)} = ${pct(page, barePage)} of the bare route (goal >= 50 %, no timeouts; median of ${pageRounds}), ${pct(page, barePageReads)} of the bare route with its reads`);
  console.log(`  the same, response cache off:           ${show(pageUncached)} = ${pct(pageUncached, barePage)} of the bare route, ${pct(pageUncached, barePageReads)} of the bare route with its reads`);
  const counted = await cannon(`${pageUrl}&$count=true`, headers);
  console.log(`the same with $count=true (X-Total-Count): ${show(counted)} = ${pct(counted, barePage)} of the bare route (the count reads the whole firm)`);

  const deep = Math.max(0, total - 200);
  const lists = ['Clients', 'Registrations', 'Accounts', 'Products', 'Representatives'].flatMap((e) => [`/api/v1/Portfolio/${e}?$top=100`, `/api/v1/Portfolio/${e}?$top=100&$skip=${deep}`]);
  lists.push('/api/v1/Trading/TradeInstances?$top=100');
  // A search no product matches, and one most do: neither may read every position of the firm.
  lists.push('/api/v1/Portfolio/Assets/Simple/Search?search=no-such-product&$top=100', '/api/v1/Portfolio/Assets/Simple/Search?search=a&$top=100');
  const trades = `/api/v1/Trading/TradeInstances/${instanceId}/Trades`;
  lists.push(`${trades}?$top=100`, `${trades}?$top=100&$skip=${Math.max(0, tradeCount - 100)}`, `${trades}?$top=100&$count=true`, `${trades}?accountId=${keys[Math.floor(keys.length / 2)]}`);
  // Judged with the response cache off: a page read once and then from memory says nothing of its reads.
  console.log('list pages, response cache off:');
  for (const path of lists) console.log(`GET ${path}: ${await pageLatency(`${uncachedOrigin}${path}`, headers)}`);

  // A whole list read in one call (the source system's client reads every account of the firm):
  // how long it takes, and how long the server makes other requests wait meanwhile, beside the
  // same health check on the idle server.
  const rebalancerToken = (await app.inject({ url: '/rebalancer/v1/admin/token', headers })).json<{ eclipse_access_token: string }>().eclipse_access_token;
  console.log(`GET /rebalancer/v1/modeling/modelAggs (counts the accounts on each aggregate's models): ${await pageLatency(`${origin}/rebalancer/v1/modeling/modelAggs`, { authorization: `Session ${rebalancerToken}` })}`);
  const idle = await healthLatencies(origin, 50);
  for (const path of ['/rebalancer/v1/account/accounts', '/rebalancer/v1/account/accounts/simple', '/rebalancer/v1/account/cashneeds']) {
    const started = performance.now();
    let done = false;
    const answer = fetch(`${origin}${path}`, { headers: { authorization: `Session ${rebalancerToken}` } })
      .then((r) => r.arrayBuffer())
      .finally(() => (done = true));
    const meanwhile = await healthLatencies(origin, Infinity, () => done);
    const bytes = (await answer).byteLength;
    console.log(
      `GET ${path} (whole, ${(bytes / 1e6).toFixed(1)} MB): ${((performance.now() - started) / 1000).toFixed(2)} s; /healthz meanwhile p50 ${meanwhile.p50.toFixed(0)} ms, max ${meanwhile.max.toFixed(0)} ms (idle server: p50 ${idle.p50.toFixed(1)} ms, max ${idle.max.toFixed(1)} ms)`,
    );
  }
  await bare.close();
  await uncached.close();
  await app.close();
}

console.log(`machine load: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
if (values.only !== 'postgres') {
  await withSqliteFile('bench-reads', async (db, file) => {
    const floor = sqliteFloor(file);
    try {
      await run('sqlite', db, loadConfig({ LOG_LEVEL: 'silent' }, { database: { dialect: 'sqlite', file: ':memory:' } }), floor);
    } finally {
      await floor.close();
    }
  });
}
const url = values.only === 'sqlite' ? undefined : benchPostgresUrl();
if (url) {
  await withPostgresSchema(url, `bench_reads_${process.pid}`, async ({ db, schema, scopedUrl }) => {
    const floor = postgresFloor(scopedUrl);
    try {
      const config = loadConfig({ LOG_LEVEL: 'silent', JOB_SCHEMA: `${schema}_jobs` }, { database: { dialect: 'postgres', url: scopedUrl, poolSize: 10 } });
      await run('postgres', db, config, floor);
    } finally {
      await floor.close();
    }
  });
}
