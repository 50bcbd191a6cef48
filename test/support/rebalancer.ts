import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import type { TestContext } from './app.js';

const audit = () => {
  const now = new Date().toISOString();
  return { created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' };
};
let sequence = 0;
const unique = (prefix: string) => `${prefix}${++sequence}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

/** Rows written straight to the tables, so the rebalancer tests build a book without the portfolio routes. */
export async function createProduct(db: Kysely<Database>, firmId: number, price = 100, ticker = unique('P')) {
  const row = await db
    .insertInto('products')
    .values({ firm_id: firmId, ticker, name: `${ticker} fund`, type: 'ETF', class: 'Equity', sub_class: 'Large Cap', category: 'US', price_micros: price * 1_000_000, price_date: '2026-01-02', is_cash: 0, allows_fractional: 0, ...audit() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, ticker };
}

export async function createAccount(db: Kysely<Database>, firmId: number, options: { cash?: number; modelId?: number | null; planId?: number | null } = {}) {
  const rep = await db.selectFrom('representatives').select('id').where('firm_id', '=', firmId).executeTakeFirstOrThrow();
  const client = await db.insertInto('clients').values({ firm_id: firmId, representative_id: rep.id, name: 'Household', notes: null, ...audit() }).returning('id').executeTakeFirstOrThrow();
  const registration = await db
    .insertInto('registrations')
    .values({ firm_id: firmId, client_id: client.id, name: 'Registration', type: 'Individual', is_sleeved: 0, do_not_trade: 0, ...audit() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const account = await db
    .insertInto('accounts')
    .values({
      firm_id: firmId,
      registration_id: registration.id,
      number: unique('A-'),
      name: 'Account',
      custodian: 'Schwab',
      model_id: options.modelId ?? null,
      cash_cents: Math.round((options.cash ?? 0) * 100),
      is_trading_blocked: 0,
      restricted_plan_id: options.planId ?? null,
      is_active: 1,
      sleeve_type: null,
      sleeve_target_pct: null,
      sleeve_tolerance_lower: null,
      sleeve_tolerance_upper: null,
      ...audit(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return account.id;
}

export async function addPosition(db: Kysely<Database>, firmId: number, accountId: number, productId: number, shares: number, cost = 0) {
  await db.insertInto('positions').values({ firm_id: firmId, account_id: accountId, product_id: productId, shares_micros: shares * 1_000_000, cost_cents: Math.round(cost * 100) }).execute();
}

/** `Authorization` header of a rebalancer token for a user of the test firm. */
export async function rebalancerSession(t: TestContext, user: Parameters<TestContext['session']>[0] = 'admin', of: 'firm' | 'otherFirm' = 'firm') {
  const response = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: await t.session(user, of) } });
  if (response.statusCode !== 200) throw new Error(`rebalancer token of ${user}: ${response.body}`);
  return `Session ${response.json().eclipse_access_token}`;
}
