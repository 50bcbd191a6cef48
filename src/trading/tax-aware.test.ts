// Tax-aware rebalancing through the trading API (docs/tax-aware.md), on both databases.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { tradeRow, tradingCalls } from '../../test/support/trading.js';
import { daysAgo, household, stamp } from './tax-test-support.js';
import { loadTaxInputs } from './tax-inputs-repository.js';


describeEachDatabase('tax-aware rebalancing through the trading API', (database) => {
  // One account per chunk: a household must still be planned together (on PostgreSQL by whichever worker takes its chunk).
  const t = useTestApp(database, { env: { REBALANCE_CHUNK_SIZE: '1' } });
  let session: string;
  beforeAll(async () => {
    session = await t.session('advisor');
  });
  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: session } });
  const get = (url: string, authorization = session) => t.app.inject({ url, headers: { authorization } });
  const trading = tradingCalls(t, () => session);
  const { generate } = trading;
  const tradesOf = (batchId: number) => trading.tradesOf(batchId, { complete: true });
  const row = tradeRow;

  it('TaxLossHarvest sells the lot at a loss and buys the equivalent; the trade names its lot; the summary and messages say so', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 100);
    const { id, lotIds } = await hh.account('Individual', 0, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 23000, acquired: daysAgo(60) }] }]);
    const batchId = await generate({ reason: 'TaxLossHarvest', keys: [id], taxOptions: { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } } });
    const trades = await tradesOf(batchId);
    expect(trades.map(row)).toEqual([`SELL ${hh.VTI} 100 = 20000`, `BUY ${hh.SCHB} 400 = 20000`]);
    expect(trades[0]).toMatchObject({ estimatedShortTermGain: -3000, estimatedLongTermGain: 0, lots: [{ taxLotId: lotIds[0], shares: 100, term: 'Short', estimatedGain: -3000, costBasis: 23000, acquiredDate: daysAgo(60) }] });
    expect(trades[0]!.explanation).toMatch(/^tax-loss harvest: sell/);
    expect(trades[1]!.lots).toBeUndefined();
    const summary = await get(`/api/Trading/TradeGenerationStatus/${batchId}/TaxSummary`);
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toEqual([{ householdId: hh.clientId, shortTermGain: -3000, longTermGain: 0, harvestedLosses: 3000, washSaleMoves: 0, budgetCuts: 0 }]);
    const details = (await get(`/api/Trading/TradeGenerationStatus/${batchId}/Message`)).json().details as { severity: string; message: string }[];
    expect(details).toContainEqual(expect.objectContaining({ severity: 'Info', message: expect.stringMatching(/^harvested 3,000.00 short-term loss: VTI\S* → SCHB/) }));
  });

  it('one household in one batch: the IRA does not buy VTI that the taxable account sells at a loss (rule 3)', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 50);
    const taxable = await hh.account('Individual', 0, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 25000, acquired: daysAgo(400) }] }]);
    const ira = await hh.account('Traditional IRA', 10000, [{ productId: hh.BND, lots: [{ shares: 125, cost: 10000, acquired: daysAgo(400) }] }]);
    const trades = await tradesOf(await generate({ reason: 'NeedReview', keys: [ira.id, taxable.id], taxOptions: {} }));
    const sells = trades.filter((x) => x.accountId === taxable.id && x.action === 'SELL');
    expect(sells.map(row)).toEqual([`SELL ${hh.VTI} 50 = 10000`]);
    expect(sells[0]!.lots).toEqual([expect.objectContaining({ taxLotId: taxable.lotIds[0], term: 'Long', estimatedGain: -2500 })]);
    const iraBuys = trades.filter((x) => x.accountId === ira.id && x.action === 'BUY');
    expect(iraBuys.map((x) => x.productId)).toEqual([hh.SCHB]);
  });

  it('gains realized this year count against the budget; a recent loss sale moves the buy', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 25);
    const { id } = await hh.account('Individual', 20000, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 15000, acquired: daysAgo(800) }] }]);
    await t.db.kysely
      .insertInto('realized_sales')
      .values({ firm_id: t.firm.firmId, client_id: hh.clientId, account_id: id, product_id: hh.VTI, trade_id: null, trade_date: daysAgo(0), acquired_date: daysAgo(900), shares_micros: 12e6, proceeds_cents: 240000, cost_cents: 180000, term: 'Long', gain_cents: 60000, created_at: stamp })
      .execute();
    const batchId = await generate({ reason: 'NeedReview', keys: [id], taxOptions: { maxLongTermGain: 1000 } });
    const trades = await tradesOf(batchId);
    expect(trades.filter((x) => x.action === 'SELL').map(row)).toEqual([`SELL ${hh.VTI} 8 = 1600`]);
    expect((await get(`/api/Trading/TradeGenerationStatus/${batchId}/TaxSummary`)).json()).toEqual([expect.objectContaining({ longTermGain: 400, budgetCuts: 1 })]);
    const details = (await get(`/api/Trading/TradeGenerationStatus/${batchId}/Message`)).json().details as { message: string }[];
    expect(details.map((d) => d.message)).toContainEqual(expect.stringMatching(/^42 shares of VTI\S* not sold: 2,100.00 long-term gain over budget$/));
  });

  it('a loss sale of VTI in the household 10 days ago sends the buy to SCHB', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 50);
    const { id } = await hh.account('Roth IRA', 10000, [{ productId: hh.BND, lots: [{ shares: 125, cost: 10000, acquired: daysAgo(400) }] }]);
    await t.db.kysely
      .insertInto('realized_sales')
      .values({ firm_id: t.firm.firmId, client_id: hh.clientId, account_id: id, product_id: hh.VTI, trade_id: null, trade_date: daysAgo(10), acquired_date: daysAgo(100), shares_micros: 10e6, proceeds_cents: 200000, cost_cents: 250000, term: 'Short', gain_cents: -50000, created_at: stamp })
      .execute();
    const trades = await tradesOf(await generate({ reason: 'NeedReview', keys: [id], taxOptions: { avoidWashSales: true } }));
    expect(trades.map(row)).toEqual([`BUY ${hh.SCHB} 200 = 10000`]);
    // The same book without taxOptions (another account: the first run's order counts in its own).
    const other = await hh.account('Roth IRA', 10000, [{ productId: hh.BND, lots: [{ shares: 125, cost: 10000, acquired: daysAgo(400) }] }]);
    const plain = await tradesOf(await generate({ reason: 'NeedReview', keys: [other.id] }));
    expect(plain.map(row)).toEqual([`BUY ${hh.VTI} 50 = 10000`]);
  });

  it('a buy moved by the wash-sale rule names the product actually sold (VTSAX for VTI, one group) and the account it was sold in', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 50);
    const k = t.db.kysely;
    const vti = await k.selectFrom('products').select(['ticker', 'created_at', 'created_by', 'edited_at', 'edited_by', 'price_date']).where('id', '=', hh.VTI).executeTakeFirstOrThrow();
    const schb = (await k.selectFrom('products').select('ticker').where('id', '=', hh.SCHB).executeTakeFirstOrThrow()).ticker;
    const vtsax = `VTSAX${vti.ticker.slice(3)}`;
    const { id: vtsaxId } = await k
      .insertInto('products')
      .values({ ...vti, ticker: vtsax, firm_id: t.firm.firmId, name: 'Total Stock Market Admiral', type: 'MutualFund', class: 'Equity', sub_class: null, category: null, price_micros: 100e6, is_cash: 0, allows_fractional: 1, wash_sale_group: `US total market ${vti.ticker}`, harvest_replacement_product_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await k.updateTable('products').set({ wash_sale_group: `US total market ${vti.ticker}` }).where('id', '=', hh.VTI).execute();
    const seller = await hh.account('Individual', 0, []);
    const { id } = await hh.account('Roth IRA', 10000, [{ productId: hh.BND, lots: [{ shares: 125, cost: 10000, acquired: daysAgo(400) }] }]);
    await k
      .insertInto('realized_sales')
      .values({ firm_id: t.firm.firmId, client_id: hh.clientId, account_id: seller.id, product_id: vtsaxId, trade_id: null, trade_date: daysAgo(12), acquired_date: daysAgo(100), shares_micros: 20e6, proceeds_cents: 200000, cost_cents: 240000, term: 'Short', gain_cents: -40000, created_at: stamp })
      .execute();
    const batchId = await generate({ reason: 'NeedReview', keys: [id], taxOptions: {} });
    const trades = await tradesOf(batchId);
    expect(trades.map(row)).toEqual([`BUY ${hh.SCHB} 200 = 10000`]);
    const cause = `${vtsax} (same wash-sale group as ${vti.ticker}) was sold at a loss in account ${seller.id} of the household within 30 days`;
    expect(trades[0]!.explanation).toContain(`${schb} instead of ${vti.ticker}: ${cause} (wash-sale rule)`);
    const details = (await get(`/api/Trading/TradeGenerationStatus/${batchId}/Message`)).json().details as { severity: string; message: string; entityId: number }[];
    expect(details).toContainEqual(expect.objectContaining({ severity: 'Info', entityId: id, message: `buy of ${vti.ticker} moved to ${schb}: ${cause}` }));
  });

  it("reads a household's recent buys only when the chunk holds one of its taxable accounts (only taxable sells heed them); its loss sales always", async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 50);
    const ira = await hh.account('Traditional IRA', 0, [{ productId: hh.VTI, lots: [{ shares: 10, cost: 2000, acquired: daysAgo(5) }] }]);
    const taxable = await hh.account('Individual', 0, [{ productId: hh.BND, lots: [{ shares: 10, cost: 800, acquired: daysAgo(400) }] }]);
    await t.db.kysely
      .insertInto('realized_sales')
      .values({ firm_id: t.firm.firmId, client_id: hh.clientId, account_id: taxable.id, product_id: hh.SCHB, trade_id: null, trade_date: daysAgo(10), acquired_date: daysAgo(100), shares_micros: 10e6, proceeds_cents: 50000, cost_cents: 60000, term: 'Short', gain_cents: -10000, created_at: stamp })
      .execute();
    const lossSale = { productId: hh.SCHB, date: daysAgo(10), kind: 'LossSale', accountId: taxable.id };
    const chunkOf = (ids: number[]) => t.db.kysely.selectFrom('accounts').select(['id', 'registration_id']).where('id', 'in', ids).orderBy('id').execute();
    const { tax: alone } = await loadTaxInputs(t.db.kysely, t.firm.firmId, await chunkOf([ira.id]), daysAgo(0));
    expect(alone.households.get(hh.clientId)?.recentTrades).toEqual([lossSale]);
    const { tax: both } = await loadTaxInputs(t.db.kysely, t.firm.firmId, await chunkOf([ira.id, taxable.id]), daysAgo(0));
    expect(both.households.get(hh.clientId)?.recentTrades).toEqual([lossSale, { productId: hh.VTI, date: daysAgo(5), kind: 'Buy' }]);
  });

  it("counts the open orders of the chunk's accounts, read with their household's, as executed: a second tax-aware run trades nothing more", async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 50);
    const { id } = await hh.account('Individual', 10000, [{ productId: hh.BND, lots: [{ shares: 125, cost: 10000, acquired: daysAgo(400) }] }]);
    const first = await tradesOf(await generate({ reason: 'NeedReview', keys: [id], taxOptions: {} }));
    expect(first.map(row)).toEqual([`BUY ${hh.VTI} 50 = 10000`]);
    const again = await generate({ reason: 'NeedReview', keys: [id], taxOptions: {} });
    expect(await tradesOf(again)).toEqual([]);
    const details = (await get(`/api/Trading/TradeGenerationStatus/${again}/Message`)).json().details as { entityId: number; message: string }[];
    expect(details).toContainEqual(expect.objectContaining({ entityId: id, message: `1 open order of trade instance ${first[0]!.tradeInstanceId} counted as executed: buys $10,000.00` }));
  });

  it('without taxOptions the trades carry no lots and the tax summary is empty', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 25);
    const { id } = await hh.account('Individual', 20000, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 15000, acquired: daysAgo(800) }] }]);
    const batchId = await generate({ reason: 'NeedReview', keys: [id] });
    const trades = await tradesOf(batchId);
    expect(trades.map(row)).toEqual([`SELL ${hh.VTI} 50 = 10000`, `BUY ${hh.BND} 375 = 30000`]);
    expect(trades.every((x) => x.lots === undefined && x.estimatedLongTermGain === undefined && x.explanation.length > 0)).toBe(true);
    expect((await get(`/api/Trading/TradeGenerationStatus/${batchId}/TaxSummary`)).json()).toEqual([]);
  });

  describe('bad input: a 400 naming the field, and nothing written', () => {
    const cases: [string, object, string][] = [
      ['an unknown lot method', { reason: 'NeedReview', taxOptions: { lotSelection: 'LIFO' } }, 'taxOptions.lotSelection'],
      ['a negative budget', { reason: 'NeedReview', taxOptions: { maxShortTermGain: -1 } }, 'taxOptions.maxShortTermGain'],
      ['harvesting without a threshold', { reason: 'NeedReview', taxOptions: { harvestLosses: { minLossDollars: 100 } } }, 'taxOptions.harvestLosses'],
      ['TaxLossHarvest without harvestLosses', { reason: 'TaxLossHarvest', taxOptions: {} }, 'taxOptions.harvestLosses'],
      ['harvesting on a Withdraw', { reason: 'Withdraw', amounts: [100], taxOptions: { harvestLosses: { minLossDollars: 0, minLossPercent: 0 } } }, 'taxOptions.harvestLosses'],
      ['tax options at level Registration', { reason: 'NeedReview', level: 'Registration', taxOptions: {} }, 'taxOptions'],
    ];
    for (const [what, body, field] of cases) {
      it(what, async () => {
        const before = await t.db.kysely.selectFrom('trade_instances').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        const response = await post('/api/Trading/GenerateTrades', { routine: 'Rebalance', entity: 'Account', keys: [1], ...body });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().detail).toContain(field);
        // A nullable object's other branch ("taxOptions must be null") is no reason to show.
        expect(response.json().detail).not.toContain('must be null');
        const after = await t.db.kysely.selectFrom('trade_instances').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        expect(Number(after.n)).toBe(Number(before.n));
      });
    }
  });

  it('TaxSummary pages by household, keeps one with householdId, counts on request, and names a bad parameter', async () => {
    const households = [];
    for (let i = 0; i < 3; i++) {
      const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 100);
      const { id } = await hh.account('Individual', 0, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 23000, acquired: daysAgo(60) }] }]);
      households.push({ clientId: hh.clientId, accountId: id });
    }
    const batchId = await generate({ reason: 'TaxLossHarvest', keys: households.map((h) => h.accountId), taxOptions: { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } } });
    const url = `/api/Trading/TradeGenerationStatus/${batchId}/TaxSummary`;
    const all = (await get(url)).json<{ householdId: number }[]>();
    expect(all.map((h) => h.householdId)).toEqual(households.map((h) => h.clientId).sort((a, b) => a - b));
    const first = await get(`${url}?$top=2&$count=true`);
    expect(first.headers['x-total-count']).toBe('3');
    expect(first.json()).toEqual(all.slice(0, 2));
    expect((await get(`${url}?$top=2&$skip=2`)).json()).toEqual(all.slice(2));
    expect((await get(`${url}?$top=2&$skip=5&$count=true`)).headers['x-total-count']).toBe('3');
    const one = await get(`${url}?householdId=${all[1]!.householdId}&$count=true`);
    expect(one.json()).toEqual([all[1]]);
    expect(one.headers['x-total-count']).toBe('1');
    for (const [query, field] of [['$top=1001', '$top'], ['$skip=-1', '$skip'], ['householdId=0', 'householdId']]) {
      const refused = await get(`${url}?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(JSON.stringify(refused.json()), query).toContain(field);
    }
  });

  it('TaxSummary: 401 without a session, 404 for a batch of another firm', async () => {
    const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 100);
    const { id } = await hh.account('Individual', 0, [{ productId: hh.VTI, lots: [{ shares: 10, cost: 2000, acquired: daysAgo(60) }] }]);
    const batchId = await generate({ reason: 'NeedReview', keys: [id], taxOptions: {} });
    expect((await t.app.inject({ url: `/api/Trading/TradeGenerationStatus/${batchId}/TaxSummary` })).statusCode).toBe(401);
    expect((await get(`/api/Trading/TradeGenerationStatus/${batchId}/TaxSummary`, await t.session('advisor', 'otherFirm'))).statusCode).toBe(404);
  });
});
