/**
 * The source system's searches on a large firm: `npx tsx bench/eclipse-search.ts [--accounts 100000] [--rounds 5]`.
 * Seeds a demo firm of `--accounts` accounts on a SQLite file, and on PostgreSQL when
 * TEST_DATABASE_URL or DATABASE_URL is set (a schema of its own, dropped after), serves it, and
 * asks each search route with a mix of terms as the client's users type them (parts of names,
 * account numbers and tickers, an id, and terms that match nothing, which must read the most),
 * one request at a time over HTTP, `--rounds` times each. Prints p50 and p99 per route, beside
 * two references measured in the same run: a bare Fastify hello-world over the same loop, and the
 * route's own query alone (the repository, no HTTP), its I/O floor. Goal: p50 < 20 ms.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { benchPostgresUrl, withPostgresSchema } from './_databases.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.js';
import { EclipseRepository, searchTerm } from '../src/rebalancer/eclipse/repository.js';
import { type DemoCredentials, seedDemoFirm } from '../src/seed/demo.js';

const { values } = parseArgs({
  options: { accounts: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '5' }, keep: { type: 'string' }, only: { type: 'string' } },
});
/**
 * `--keep <name>`: the SQLite file `<DATA_DIR or tmp>/<name>.sqlite` and the PostgreSQL schema
 * `<name>` are kept after the run and reused (not seeded again) by the next run with the same name,
 * so that the searches can be measured again without the minutes of seeding.
 * `--only sqlite|postgres`: one database.
 */
const KEEP = values.keep;
const ONLY = values.only;
const ACCOUNTS = Number(values.accounts);
const ROUNDS = Number(values.rounds);

/** How many trigram GIN indexes migration 0026 made (0 when pg_trgm could not be had). */
async function trigramIndexes(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_indexes where schemaname = current_schema() and indexname like '%_trgm_ix'`.execute(db.kysely);
  return rows[0]?.n ?? 0;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
const ms = (n: number) => `${n.toFixed(2)} ms`;

/** p50 and p99 of `work` run over every term, `ROUNDS` times (after one round of warm-up). */
async function latencies<T>(terms: T[], work: (term: T) => Promise<unknown>) {
  for (const term of terms) await work(term);
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const term of terms) {
      const started = performance.now();
      await work(term);
      times.push(performance.now() - started);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), count: times.length };
}

async function run(db: Db, label: string, config: ReturnType<typeof loadConfig>) {
  await migrateToLatest(db);
  if (label === 'postgres' && (await trigramIndexes(db)) === 0) console.log('postgres: pg_trgm could not be created: the searches scan');
  const started = Date.now();
  const kept = KEEP ? join(DIR, `${KEEP}-${label}.json`) : null;
  const seeded = await db.kysely.selectFrom('firms').select('id').where('code', '=', 'SEARCH').executeTakeFirst();
  let credentials: DemoCredentials;
  if (seeded && kept && existsSync(kept)) {
    credentials = JSON.parse(readFileSync(kept, 'utf8')) as DemoCredentials;
  } else {
    credentials = await seedDemoFirm(db, { households: Math.ceil(ACCOUNTS / 1.75), seed: 3, firmCode: 'SEARCH' });
    if (kept) writeFileSync(kept, JSON.stringify(credentials));
  }
  const app = await buildApp({ config, db });
  await app.ready();
  const user = credentials.users.find((u) => u.kind === 'api')!;
  const login = await app.inject({
    url: '/api/v1/security/token',
    headers: { authorization: `Basic ${Buffer.from(`${user.userName}:${user.password}`).toString('base64')}`, client_id: String(credentials.partner.clientId), client_secret: credentials.partner.clientSecret },
  });
  const platform = `Session ${login.json().access_token}`;
  const minted = await app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: platform } });
  const headers = { authorization: `Session ${minted.json().eclipse_access_token}` };
  const firm = await db.kysely.selectFrom('firms').select('id').where('code', '=', 'SEARCH').executeTakeFirstOrThrow();
  const userId = (await db.kysely.selectFrom('users').select('id').where('firm_id', '=', firm.id).where('user_name', '=', user.userName).executeTakeFirstOrThrow()).id;
  const total = Number((await db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('firm_id', '=', firm.id).executeTakeFirstOrThrow()).n);
  // Terms from the book itself: parts of real names, numbers and tickers, in the case users type them.
  const sample = await db.kysely.selectFrom('accounts').select(['id', 'name', 'number']).where('firm_id', '=', firm.id).orderBy('id').offset(Math.floor(total / 2)).limit(1).executeTakeFirstOrThrow();
  const product = await db.kysely.selectFrom('products').select(['ticker', 'name']).where('firm_id', '=', firm.id).orderBy('id').limit(1).executeTakeFirstOrThrow();
  const lastName = sample.name.split(' ').find((w) => w.length > 3) ?? sample.name;
  const accountTerms = [lastName.toLowerCase(), lastName.slice(0, 3).toUpperCase(), sample.number.slice(-6), sample.number.slice(0, 7).toLowerCase(), String(sample.id), 'qqxz', 'no such client'];
  const securityTerms = [product.ticker.toLowerCase(), product.ticker.slice(0, 2), product.name.split(' ')[0]!.toLowerCase(), 'qqxz'];
  console.log(`${label}: firm of ${total} accounts ${seeded ? 'kept from an earlier run' : `seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`}; terms: accounts ${JSON.stringify(accountTerms)}, securities ${JSON.stringify(securityTerms)}; ${ROUNDS} rounds, one request at a time`);

  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  const bareOrigin = await bare.listen({ port: 0, host: '127.0.0.1' });
  const fetchOk = async (url: string, h: Record<string, string> = {}) => {
    const response = await fetch(url, { headers: h });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
  };
  const hello = await latencies([0], () => fetchOk(`${bareOrigin}/hello`));
  console.log(`${label}: reference bare Fastify hello-world p50 ${ms(hello.p50)}, p99 ${ms(hello.p99)}`);

  const repository = new EclipseRepository(db.kysely);
  const routes: { name: string; terms: string[]; url: (t: string) => string; floor: (t: string) => Promise<unknown> }[] = [
    {
      name: 'AccountSearchList',
      terms: accountTerms,
      url: (t) => `/rebalancer/api/v2/AccountSearch/AccountSearchList?search=${encodeURIComponent(t)}&limit=100`,
      floor: (t) => repository.searchAccounts(firm.id, searchTerm(t), { limit: 100, offset: 0, includeClosed: false }),
    },
    {
      name: 'GlobalSearchList',
      terms: accountTerms,
      url: (t) => `/rebalancer/api/v2/GlobalSearch/GlobalSearchList?search=${encodeURIComponent(t)}&limit=20`,
      floor: (t) => repository.globalSearch(firm.id, searchTerm(t), { limit: 20, nameOnly: false, includeClosed: false, userId, seesEveryModel: false }),
    },
    {
      name: 'SecuritySearchList',
      terms: securityTerms,
      url: (t) => `/rebalancer/api/v2/SecuritySearch/SecuritySearchList?search=${encodeURIComponent(t)}&take=100`,
      floor: (t) => repository.securities(firm.id, searchTerm(t), { excludeCash: false, top: 100, skip: 0 }),
    },
    {
      name: 'v1 securities?search=',
      terms: securityTerms,
      url: (t) => `/rebalancer/v1/security/securities?search=${encodeURIComponent(t)}&top=20&excludeCashSecurity=true`,
      floor: (t) => repository.securities(firm.id, searchTerm(t), { excludeCash: true, top: 20, skip: 0 }),
    },
  ];
  for (const route of routes) {
    const served = await latencies(route.terms, (t) => fetchOk(`${origin}${route.url(t)}`, headers));
    const floor = await latencies(route.terms, route.floor);
    const verdict = served.p50 < 20 ? 'met' : 'missed';
    console.log(
      `${label}: ${route.name}: p50 ${ms(served.p50)}, p99 ${ms(served.p99)} over ${served.count} requests; its query alone p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)} ` +
        `(route/query p50 ${(served.p50 / Math.max(floor.p50, 0.01)).toFixed(1)}×; route/hello-world p50 ${(served.p50 / Math.max(hello.p50, 0.01)).toFixed(1)}×; goal p50 < 20 ms: ${verdict})`,
    );
  }
  await bare.close();
  await app.close();
}

const DIR = KEEP ? (process.env.DATA_DIR ?? tmpdir()) : mkdtempSync(join(process.env.DATA_DIR ?? tmpdir(), 'bench-search-'));
if (ONLY !== 'postgres') {
  const sqlite = openDatabase({ dialect: 'sqlite', file: join(DIR, KEEP ? `${KEEP}.sqlite` : 'bench.sqlite') });
  try {
    await run(sqlite, 'sqlite', loadConfig({ LOG_LEVEL: 'silent' }, { database: { dialect: 'sqlite', file: ':memory:' } }));
  } finally {
    await sqlite.close();
    if (!KEEP) rmSync(DIR, { recursive: true, force: true });
  }
}

const url = ONLY === 'sqlite' ? undefined : benchPostgresUrl();
if (url) {
  await withPostgresSchema(
    url,
    KEEP ?? `bench_search_${Date.now()}`,
    // The job queue (pg-boss) connects by the URL, its tables in a schema beside the bench's.
    ({ db, schema }) => run(db, 'postgres', loadConfig({ LOG_LEVEL: 'silent', JOB_SCHEMA: `${schema}_jobs` }, { database: { dialect: 'postgres', url, poolSize: 10 } })),
    { migrate: false, keep: KEEP !== undefined },
  );
}
