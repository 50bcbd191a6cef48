// HTTP tests of the performance reads, on both databases. The numbers are worked in the comments.
import { beforeAll, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';

type Row = [string, number | null, number?, number?, number?];

async function storeHistory(db: Kysely<Database>, firmId: number, accountId: number, rows: Row[]) {
  await db
    .insertInto('account_values')
    .values(rows.map(([date, value, flow = 0, fee = 0, income = 0]) => ({
      firm_id: firmId, account_id: accountId, value_date: date,
      market_value_cents: value === null ? null : Math.round(value * 100), net_flow_cents: Math.round(flow * 100), fees_cents: Math.round(fee * 100), income_cents: Math.round(income * 100),
    })))
    .execute();
}

describeEachDatabase('performance reads', (database) => {
  const t = useTestApp(database);
  let book: TestBook;
  let a = 0;
  let b = 0;
  let empty = 0;
  let household = 0;
  let foreign = 0;

  beforeAll(async () => {
    const db = t.db.kysely;
    book = await createTestBook(db, t.firm.firmId, t.firm.representativeId);
    a = await book.account();
    b = await book.account();
    empty = (await createTestBook(db, t.firm.firmId, t.firm.representativeId).then((other) => other.account()));
    household = (await db.selectFrom('registrations').select('client_id').where('id', '=', book.registrationId).executeTakeFirstOrThrow()).client_id;
    const other = await createTestBook(db, t.otherFirm.firmId, t.otherFirm.representativeId);
    foreign = await other.account();
    // A moves 10,000 to B at the start of 1 January: A 50,500 / 50,000 − 1 = 1 %, B 50,000 / 50,000 − 1 = 0 %.
    await storeHistory(db, t.firm.firmId, a, [['2025-12-31', 60_000], ['2026-01-01', 50_500, -10_000, 0, 120]]);
    await storeHistory(db, t.firm.firmId, b, [['2025-12-31', 40_000], ['2026-01-01', 50_000, 10_000, 25]]);
    await storeHistory(db, t.otherFirm.firmId, foreign, [['2025-12-31', 1_000], ['2026-01-01', 2_000]]);
    // The model is 60 % VTI, 38 % BND, 2 % cash: 0.6 × (110 / 100 − 1) + 0.38 × 0 = 6 %.
    await db
      .insertInto('product_prices')
      .values([
        { firm_id: t.firm.firmId, product_id: book.products.VTI, price_date: '2025-12-31', price_micros: 100e6 },
        { firm_id: t.firm.firmId, product_id: book.products.VTI, price_date: '2026-01-01', price_micros: 110e6 },
        { firm_id: t.firm.firmId, product_id: book.products.BND, price_date: '2025-12-30', price_micros: 50e6 },
      ])
      .execute();
  });

  const get = async (url: string, user: 'reader' | 'nobody' = 'reader') => t.app.inject({ url, headers: { authorization: await t.session(user) } });

  it('answers an account\'s returns over a period, with and without /v1', async () => {
    for (const prefix of ['/api/v1', '/api']) {
      const response = await get(`${prefix}/Portfolio/Accounts/${a}/Performance?startDate=2026-01-01&endDate=2026-01-31`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        entity: 'Accounts', id: a, name: 'Test account',
        startDate: '2026-01-01', endDate: '2026-01-01', inception: false,
        beginningValue: 60_000, endingValue: 50_500, netFlows: -10_000, fees: 0, income: 120, gainLoss: 500,
        twrNet: 0.01, twrGross: 0.01, twrNetAnnualized: null, twrGrossAnnualized: null, mwr: 0.01, mwrAnnualized: null,
        benchmark: { name: expect.stringContaining('Balanced'), twr: 0.06, twrAnnualized: null },
        periods: [
          // From the close of 31 Dec 2025 (the first valuation): MTD, QTD and YTD begin after it.
          { period: 'MTD', startDate: '2026-01-01', endDate: '2026-01-01', inception: false, twrNet: 0.01, twrGross: 0.01, twrNetAnnualized: null, mwr: 0.01 },
          { period: 'QTD', startDate: '2026-01-01', endDate: '2026-01-01', inception: false, twrNet: 0.01, twrGross: 0.01, twrNetAnnualized: null, mwr: 0.01 },
          { period: 'YTD', startDate: '2026-01-01', endDate: '2026-01-01', inception: false, twrNet: 0.01, twrGross: 0.01, twrNetAnnualized: null, mwr: 0.01 },
          { period: 'ITD', startDate: '2025-12-31', endDate: '2026-01-01', inception: true, twrNet: 0.01, twrGross: 0.01, twrNetAnnualized: null, mwr: 0.01 },
        ],
      });
    }
  });

  it('measures a household by the aggregate method: the transfer between its accounts nets to zero', async () => {
    const response = await get(`/api/v1/Portfolio/Clients/${household}/Performance`);
    expect(response.statusCode).toBe(200);
    // (50,500 + 50,000) / (60,000 + 40,000) − 1 = 0.5 % net; gross: B's 25 fee is an outflow, 100,500 / (100,000 − 25) − 1
    expect(response.json()).toMatchObject({ entity: 'Clients', inception: true, netFlows: 0, fees: 25, beginningValue: 100_000, endingValue: 100_500, twrNet: 0.005, twrGross: 0.00525131, mwr: 0.005 });
    const registration = await get(`/api/v1/Portfolio/Registrations/${book.registrationId}/Performance`);
    expect(registration.json()).toMatchObject({ entity: 'Registrations', twrNet: 0.005 });
  });

  it('answers null returns and no periods for an entity without valuations', async () => {
    const response = await get(`/api/v1/Portfolio/Accounts/${empty}/Performance`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ twrNet: null, mwr: null, startDate: null, benchmark: null, periods: [] });
  });

  it('refuses bad dates naming the parameter', async () => {
    const bad = await get(`/api/v1/Portfolio/Accounts/${a}/Performance?startDate=2026-02-30`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'querystring.startDate', message: 'must be a date YYYY-MM-DD; got "2026-02-30"' }]);
    const backwards = await get(`/api/v1/Portfolio/Accounts/${a}/Performance?startDate=2026-02-01&endDate=2026-01-01`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toEqual([{ field: 'querystring.endDate', message: 'must not be before startDate (2026-02-01)' }]);
    const unknown = await get(`/api/v1/Portfolio/Accounts/${a}/Performance?from=2026-01-01`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('querystring.from');
  });

  it('keeps firms apart and checks the privilege', async () => {
    expect((await get(`/api/v1/Portfolio/Accounts/${foreign}/Performance`)).statusCode).toBe(404);
    expect((await get(`/api/v1/Portfolio/Clients/${household}/Performance/Daily`, 'nobody')).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/v1/Portfolio/Accounts/${a}/Performance` })).statusCode).toBe(401);
  });

  it('answers the daily rows for charts', async () => {
    const response = await get(`/api/v1/Portfolio/Clients/${household}/Performance/Daily`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { date: '2025-12-31', marketValue: 100_000, netFlow: 0, fees: 0, income: 0, twrNetCumulative: 0 },
      { date: '2026-01-01', marketValue: 100_500, netFlow: 0, fees: 25, income: 120, twrNetCumulative: 0.005 },
    ]);
  });

  it('prints a household report with the chart against the benchmark and one row per account', async () => {
    const response = await get(`/api/v1/Portfolio/Clients/${household}/Performance/Report`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const html = response.body;
    expect(html).toContain('<svg');
    expect(html).toContain('class="bench"');
    expect(html).toContain('Returns by period');
    expect(html.match(/<small>T/g)?.length).toBe(2);
    expect(html).not.toContain('<script');
  });

  it('answers a batch for many entities, paged, and refuses an id of another firm', async () => {
    const post = async (body: object, query = '') =>
      t.app.inject({ method: 'POST', url: `/api/v1/Reporting/Performance${query}`, headers: { authorization: await t.session('reader') }, payload: body });
    const both = await post({ entity: 'Accounts', ids: [b, a], startDate: '2026-01-01', endDate: '2026-03-31' });
    expect(both.statusCode).toBe(200);
    expect(both.json().map((r: { id: number; twrNet: number }) => [r.id, r.twrNet])).toEqual([[b, 0], [a, 0.01]]);
    const paged = await post({ entity: 'Accounts', ids: [b, a] }, '?$top=1&$skip=1');
    expect(paged.json().map((r: { id: number }) => r.id)).toEqual([a]);
    const all = await post({ entity: 'Clients' });
    expect(all.json().length).toBeGreaterThanOrEqual(2);
    const foreignId = await post({ entity: 'Accounts', ids: [a, foreign] });
    expect(foreignId.statusCode).toBe(400);
    expect(foreignId.json().errors[0]).toEqual({ field: 'ids[1]', message: `no account ${foreign} in your firm` });
    expect((await post({ entity: 'Households' })).statusCode).toBe(400);
    const extra = await post({ entity: 'Accounts', extra: 1 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors[0].field).toBe('extra');
  });
});
