// Recording trades as executed closes the tax loop (docs/tax-aware.md), on both databases.
import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { staleLotTexts } from '../db/position-lots.js';
import { type TradeOut, tradingCalls } from '../../test/support/trading.js';
import { daysAgo, household } from './tax-test-support.js';


describeEachDatabase('executing trades', (database) => {
  const t = useTestApp(database);
  let session: string;
  beforeAll(async () => {
    session = await t.session('advisor');
  });
  const post = (url: string, payload?: unknown, authorization = session) => t.app.inject({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }), headers: { authorization } });
  const trading = tradingCalls(t, () => session);
  const run = async (request: object) => trading.tradesOf(await trading.generate(request));
  const execute = (trade: TradeOut, body?: object, authorization = session) => post(`/api/Trading/TradeInstances/${trade.tradeInstanceId}/Trades/${trade.id}/Action/Execute`, body, authorization);
  const lotsOf = (accountId: number) =>
    t.db.kysely
      .selectFrom('tax_lots as l')
      .innerJoin('positions as p', 'p.id', 'l.position_id')
      .select(['p.product_id', 'l.shares_micros', 'l.cost_cents', 'l.acquired_date'])
      .where('p.account_id', '=', accountId)
      .orderBy('l.id')
      .execute();

  it('a harvest, executed: the loss lot is relieved, the loss realized, the replacement becomes a lot, and the next run does not buy VTI back', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 100);
    const { id } = await hh.account('Individual', 0, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 23000, acquired: daysAgo(60) }] }]);
    const [sell, buy] = await run({ reason: 'TaxLossHarvest', keys: [id], taxOptions: { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } } });
    const sold = await execute(sell!);
    expect(sold.statusCode, sold.body).toBe(200);
    expect(sold.json()).toMatchObject({ tradeId: sell!.id, status: 'Executed', shares: 100, amount: 20000, realized: [{ shares: 100, proceeds: 20000, costBasis: 23000, term: 'Short', gain: -3000, disallowedLoss: 0 }] });
    expect((await execute(buy!)).statusCode).toBe(200);
    expect(await lotsOf(id)).toEqual([{ product_id: hh.SCHB, shares_micros: 400e6, cost_cents: 2_000_000, acquired_date: daysAgo(0) }]);
    const account = await t.db.kysely.selectFrom('accounts').select('cash_cents').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(account.cash_cents)).toBe(0);
    const gains = await t.db.kysely.selectFrom('realized_sales').select(['term', 'gain_cents']).where('account_id', '=', id).execute();
    expect(gains.map((g) => [g.term, Number(g.gain_cents)])).toEqual([['Short', -300000]]);
    // Executed trades are no longer open orders; VTI's price falls and the model would buy it back: SCHB instead (rule 1).
    await t.db.kysely.updateTable('products').set({ price_micros: 100e6 }).where('id', '=', hh.SCHB).execute();
    await t.db.kysely.updateTable('accounts').set({ cash_cents: 1_000_000 }).where('id', '=', id).execute();
    const next = await run({ reason: 'NeedReview', keys: [id], taxOptions: {} });
    expect(next.filter((x) => x.action === 'BUY').map((x) => x.productId)).toEqual([hh.SCHB]);
    expect((await execute(sell!)).statusCode).toBe(409);
  });

  it('a realized long-term gain leaves less budget for the next run', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 25);
    const { id } = await hh.account('Individual', 20000, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 15000, acquired: daysAgo(800) }] }]);
    const first = await run({ reason: 'NeedReview', keys: [id], taxOptions: { maxLongTermGain: 1000 } });
    const sell = first.find((x) => x.action === 'SELL')!;
    expect(sell.shares).toBe(20);
    expect((await execute(sell, { shares: 10 })).json()).toMatchObject({ shares: 10, realized: [{ term: 'Long', gain: 500 }] });
    await post(`/api/Trading/TradeInstances/${sell.tradeInstanceId}/Action/Cancel`);
    const second = await run({ reason: 'NeedReview', keys: [id], taxOptions: { maxLongTermGain: 1000 } });
    expect(second.find((x) => x.action === 'SELL')?.shares).toBe(10);
  });

  it('a forced loss sale 10 days after a buy in the IRA: the loss is disallowed and moves into the IRA lot with its holding period', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 100);
    const taxable = await hh.account('Individual', 0, [{ productId: hh.VTI, lots: [{ shares: 50, cost: 12500, acquired: daysAgo(200) }] }]);
    const ira = await hh.account('Traditional IRA', 0, [{ productId: hh.VTI, lots: [{ shares: 20, cost: 4000, acquired: daysAgo(10) }] }]);
    const [sell] = await run({ reason: 'Withdraw', keys: [taxable.id], amounts: [10000], taxOptions: {} });
    expect(sell).toMatchObject({ action: 'SELL', shares: 50 });
    const executed = (await execute(sell!)).json();
    // 50 shares at a loss of 50 each; 20 were bought within 30 days: 1,000 disallowed.
    expect(executed.realized).toEqual([expect.objectContaining({ shares: 50, gain: -2500, disallowedLoss: 1000 })]);
    expect(await lotsOf(ira.id)).toEqual([{ product_id: hh.VTI, shares_micros: 20e6, cost_cents: 500_000, acquired_date: daysAgo(210) }]);
    const position = await t.db.kysely.selectFrom('positions').select('cost_cents').where('account_id', '=', ira.id).executeTakeFirstOrThrow();
    expect(Number(position.cost_cents)).toBe(500_000);
    // The IRA position's lot text carries the moved loss and date too (db/position-lots.ts).
    expect(await staleLotTexts(t.db.kysely)).toEqual([]);
  });

  it('relieves the lots of a partial execution by the method of the run that planned the sell: HIFO as asked, FIFO for a run without taxOptions', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 25);
    // VTI at 200: an old lot bought at 100 a share, a newer one at 250.
    const lots = [
      { shares: 50, cost: 5000, acquired: daysAgo(800) },
      { shares: 50, cost: 12500, acquired: daysAgo(400) },
    ];
    const hifo = await hh.account('Individual', 20000, [{ productId: hh.VTI, lots }]);
    const plain = await hh.account('Individual', 20000, [{ productId: hh.VTI, lots }]);
    const [hifoSell] = (await run({ reason: 'NeedReview', keys: [hifo.id], taxOptions: { lotSelection: 'HIFO' } })).filter((x) => x.action === 'SELL');
    const [plainSell] = (await run({ reason: 'NeedReview', keys: [plain.id] })).filter((x) => x.action === 'SELL');
    expect(hifoSell).toMatchObject({ shares: 50 });
    expect(plainSell).toMatchObject({ shares: 50 });
    // Executed in part, so not the lots the plan named: the method's order decides.
    expect((await execute(hifoSell!, { shares: 20 })).json().realized).toEqual([expect.objectContaining({ shares: 20, costBasis: 5000, term: 'Long', gain: -1000 })]);
    expect((await execute(plainSell!, { shares: 20 })).json().realized).toEqual([expect.objectContaining({ shares: 20, costBasis: 2000, term: 'Long', gain: 2000 })]);
    expect(await staleLotTexts(t.db.kysely)).toEqual([]);
  });

  it('refuses what it cannot do: 404, 400 naming the field, 409, 403 without the edit privilege, and writes nothing', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 25);
    const { id } = await hh.account('Individual', 20000, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 15000, acquired: daysAgo(800) }] }]);
    const [sell] = await run({ reason: 'NeedReview', keys: [id] });
    expect((await post(`/api/Trading/TradeInstances/${sell!.tradeInstanceId}/Trades/999999/Action/Execute`)).statusCode).toBe(404);
    const tooMany = await execute(sell!, { shares: 1000 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain('shares');
    const future = await execute(sell!, { tradeDate: '2999-01-01' });
    expect(future.statusCode).toBe(400);
    expect(future.body).toContain('tradeDate');
    expect((await execute(sell!, { tradeDate: 'soon' })).statusCode).toBe(400);
    expect((await execute(sell!, undefined, await t.session('reader'))).statusCode).toBe(403);
    expect((await execute(sell!, undefined, await t.session('advisor', 'otherFirm'))).statusCode).toBe(404);
    expect(await lotsOf(id)).toEqual([expect.objectContaining({ shares_micros: 100e6 })]);
    await t.db.kysely.updateTable('positions').set({ shares_micros: 1e6 }).where('account_id', '=', id).execute();
    expect((await execute(sell!)).statusCode).toBe(409);
    const status = await t.db.kysely.selectFrom('trades').select('status').where('id', '=', sell!.id).executeTakeFirstOrThrow();
    expect(status.status).toBe('Open');
  });
});
