// A household builder for the tax-aware tests (tax-aware.test.ts, execution.test.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { refreshPositionLots } from '../db/position-lots.js';

export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
export const stamp = '2026-01-01T00:00:00.000Z';
const audit = { created_at: stamp, created_by: 'test', edited_at: stamp, edited_by: 'test' };
let sequence = 0;

/** A household with VTI (200), its equivalent SCHB (50) and BND (80) in a VTI/BND model. */
export async function household(db: Kysely<Database>, firmId: number, representativeId: number, vtiPct: number) {
  const tag = `${firmId}x${++sequence}`;
  const product = async (ticker: string, price: number) =>
    (await db.insertInto('products').values({ firm_id: firmId, ticker: `${ticker}${tag}`, name: ticker, type: 'ETF', class: 'Equity', sub_class: null, category: null, price_micros: price * 1e6, price_date: daysAgo(1), is_cash: 0, allows_fractional: 0, wash_sale_group: null, harvest_replacement_product_id: null, ...audit }).returning('id').executeTakeFirstOrThrow()).id;
  const VTI = await product('VTI', 200);
  const SCHB = await product('SCHB', 50);
  const BND = await product('BND', 80);
  const model = await db.insertInto('models').values({ firm_id: firmId, name: `Tax ${tag}`, description: null, cash_target_pct: 0, cash_lower_pct: 0, cash_upper_pct: 0, is_active: 1, ...audit }).returning('id').executeTakeFirstOrThrow();
  const vti = await db.insertInto('model_allocations').values({ firm_id: firmId, model_id: model.id, product_id: VTI, target_pct: vtiPct, lower_pct: 1, upper_pct: 1 }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('model_equivalents').values({ firm_id: firmId, model_allocation_id: vti.id, product_id: SCHB, rank: 1 }).execute();
  if (vtiPct < 100) await db.insertInto('model_allocations').values({ firm_id: firmId, model_id: model.id, product_id: BND, target_pct: 100 - vtiPct, lower_pct: 1, upper_pct: 1 }).execute();
  const client = await db.insertInto('clients').values({ firm_id: firmId, representative_id: representativeId, name: `Household ${tag}`, notes: null, ...audit }).returning('id').executeTakeFirstOrThrow();
  const registration = async (type: string) => (await db.insertInto('registrations').values({ firm_id: firmId, client_id: client.id, name: `${type} ${tag}`, type, is_sleeved: 0, do_not_trade: 0, ...audit }).returning('id').executeTakeFirstOrThrow()).id;
  let n = 0;
  const account = async (type: string, cash: number, holdings: { productId: number; lots: { shares: number; cost: number; acquired: string }[] }[]) => {
    const id = (await db.insertInto('accounts').values({ firm_id: firmId, registration_id: await registration(type), number: `TX${tag}-${++n}`, name: type, custodian: 'Schwab', model_id: model.id, cash_cents: cash * 100, is_trading_blocked: 0, restricted_plan_id: null, is_active: 1, sleeve_type: null, sleeve_target_pct: null, sleeve_tolerance_lower: null, sleeve_tolerance_upper: null, tax_status: null, ...audit }).returning('id').executeTakeFirstOrThrow()).id;
    const lotIds: number[] = [];
    for (const h of holdings) {
      const shares = h.lots.reduce((s, l) => s + l.shares, 0);
      const position = await db.insertInto('positions').values({ firm_id: firmId, account_id: id, product_id: h.productId, shares_micros: shares * 1e6, cost_cents: h.lots.reduce((s, l) => s + l.cost * 100, 0) }).returning('id').executeTakeFirstOrThrow();
      for (const l of h.lots) lotIds.push((await db.insertInto('tax_lots').values({ firm_id: firmId, position_id: position.id, shares_micros: l.shares * 1e6, cost_cents: l.cost * 100, acquired_date: l.acquired }).returning('id').executeTakeFirstOrThrow()).id);
      await refreshPositionLots(db, firmId, [position.id]);
    }
    return { id, lotIds };
  };
  return { VTI, SCHB, BND, clientId: client.id, account };
}

