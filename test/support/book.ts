import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';

const now = '2026-11-21T00:00:00.000Z';
const audit = { created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' };

export interface TestBook {
  products: Record<'VTI' | 'BND' | 'VXUS' | 'NOPX', number>;
  modelId: number;
  registrationId: number;
  account(options?: { cash?: number; holdings?: Partial<Record<'VTI' | 'BND' | 'VXUS' | 'NOPX', number>>; modelId?: number | null }): Promise<number>;
}

let sequence = 0;

/**
 * A small book in a firm: three priced ETFs and one without a price, a 60/38 model with a 2%
 * cash target and ±5 point bands, and accounts holding whatever a test asks for.
 */
export async function createTestBook(db: Kysely<Database>, firmId: number, representativeId: number): Promise<TestBook> {
  const tag = `${firmId}-${++sequence}`;
  const product = async (ticker: string, price: number | null) =>
    (
      await db
        .insertInto('products')
        .values({ firm_id: firmId, ticker: `${ticker}${tag}`.slice(0, 20), name: ticker, type: 'ETF', class: 'Equity', sub_class: null, category: null, price_micros: price === null ? null : price * 1e6, price_date: price === null ? null : '2026-11-20', is_cash: 0, allows_fractional: 0, ...audit })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const products = { VTI: await product('VTI', 200), BND: await product('BND', 80), VXUS: await product('VXUS', 60), NOPX: await product('NOPX', null) };
  const model = await db
    .insertInto('models')
    .values({ firm_id: firmId, name: `Balanced ${tag}`, description: null, cash_target_pct: 2, cash_lower_pct: 1, cash_upper_pct: 1, is_active: 1, ...audit })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('model_allocations')
    .values([
      { firm_id: firmId, model_id: model.id, product_id: products.VTI, target_pct: 60, lower_pct: 5, upper_pct: 5 },
      { firm_id: firmId, model_id: model.id, product_id: products.BND, target_pct: 38, lower_pct: 5, upper_pct: 5 },
    ])
    .execute();
  const client = await db.insertInto('clients').values({ firm_id: firmId, representative_id: representativeId, name: `Household ${tag}`, notes: null, ...audit }).returning('id').executeTakeFirstOrThrow();
  const registration = await db.insertInto('registrations').values({ firm_id: firmId, client_id: client.id, name: `Registration ${tag}`, type: 'Individual', is_sleeved: 0, do_not_trade: 0, ...audit }).returning('id').executeTakeFirstOrThrow();
  let accounts = 0;
  return {
    products,
    modelId: model.id,
    registrationId: registration.id,
    async account(options = {}) {
      const account = await db
        .insertInto('accounts')
        .values({ firm_id: firmId, registration_id: registration.id, number: `T${tag}-${++accounts}`, name: 'Test account', custodian: 'Schwab', model_id: options.modelId === undefined ? model.id : options.modelId, cash_cents: Math.round((options.cash ?? 1000) * 100), is_trading_blocked: 0, restricted_plan_id: null, is_active: 1, sleeve_type: null, sleeve_target_pct: null, sleeve_tolerance_lower: null, sleeve_tolerance_upper: null, ...audit })
        .returning('id')
        .executeTakeFirstOrThrow();
      const holdings = options.holdings ?? { VTI: 400, BND: 100 };
      for (const [ticker, shares] of Object.entries(holdings)) {
        if (!shares) continue;
        const productId = products[ticker as keyof typeof products];
        await db.insertInto('positions').values({ firm_id: firmId, account_id: account.id, product_id: productId, shares_micros: shares * 1e6, cost_cents: shares * 100 * 100 }).execute();
      }
      return account.id;
    },
  };
}
