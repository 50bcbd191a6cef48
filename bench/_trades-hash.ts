/**
 * Correctness check for performance work, not a timing: seeds a demo firm (fixed seed and date),
 * rebalances every account at account level and again at registration level through the HTTP
 * API, and prints a SHA-256 of the sorted trade, transfer and message rows. Run it before and
 * after a change to the read or write path: the same book must give the same hash.
 *
 * With --tax the runs carry bench/rebalance.ts's taxOptions, and the hash also covers each
 * trade's lots and estimated gains and the batch's household tax summaries.
 *
 * With --trades-only the hash covers the trade rows alone (with --tax, their lots and gains):
 * a change that only adds or rewords messages keeps that hash, so it tells "the trades moved"
 * apart from "the messages moved". It prints the full hash beside it; the counts of messages by
 * code are printed either way.
 *
 * With --postgres URL the same runs go to PostgreSQL (a schema of their own, dropped at the end,
 * jobs through pg-boss in the process): the hash must equal SQLite's.
 *
 *   npx tsx bench/_trades-hash.ts [--households 3000] [--profile demo] [--tax] [--trades-only] [--postgres URL]
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openDatabase } from '../src/db/database.js';
import { seedDemoFirm } from '../src/seed/demo.js';
import { parseProfile } from '../src/seed/profiles.js';
import { BENCH_TAX_OPTIONS } from './_tax-options.js';

const { values } = parseArgs({
  options: { households: { type: 'string', default: '3000' }, profile: { type: 'string', default: 'demo' }, tax: { type: 'boolean', default: false }, postgres: { type: 'string' }, 'trades-only': { type: 'boolean', default: false } },
});
const schema = `trades_hash_${process.pid}`;
const admin = values.postgres ? new pg.Client({ connectionString: values.postgres }) : undefined;
await admin?.connect();
await admin?.query(`create schema ${schema}`);
const database = values.postgres ? ({ dialect: 'postgres', url: values.postgres, poolSize: 10 } as const) : ({ dialect: 'sqlite', file: ':memory:' } as const);
const db = openDatabase(database, values.postgres ? { schema } : {});
await migrateToLatest(db);
const credentials = await seedDemoFirm(db, { households: Number(values.households), seed: 11, asOf: '2025-06-30', firmCode: 'HASH', profile: parseProfile(values.profile) });
const ids = (await db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', credentials.firm.id).orderBy('id').execute()).map((r) => r.id);
const config = loadConfig({ LOG_LEVEL: 'silent', ...(admin ? { JOB_SCHEMA: `${schema}_jobs` } : {}) }, { database });
const app = await buildApp({ config, db });
await app.ready();
const api = credentials.users.find((u) => u.kind === 'api')!;
const login = await app.inject({
  url: '/api/v1/security/token',
  headers: { authorization: `Basic ${Buffer.from(`${api.userName}:${api.password}`).toString('base64')}`, client_id: String(credentials.partner.clientId), client_secret: credentials.partner.clientSecret },
});
const authorization = `Session ${login.json().access_token}`;
const hash = createHash('sha256');
const tradesHash = createHash('sha256');
// Tax-aware runs are per account (a household is planned together); a rebalance without them
// runs at both levels.
for (const level of values.tax ? ['Account'] : ['Account', 'Registration']) {
  const response = await app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', headers: { authorization }, payload: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', level, keys: ids, ...(values.tax ? { taxOptions: BENCH_TAX_OPTIONS } : {}) } });
  const batchId = response.json<number>();
  if (typeof batchId !== 'number') throw new Error(`GenerateTrades answered ${response.statusCode} ${response.body}`);
  let status = { isDone: false } as { isDone: boolean; tradeInstanceId?: number };
  while (!status.isDone) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await app.inject({ url: `/api/Trading/TradeGenerationStatus/${batchId}`, headers: { authorization } })).json();
  }
  const trades = await db.kysely
    .selectFrom('trades')
    .select(['account_id', 'product_id', 'side', 'trade_type', 'shares_micros', 'amount_cents', 'price_micros', 'reason', 'status', ...(values.tax ? (['lots', 'short_term_gain_cents', 'long_term_gain_cents'] as const) : [])])
    .where('trade_instance_id', '=', status.tradeInstanceId!)
    .execute();
  const transfers = await db.kysely.selectFrom('sleeve_transfers').select(['registration_id', 'account_id', 'amount_cents']).where('trade_instance_id', '=', status.tradeInstanceId!).execute();
  const messages = await db.kysely.selectFrom('batch_messages').select(['account_id', 'severity', 'code', 'message']).where('batch_id', '=', batchId).execute();
  const summaries = values.tax
    ? await db.kysely.selectFrom('batch_tax_summaries').select(['client_id', 'short_term_gain_cents', 'long_term_gain_cents', 'harvested_loss_cents', 'wash_sale_moves', 'budget_cuts']).where('batch_id', '=', batchId).execute()
    : [];
  const tradeLines = trades.map((r) => JSON.stringify(Object.values(r))).sort();
  for (const line of tradeLines) tradesHash.update(`${level}\t${line}\n`);
  const lines = [...trades, ...transfers, ...messages, ...summaries].map((r) => JSON.stringify(Object.values(r))).sort();
  for (const line of lines) hash.update(`${level}\t${line}\n`);
  const codes = new Map<string, number>();
  for (const m of messages) codes.set(`${m.severity} ${m.code}`, (codes.get(`${m.severity} ${m.code}`) ?? 0) + 1);
  console.log(`${level}: ${trades.length} trades, ${transfers.length} transfers, ${messages.length} messages, ${summaries.length} tax summaries (${[...codes].map(([c, n]) => `${c} ${n}`).join(', ')})`);
  // Cancel so the next level starts from the same book (open orders count in a rebalance).
  await app.inject({ method: 'POST', url: `/api/Trading/TradeInstances/${status.tradeInstanceId}/Action/Cancel`, headers: { authorization } });
}
// The full hash is printed beside the trades-only one so one run answers both questions.
console.log(`${ids.length} accounts; ${values['trades-only'] ? `trades-only sha256 ${tradesHash.digest('hex')} (full sha256 ${hash.digest('hex')})` : `sha256 ${hash.digest('hex')}`}`);
await app.close();
await db.close();
await admin?.query(`drop schema ${schema} cascade`);
await admin?.query(`drop schema if exists ${schema}_jobs cascade`);
await admin?.end();
