import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { rebalancerSession } from '../../../test/support/rebalancer.js';
import { tradingCalls } from '../../../test/support/trading.js';
import { seedDemoFirm } from '../../seed/demo.js';

interface Sleeve {
  accountId: number;
  sleeveType: string;
  targetAllocation: number | null;
  toleranceLower: number | null;
  toleranceUpper: number | null;
  currentAllocation: number;
  currentValue: number;
  [key: string]: unknown;
}
type Band = { productId: number; target: number; lower: number; upper: number };

/**
 * Sleeves end to end through HTTP: a one-account registration is sleeved into three sleeves with
 * different models, funded, one sleeve is pushed out of its band by a price move, and a
 * registration-level rebalance moves cash from it to the others and brings every sleeve back.
 */
describeEachDatabase('sleeved registration rebalanced at level Registration, end to end', (database) => {
  const t = useTestApp(database);
  let session: string;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const response = await t.app.inject({ method, url, payload: payload as object, headers: { authorization: session } });
    if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const today = new Date().toISOString().slice(0, 10);
  const products: Record<string, number> = {};
  const prices: Record<string, number> = { EQA: 100, EQB: 50, BND: 80, INTL: 40, EM: 25 };
  let registrationId: number;
  let sleeves: { growth: number; income: number; intl: number };
  let bands: Record<number, Band[]>;
  let transferInstanceId: number;

  const trading = tradingCalls(t, () => session);
  /** A registration-level rebalance of the sleeved registration: its status, trades, transfers and warnings. */
  const generate = async () => {
    const batchId = await trading.generate({ reason: 'NeedReview', level: 'Registration', keys: [sleeves.growth] });
    const status = await trading.status(batchId);
    expect(status.isDone).toBe(true);
    const message = await trading.messageOf(batchId);
    return {
      status,
      trades: await trading.tradesOf(batchId),
      transfers: await trading.transfersOf(status.tradeInstanceId),
      warnings: message.details.filter((d) => d.severity === 'Warning').map((d) => d.message),
    };
  };
  const state = async (): Promise<Sleeve[]> => (await call('GET', `/api/v1/Trading/Sleeve/Registrations/${registrationId}`)).accountSleeves;

  beforeAll(async () => {
    session = await t.session('advisor');
    for (const [ticker, price] of Object.entries(prices)) {
      products[ticker] = (await call('POST', '/api/v1/Portfolio/Products/Verbose', { ticker: `${ticker}X`, name: `${ticker} fund`, type: 'ETF', price })).id;
    }
    await call('POST', '/api/v1/Portfolio/Products/Prices', Object.entries(prices).map(([ticker, price]) => ({ productId: products[ticker], date: '2026-01-05', price })));
    const rebalancer = await rebalancerSession(t, 'advisor');
    const model = async (name: string, targets: [string, number, number][], cash: number) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/rebalancer/v1/modeling/models',
        headers: { authorization: rebalancer },
        payload: { name, cashTargetPercent: cash, cashUpperTolerance: cash > 0 ? 2 : 0, targets: targets.map(([ticker, targetPercent, tol]) => ({ productId: products[ticker], targetPercent, lowerTolerance: tol, upperTolerance: tol })) },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().id as number;
    };
    const growth = await model('E2E Growth', [['EQA', 60, 5], ['EQB', 35, 5]], 5);
    const income = await model('E2E Income', [['BND', 95, 3]], 5);

    const client = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'Sleeve Household', representativeId: t.firm.representativeId });
    registrationId = (await call('POST', '/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: 'Sleeve Joint', type: 'Joint' })).id;
    const account = await call('POST', '/api/v1/Portfolio/Accounts/Verbose', { registrationId, number: 'E2E-100', name: 'Joint custodial', custodian: 'Schwab', cash: 0 });

    const read = await call('GET', `/api/v1/Trading/Sleeve/Registrations/${registrationId}`);
    const processed = await call('POST', '/api/v1/Trading/Sleeve/Registrations/Action/Process', {
      ...read,
      accountSleeves: [
        ...read.accountSleeves,
        { sleeveDescription: 'Growth', targetAllocation: 50, toleranceLower: 5, toleranceUpper: 5, modelAggId: growth },
        { sleeveDescription: 'Income', targetAllocation: 30, toleranceLower: 5, toleranceUpper: 5, modelAggId: income },
        {
          sleeveDescription: 'International',
          targetAllocation: 20,
          toleranceLower: 5,
          toleranceUpper: 5,
          modelAllocations: [
            { productId: products.INTL, targetPercent: 60, lowerTolerance: 5, upperTolerance: 5 },
            { productId: products.EM, targetPercent: 40, lowerTolerance: 5, upperTolerance: 5 },
          ],
        },
      ],
    });
    const [custodial, g, i, x] = processed.accountSleeves as Sleeve[];
    expect(custodial).toMatchObject({ accountId: account.id, sleeveType: 'Custodial Account' });
    sleeves = { growth: g!.accountId, income: i!.accountId, intl: x!.accountId };
    bands = {
      [sleeves.growth]: [{ productId: products.EQA!, target: 60, lower: 5, upper: 5 }, { productId: products.EQB!, target: 35, lower: 5, upper: 5 }],
      [sleeves.income]: [{ productId: products.BND!, target: 95, lower: 3, upper: 3 }],
      [sleeves.intl]: [{ productId: products.INTL!, target: 60, lower: 5, upper: 5 }, { productId: products.EM!, target: 40, lower: 5, upper: 5 }],
    };

    // Funded at their models: $50,000 / $30,000 / $20,000.
    const fund = async (accountId: number, holdings: [string, number][], cash: number) => {
      await call('PUT', `/api/v1/Portfolio/Accounts/${accountId}/Positions`, holdings.map(([ticker, shares]) => ({ productId: products[ticker], shares, costBasis: shares * prices[ticker]! })));
      const record = await call('GET', `/api/v1/Portfolio/Accounts/Verbose/${accountId}`);
      await call('PUT', `/api/v1/Portfolio/Accounts/Verbose/${accountId}`, { registrationId: record.registrationId, number: record.number, name: record.name, custodian: record.custodian, modelId: record.modelId, cash });
    };
    await fund(sleeves.growth, [['EQA', 300], ['EQB', 350]], 2_500);
    await fund(sleeves.income, [['BND', 356]], 1_520);
    await fund(sleeves.intl, [['INTL', 300], ['EM', 320]], 0);
  });

  it('reports each sleeve\'s value and allocation from positions at their latest price plus cash', async () => {
    expect((await state()).map((s) => [s.sleeveType, s.currentValue, s.currentAllocation])).toEqual([
      ['Custodial Account', 0, 0],
      ['Normal Sleeve', 50_000, 50],
      ['Normal Sleeve', 30_000, 30],
      ['Normal Sleeve', 20_000, 20],
    ]);
  });

  it('a price move pushes the growth sleeve out of its band; a registration trade block means no trades', async () => {
    await call('POST', '/api/v1/Portfolio/Products/Prices', [{ productId: products.EQA, date: '2026-01-06', price: 150 }]);
    prices.EQA = 150;
    const [, growth, income, intl] = await state();
    expect(growth).toMatchObject({ currentValue: 65_000, currentAllocation: 56.5217 });
    expect([income!.currentAllocation, intl!.currentAllocation]).toEqual([26.087, 17.3913]);

    const reasons: { id: number; name: string }[] = await call('GET', '/api/v1/Trading/TradeBlocks/Reasons');
    const created = await call('POST', '/api/v1/Trading/TradeBlocks', [
      { id: 0, entityEnum: 6, entityId: registrationId, tradeBlockReasonId: reasons.find((r) => r.name === 'Manual')!.id, description: 'Client review', startDate: today },
    ]);
    const blocked = await generate();
    expect(blocked.trades).toEqual([]);
    expect(blocked.transfers).toEqual([]);
    expect(blocked.status).toMatchObject({ status: 'Complete', errorCount: 0 });
    expect(blocked.warnings).toEqual(Array(3).fill(`registration ${registrationId} is trade blocked (Manual: Client review); no trades`));
    await call('DELETE', `/api/v1/Trading/TradeBlocks/${created.successfulTradeBlocks[0].id}`);
  });

  it('moves cash from the overweight sleeve to the others; applied, every sleeve is inside its model\'s bands and its own band', async () => {
    const { status, trades, transfers } = await generate();
    expect(status).toMatchObject({ status: 'Complete', errorCount: 0, totalItems: 4 });
    // Sells in the overweight sleeve, only buys in the underweight ones.
    expect(trades.some((x) => x.accountId === sleeves.growth && x.action === 'SELL')).toBe(true);
    expect(trades.filter((x) => x.accountId !== sleeves.growth).every((x) => x.action === 'BUY')).toBe(true);
    expect(new Set(trades.filter((x) => x.action === 'BUY').map((x) => x.accountId))).toEqual(new Set([sleeves.growth, sleeves.income, sleeves.intl]));
    expect(transfers.map((x) => [x.accountId, x.amount])).toEqual([
      [sleeves.growth, -7_500],
      [sleeves.income, 4_500],
      [sleeves.intl, 3_000],
    ]);
    expect(transfers.find((x) => x.accountId === sleeves.growth)!.outOfBand).toBe(true);

    // Apply the trades and the transfers to the holdings.
    const values = new Map<number, number>();
    const holdings = new Map<number, Map<number, number>>();
    for (const accountId of Object.values(sleeves)) {
      const positions: { productId: number; shares: number }[] = await call('GET', `/api/v1/Portfolio/Accounts/${accountId}/Positions`);
      const shares = new Map(positions.map((p) => [p.productId, p.shares]));
      let cash: number = (await call('GET', `/api/v1/Portfolio/Accounts/Verbose/${accountId}`)).cash;
      for (const trade of trades.filter((x) => x.accountId === accountId)) {
        const sign = trade.action === 'BUY' ? 1 : -1;
        shares.set(trade.productId, (shares.get(trade.productId) ?? 0) + sign * trade.shares);
        cash -= sign * trade.amount;
      }
      cash += transfers.filter((x) => x.accountId === accountId).reduce((s, x) => s + x.amount, 0);
      expect(cash, `cash of sleeve ${accountId}`).toBeGreaterThanOrEqual(0);
      const priceOf = (productId: number) => prices[Object.keys(products).find((k) => products[k] === productId)!]!;
      values.set(accountId, [...shares].reduce((s, [p, n]) => s + n * priceOf(p), cash));
      holdings.set(accountId, new Map([...shares].map(([p, n]) => [p, n * priceOf(p)])));
    }
    const total = [...values.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(115_000, 6);
    for (const sleeve of (await state()).filter((s) => s.sleeveType === 'Normal Sleeve')) {
      const value = values.get(sleeve.accountId)!;
      const allocation = (value / total) * 100;
      expect(allocation).toBeGreaterThanOrEqual(sleeve.targetAllocation! - sleeve.toleranceLower!);
      expect(allocation).toBeLessThanOrEqual(sleeve.targetAllocation! + sleeve.toleranceUpper!);
      for (const band of bands[sleeve.accountId]!) {
        const weight = ((holdings.get(sleeve.accountId)!.get(band.productId) ?? 0) / value) * 100;
        expect(weight, `product ${band.productId} in sleeve ${sleeve.accountId}`).toBeGreaterThanOrEqual(band.target - band.lower);
        expect(weight, `product ${band.productId} in sleeve ${sleeve.accountId}`).toBeLessThanOrEqual(band.target + band.upper);
      }
    }

    // Its orders and transfers count until cancelled: a second run finds nothing to do.
    const again = await generate();
    expect(again.trades).toEqual([]);
    expect(again.transfers).toEqual([]);
    await call('POST', `/api/Trading/TradeInstances/${again.status.tradeInstanceId}/Action/Cancel`, {});
    await call('POST', `/api/Trading/TradeInstances/${status.tradeInstanceId}/Action/Cancel`, {});
    const cancelled = await trading.transfersOf(status.tradeInstanceId);
    expect(cancelled.map((x) => x.status)).toEqual(['Cancelled', 'Cancelled', 'Cancelled']);
    transferInstanceId = status.tradeInstanceId;
  });

  it('pages an instance\'s transfers: 1000 by default, $top/$skip in id order, the total always, the next page in Link', async () => {
    const path = `/api/Trading/TradeInstances/${transferInstanceId}/SleeveTransfers`;
    const get = (url: string) => t.app.inject({ url, headers: { authorization: session } });
    const whole = await get(path);
    const all = whole.json().map((x: { id: number }) => x.id);
    expect(all).toHaveLength(3);
    expect(whole.headers['x-total-count']).toBe('3');
    expect(whole.headers.link).toBeUndefined();
    const page = await get(`${path}?$top=1&$skip=1`);
    expect(page.json().map((x: { id: number }) => x.id)).toEqual(all.slice(1, 2));
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toBe(`<${path}?$top=1&$skip=2>; rel="next"`);
    const last = await get(`${path}?$top=2&$skip=2`);
    expect(last.json().map((x: { id: number }) => x.id)).toEqual(all.slice(2));
    expect(last.headers.link).toBeUndefined();
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=10001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await get(`${path}?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('registration-level do-not-trade through the sleeve batch stops the rebalance, with or without multi trade block', async () => {
    const batch = (doNotTrade: boolean) => call('PUT', `/api/v1/Trading/Sleeve/Registrations/Batch?syncToEclipse=true`, [{ registrationId, doNotTrade }]);
    await batch(true);
    const blocked = await generate();
    expect(blocked.trades).toEqual([]);
    expect(blocked.warnings[0]).toMatch(/registration \d+ is trade blocked \(Manual: Do not trade/);
    await batch(false);
    const free = await generate();
    expect(free.trades.length).toBeGreaterThan(0);
    await call('POST', `/api/Trading/TradeInstances/${free.status.tradeInstanceId}/Action/Cancel`, {});

    await t.db.kysely.updateTable('firms').set({ multi_trade_block: 0 }).where('id', '=', t.firm.firmId).execute();
    try {
      await batch(true);
      const legacy = await generate();
      expect(legacy.trades).toEqual([]);
      expect(legacy.warnings[0]).toMatch(/registration \d+ is trade blocked \(Manual: do-not-trade flag\)/);
      await batch(false);
      expect((await generate()).trades.length).toBeGreaterThan(0);
    } finally {
      await t.db.kysely.updateTable('firms').set({ multi_trade_block: 1 }).where('id', '=', t.firm.firmId).execute();
    }
  });

  it('serves the demo firm\'s sleeved registrations: a custodial system sleeve beside three or four Normal Sleeves, rebalanced by registration', async () => {
    const demo = await seedDemoFirm(t.db, { households: 60, seed: 11, asOf: today, firmCode: 'SLVDEMO' });
    const api = demo.users.find((u) => u.kind === 'api')!;
    const login = await t.app.inject({
      url: '/api/v1/security/token',
      headers: { authorization: `Basic ${Buffer.from(`${api.userName}:${api.password}`).toString('base64')}`, client_id: String(demo.partner.clientId), client_secret: demo.partner.clientSecret },
    });
    const authorization = `Session ${login.json().access_token}`;
    const registrations = await t.db.kysely.selectFrom('registrations').select('id').where('firm_id', '=', demo.firm.id).where('is_sleeved', '=', 1).orderBy('id').execute();
    expect(registrations.length).toBeGreaterThan(0);
    for (const { id } of registrations) {
      const read = await t.app.inject({ url: `/api/Trading/Sleeve/Registrations/${id}`, headers: { authorization } });
      expect(read.statusCode).toBe(200);
      const body = read.json();
      expect(body).toMatchObject({ isActive: true, asOfDate: today, autoRebalFrequency: 'None', createdBy: 'seed', custodialAccountNumber: expect.any(String) });
      const normal = (body.accountSleeves as Sleeve[]).filter((s) => s.sleeveType === 'Normal Sleeve');
      expect(body.accountSleeves.filter((s: Sleeve) => s.sleeveType === 'Custodial Account')).toHaveLength(1);
      expect(normal.length).toBeGreaterThanOrEqual(3);
      expect(normal.reduce((sum, s) => sum + s.targetAllocation!, 0)).toBe(100);
      expect(normal.reduce((sum, s) => sum + s.currentAllocation, 0)).toBeCloseTo(100, 2);
      // Read back unchanged, it processes as it is.
      const again = await t.app.inject({ method: 'POST', url: '/api/Trading/Sleeve/Registrations/Action/Process', headers: { authorization }, payload: body });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().accountSleeves).toEqual(body.accountSleeves);
    }
    const keys = (await t.app.inject({ url: `/api/Trading/Sleeve/Registrations/${registrations[0]!.id}`, headers: { authorization } })).json().accountSleeves.map((s: Sleeve) => s.accountId);
    const demoTrading = tradingCalls(t, () => authorization);
    expect(await demoTrading.status(await demoTrading.generate({ reason: 'NeedReview', level: 'Registration', keys }))).toMatchObject({ status: 'Complete', errorCount: 0, totalItems: keys.length });

    // Named one by one at account level, the model-less custodial sleeve is a warning, not a failure of the batch.
    const custodial = (await t.app.inject({ url: `/api/Trading/Sleeve/Registrations/${registrations[0]!.id}`, headers: { authorization } })).json().accountSleeves.find((s: Sleeve) => s.sleeveType === 'Custodial Account');
    const accountBatch = await demoTrading.generate({ reason: 'NeedReview', keys: [custodial.accountId] });
    expect(await demoTrading.status(accountBatch)).toMatchObject({ status: 'Complete', errorCount: 0 });
    expect((await demoTrading.messageOf(accountBatch)).details).toEqual([expect.objectContaining({ severity: 'Warning', message: expect.stringContaining(`account ${custodial.accountId} is the Custodial Account of registration ${registrations[0]!.id}`) })]);
  });

  it('answers 404 for the transfers of an unknown or foreign trade instance', async () => {
    const response = await t.app.inject({ url: '/api/Trading/TradeInstances/999999/SleeveTransfers', headers: { authorization: session } });
    expect(response.statusCode).toBe(404);
    const { status } = await generate();
    const foreign = await t.app.inject({ url: `/api/Trading/TradeInstances/${status.tradeInstanceId}/SleeveTransfers`, headers: { authorization: await t.session('admin', 'otherFirm') } });
    expect(foreign.statusCode).toBe(404);
    const reader = await t.app.inject({ url: `/api/Trading/TradeInstances/${status.tradeInstanceId}/SleeveTransfers`, headers: { authorization: await t.session('nobody') } });
    expect(reader.statusCode).toBe(403);
  });
});
