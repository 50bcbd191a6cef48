// A household's benchmark when its accounts follow different models, on both databases: the
// models' benchmarks weighted by the accounts' values at the period's beginning
// (docs/decisions/performance-aggregates-and-benchmark.md). Numbers worked in the comments.
import { beforeAll, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';

type Row = [string, number | null, number?];

async function storeHistory(db: Kysely<Database>, firmId: number, accountId: number, rows: Row[]) {
  await db
    .insertInto('account_values')
    .values(rows.map(([date, value, flow = 0]) => ({ firm_id: firmId, account_id: accountId, value_date: date, market_value_cents: value === null ? null : value * 100, net_flow_cents: flow * 100, fees_cents: 0, income_cents: 0 })))
    .execute();
}

describeEachDatabase('a household benchmark across models', (database) => {
  const t = useTestApp(database);
  let book: TestBook;
  let household = 0;
  let balanced = '';
  let international = '';
  let unmodelled = 0;

  beforeAll(async () => {
    const db = t.db.kysely;
    const firmId = t.firm.firmId;
    book = await createTestBook(db, firmId, t.firm.representativeId);
    balanced = (await db.selectFrom('models').select('name').where('id', '=', book.modelId).executeTakeFirstOrThrow()).name;
    international = `International ${book.modelId}`;
    const model = await db
      .insertInto('models')
      .values({ firm_id: firmId, name: international, description: null, cash_target_pct: 0, cash_lower_pct: 0, cash_upper_pct: 0, is_active: 1, created_by: 'test', created_at: '2026-01-01T00:00:00Z', edited_by: 'test', edited_at: '2026-01-01T00:00:00Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('model_allocations').values({ firm_id: firmId, model_id: model.id, product_id: book.products.VXUS, target_pct: 100, lower_pct: 5, upper_pct: 5 }).execute();
    const x = await book.account();
    const y = await book.account({ modelId: model.id });
    // No model, and no value at the period's beginning: weighs nothing.
    const z = await book.account({ modelId: null });
    household = (await db.selectFrom('registrations').select('client_id').where('id', '=', book.registrationId).executeTakeFirstOrThrow()).client_id;
    await storeHistory(db, firmId, x, [['2026-03-31', 30_000], ['2026-04-30', 31_500]]);
    await storeHistory(db, firmId, y, [['2026-03-31', 10_000], ['2026-04-30', 9_200]]);
    await storeHistory(db, firmId, z, [['2026-04-30', 5_000, 5_000]]);
    // A second household of one account without a model, valued at the beginning: no benchmark.
    const other = await createTestBook(db, firmId, t.firm.representativeId);
    unmodelled = await other.account({ modelId: null });
    await storeHistory(db, firmId, unmodelled, [['2026-03-31', 1_000], ['2026-04-30', 1_100]]);
    const price = (product: number, date: string, dollars: number) => ({ firm_id: firmId, product_id: product, price_date: date, price_micros: dollars * 1e6 });
    await db
      .insertInto('product_prices')
      .values([
        price(book.products.VTI, '2026-03-31', 100), price(book.products.VTI, '2026-04-30', 110),
        price(book.products.BND, '2026-03-31', 50), price(book.products.BND, '2026-04-30', 50),
        price(book.products.VXUS, '2026-03-31', 60), price(book.products.VXUS, '2026-04-30', 54),
      ])
      .execute();
  });

  const get = async (url: string) => t.app.inject({ url, headers: { authorization: await t.session('reader') } });

  it('weights each model\'s benchmark by its accounts\' values at the beginning', async () => {
    // Balanced: 60 % VTI (100 → 110, +10 %) + 38 % BND (flat) + 2 % cash = 6 %. International: 100 % VXUS (60 → 54) = −10 %.
    // At the close of 31 March X (Balanced) holds 30,000 and Y (International) 10,000; Z has no value yet.
    // Weights 30,000 / 40,000 = 75 % and 25 %: 0.75 × 6 % + 0.25 × (−10 %) = 2 %.
    const response = await get(`/api/v1/Portfolio/Clients/${household}/Performance?startDate=2026-04-01&endDate=2026-04-30`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      // Z's 5,000 arrives at the start of 30 April, invested 1 day of 30:
      // (45,700 − 40,000 − 5,000) / (40,000 + 5,000 × 1/30) = 700 / 40,166.67 = 0.01742739.
      beginningValue: 40_000, endingValue: 45_700, netFlows: 5_000, twrNet: 0.01742739,
      benchmark: { name: `Blend: ${balanced} 75 %, ${international} 25 %`, twr: 0.02, twrAnnualized: null },
    });
    const report = await get(`/api/v1/Portfolio/Clients/${household}/Performance/Report?startDate=2026-04-01&endDate=2026-04-30`);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain(`Blend: ${balanced} 75 %, ${international} 25 %`);
    expect(report.body).toContain('class="bench"');
  });

  it('gives each account its own model\'s benchmark, and none to an account without a model', async () => {
    const [x, y] = (await t.db.kysely.selectFrom('accounts').select('id').where('registration_id', '=', book.registrationId).orderBy('id').execute()).map((a) => a.id);
    const ofX = await get(`/api/v1/Portfolio/Accounts/${x}/Performance?startDate=2026-04-01`);
    expect(ofX.json().benchmark).toEqual({ name: balanced, twr: 0.06, twrAnnualized: null });
    const ofY = await get(`/api/v1/Portfolio/Accounts/${y}/Performance?startDate=2026-04-01`);
    expect(ofY.json().benchmark).toEqual({ name: international, twr: -0.1, twrAnnualized: null });
    const none = await get(`/api/v1/Portfolio/Accounts/${unmodelled}/Performance`);
    expect(none.json()).toMatchObject({ twrNet: 0.1, benchmark: null });
  });
});
