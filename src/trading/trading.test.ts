import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { type TradeOut, tradingCalls } from '../../test/support/trading.js';


describeEachDatabase('rebalance jobs through the trading API', (database) => {
  const t = useTestApp(database);
  let book: TestBook;
  let session: string;
  beforeAll(async () => {
    book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    session = await t.session('advisor');
  });
  const post = (url: string, payload: unknown, authorization = session) => t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization } });
  const get = (url: string, authorization = session) => t.app.inject({ url, headers: { authorization } });
  const { generate, tradesOf } = tradingCalls(t, () => session);

  it('answers the trade definition filled from the firm\'s settings', async () => {
    const response = await get('/api/Trading/TradeDefinition?routine=rebalance');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ reason: 'NeedReview', maxTrades: 1000, level: 'Account', entity: 'Account', routine: 'Rebalance', assetValues: 'PendingTransactionsAndOrders', roundingLogic: 'Default', useProductSubstitution: 'Use', includeCustodialCash: true, keys: [], amounts: [] });
    expect((await get('/api/Trading/TradeDefinition?routine=quicktrade')).statusCode).toBe(400);
  });

  it('NeedReview with wait=true: Complete, trades stored as open orders, and a second run produces none', async () => {
    const account = await book.account();
    const batchId = await generate({ reason: 'NeedReview', keys: [account], notes: 'quarterly' });
    const status = (await get(`/api/Trading/TradeGenerationStatus/${batchId}`)).json();
    expect(status).toMatchObject({ id: batchId, status: 'Complete', isDone: true, totalItems: 1, itemsCompleted: 1, errorCount: 0, parentId: null, details: null, message: '' });
    const trades = await tradesOf(batchId);
    expect(trades.map((x) => [x.productId, x.action])).toEqual([
      [book.products.VTI, 'SELL'],
      [book.products.BND, 'BUY'],
    ]);
    for (const trade of trades) {
      expect(trade.status).toBe('Open');
      expect(trade.amount).toBeCloseTo(trade.shares * trade.price, 2);
      expect(trade.reason).toMatch(/tolerance|target/);
    }
    const instance = (await get(`/api/Trading/TradeInstances/${status.tradeInstanceId}`)).json();
    expect(instance).toMatchObject({ routine: 'Rebalance', notes: 'quarterly', status: 'Open', batchProcessingId: batchId, tradeCount: 2 });

    const again = await generate({ reason: 'NeedReview', keys: [account] });
    expect(await tradesOf(again)).toEqual([]);
    expect((await get(`/api/Trading/TradeGenerationStatus/${again}`)).json().status).toBe('Complete');
  });

  it('Withdraw raises the amount in cash by selling', async () => {
    const account = await book.account({ cash: 0, holdings: { VTI: 300, BND: 250 } });
    const trades = await tradesOf(await generate({ reason: 'Withdraw', keys: [account], amounts: [10_000] }));
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((x) => x.action === 'SELL')).toBe(true);
    expect(trades.reduce((sum, x) => sum + x.amount, 0)).toBeGreaterThanOrEqual(10_000);
  });

  it('Add spends the contribution buying', async () => {
    const account = await book.account({ cash: 20_000, holdings: { VTI: 300, BND: 250 } });
    const trades = await tradesOf(await generate({ reason: 'Add', keys: [account], amounts: [20_000] }));
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((x) => x.action === 'BUY')).toBe(true);
    const spent = trades.reduce((sum, x) => sum + x.amount, 0);
    expect(spent).toBeGreaterThan(15_000);
    expect(spent).toBeLessThanOrEqual(20_000);
  });

  it('Withdraw100Pct sells every position to zero', async () => {
    const account = await book.account({ holdings: { VTI: 10, BND: 20, VXUS: 5 } });
    const trades = await tradesOf(await generate({ reason: 'Withdraw100Pct', keys: [account] }));
    expect(trades.map((x) => [x.productId, x.action, x.shares]).sort()).toEqual(
      [
        [book.products.VTI, 'SELL', 10],
        [book.products.BND, 'SELL', 20],
        [book.products.VXUS, 'SELL', 5],
      ].sort(),
    );
  });

  it('without wait returns at once; polling sees Complete', async () => {
    const account = await book.account();
    const batchId = await generate({ reason: 'NeedReview', keys: [account] }, false);
    let status = (await get(`/api/Trading/TradeGenerationStatus/${batchId}`)).json();
    for (let i = 0; i < 200 && !status.isDone; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await get(`/api/Trading/TradeGenerationStatus/${batchId}`)).json();
    }
    expect(status).toMatchObject({ status: 'Complete', isDone: true, itemsCompleted: 1 });
  });

  it('a batch with an unknown account ends Failed, names it in /Message, and the other accounts keep their trades', async () => {
    const good = await book.account();
    const noModel = await book.account({ modelId: null });
    const batchId = await generate({ reason: 'NeedReview', keys: [good, 999_999, noModel] });
    const status = (await get(`/api/Trading/TradeGenerationStatus/${batchId}`)).json();
    expect(status).toMatchObject({ status: 'Failed', isDone: true, totalItems: 3, itemsCompleted: 3, errorCount: 2, parentId: status.tradeInstanceId });
    expect(status.message).toMatch(/error/i);
    const message = (await get(`/api/Trading/TradeGenerationStatus/${batchId}/Message`)).json();
    expect(message).toMatchObject({ entityId: status.tradeInstanceId, entityEnum: 'TradeInstance', severity: 'Failed', severityCode: 2 });
    const errors = message.details.filter((d: { severity: string }) => d.severity === 'Error');
    expect(errors).toContainEqual({ severityCode: 0, severity: 'Error', message: 'account 999999 does not exist', entityEnum: 'Account', entityId: 999_999 });
    expect(errors.some((d: { entityId: number }) => d.entityId === noModel)).toBe(true);
    expect((await tradesOf(batchId)).every((x) => x.accountId === good)).toBe(true);
    expect((await tradesOf(batchId)).length).toBeGreaterThan(0);
  });

  it('/Message of a batch with thousands of account errors names every one, 1000 details a page, with the total and the next page', async () => {
    const unknown = Array.from({ length: 2500 }, (_, i) => 800_000 + i);
    const batchId = await generate({ reason: 'NeedReview', keys: [await book.account(), ...unknown] });
    const named: number[] = [];
    let url: string | undefined = `/api/Trading/TradeGenerationStatus/${batchId}/Message`;
    const pages: number[] = [];
    while (url) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['x-total-count']).toBe('2500');
      const message = response.json();
      // Spec section 7 rule 3: a failed batch, with its messages.
      expect(message).toMatchObject({ entityEnum: 'TradeInstance', severity: 'Failed', subject: 'Trade generation failed' });
      pages.push(message.details.length);
      named.push(...message.details.filter((d: { severity: string }) => d.severity === 'Error').map((d: { entityId: number }) => d.entityId));
      url = /^<([^>]+)>; rel="next"$/.exec(String(response.headers.link ?? ''))?.[1];
    }
    expect(pages).toEqual([1000, 1000, 500]);
    expect(named.sort((a, b) => a - b)).toEqual(unknown);
    // Details come in the order they were written; chunks of one batch may finish out of order on
    // PostgreSQL (two workers), so the last page holds the last five written, whichever accounts.
    const page = await get(`/api/Trading/TradeGenerationStatus/${batchId}/Message?$top=10&$skip=2495`);
    const lastFive: number[] = page.json().details.map((d: { entityId: number }) => d.entityId);
    expect(lastFive).toHaveLength(5);
    expect(lastFive.every((id) => unknown.includes(id))).toBe(true);
    expect(page.headers.link).toBeUndefined();
    expect((await get(`/api/Trading/TradeGenerationStatus/${batchId}/Message?$top=10001`)).json().errors).toEqual([{ field: 'querystring.$top', message: 'must be <= 10000' }]);
  });

  it('rebalances a trade group and a model aggregate by expanding them into their accounts', async () => {
    const a = await book.account();
    const b = await book.account();
    const group = await t.db.kysely.insertInto('trade_groups').values({ firm_id: t.firm.firmId, name: 'Group' }).returning('id').executeTakeFirstOrThrow();
    await t.db.kysely.insertInto('trade_group_accounts').values([a, b].map((account_id) => ({ firm_id: t.firm.firmId, trade_group_id: group.id, account_id }))).execute();
    const viaGroup = (await get(`/api/Trading/TradeGenerationStatus/${await generate({ reason: 'NeedReview', entity: 'TradeGroup', keys: [group.id] })}`)).json();
    expect(viaGroup).toMatchObject({ status: 'Complete', totalItems: 2 });

    const agg = await t.db.kysely.insertInto('model_aggs').values({ firm_id: t.firm.firmId, name: 'Agg' }).returning('id').executeTakeFirstOrThrow();
    await t.db.kysely.insertInto('model_agg_models').values({ firm_id: t.firm.firmId, model_agg_id: agg.id, model_id: book.modelId, weight_pct: 100 }).execute();
    const viaAgg = (await get(`/api/Trading/TradeGenerationStatus/${await generate({ reason: 'NeedReview', entity: 'ModelAgg', keys: [agg.id] })}`)).json();
    expect(viaAgg.status).toBe('Complete');
    expect(viaAgg.totalItems).toBeGreaterThanOrEqual(2);
  });

  it('refuses bad requests with a 400 naming the field and creates no batch', async () => {
    const account = await book.account();
    const before = await t.db.kysely.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const cases: [object, string, RegExp][] = [
      [{ reason: 'Rebalance', keys: [account] }, 'reason', /must be one of NeedReview, Withdraw, Add, Withdraw100Pct/],
      [{ reason: 'NeedReview', keys: [account], roundingLogic: 'Up' }, 'roundingLogic', /must be one of/],
      [{ reason: 'NeedReview', keys: [] }, 'keys', /fewer than 1/],
      [{ reason: 'Withdraw', keys: [account], amounts: [] }, 'amounts', /one amount per key/],
      [{ reason: 'Withdraw', keys: [account, account + 1], amounts: [100] }, 'amounts', /one amount per key/],
      [{ reason: 'Add', entity: 'TradeGroup', keys: [1], amounts: [100] }, 'entity', /only Account/],
      [{ reason: 'Add', keys: [account], amounts: [-5] }, 'amounts[0]', /must be >= 0/],
      [{ reason: 'NeedReview', entity: 'TradeGroup', keys: [424242] }, 'keys[0]', /TradeGroup 424242 does not exist/],
      [{ reason: 'NeedReview', entity: 'Portfolio', keys: [1] }, 'entity', /must be one of/],
    ];
    for (const [payload, field, message] of cases) {
      const response = await post('/api/Trading/GenerateTrades', { routine: 'Rebalance', entity: 'Account', ...payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const problem = response.json().errors.find((e: { field: string }) => e.field === field);
      expect(problem, `${JSON.stringify(payload)} → ${response.body}`).toBeDefined();
      expect(problem.message).toMatch(message);
    }
    expect((await post('/api/Trading/GenerateTrades', { routine: 'Trade', reason: 'NeedReview', entity: 'Account', keys: [account] })).json().errors[0].field).toBe('routine');
    const after = await t.db.kysely.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('cancels a trade instance: its trades stop counting and the next rebalance trades again', async () => {
    const account = await book.account();
    const first = await generate({ reason: 'NeedReview', keys: [account] });
    const instanceId = (await get(`/api/Trading/TradeGenerationStatus/${first}`)).json().tradeInstanceId;
    const cancelled = await post(`/api/Trading/TradeInstances/${instanceId}/Action/Cancel`, {});
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'Cancelled', cancelledBy: t.firm.users.advisor.userName });
    expect((await tradesOf(first)).every((x) => x.status === 'Cancelled')).toBe(true);
    expect((await tradesOf(await generate({ reason: 'NeedReview', keys: [account] }))).length).toBeGreaterThan(0);
    expect((await get('/api/Trading/TradeInstances?$top=5')).json()[0].id).toBeGreaterThan(instanceId);
  });

  it('keeps batches and instances to their firm and checks privileges', async () => {
    const account = await book.account();
    const batchId = await generate({ reason: 'NeedReview', keys: [account] });
    const stranger = await t.session('admin', 'otherFirm');
    expect((await get(`/api/Trading/TradeGenerationStatus/${batchId}`, stranger)).statusCode).toBe(404);
    expect((await get(`/api/Trading/TradeGenerationStatus/${batchId}/Message`, stranger)).statusCode).toBe(404);
    // Another firm's account id is an unknown account there: the batch fails and touches nothing.
    const foreign = (await post('/api/Trading/GenerateTrades?wait=true', { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: [account] }, stranger)).json();
    expect((await get(`/api/Trading/TradeGenerationStatus/${foreign}`, stranger)).json()).toMatchObject({ status: 'Failed', errorCount: 1 });
    expect((await post('/api/Trading/GenerateTrades', { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: [account] }, await t.session('reader'))).statusCode).toBe(403);
  });

  it("pages an instance's trades in id order with the instance's total and the next page; one account's with accountId, counted on request", async () => {
    const accounts = [await book.account(), await book.account(), await book.account()];
    const status = (await get(`/api/Trading/TradeGenerationStatus/${await generate({ reason: 'NeedReview', keys: accounts })}`)).json();
    const url = `/api/Trading/TradeInstances/${status.tradeInstanceId}/Trades`;
    const all = (await get(`${url}?$top=1000`)).json<(TradeOut & { id: number })[]>();
    expect(all).toHaveLength(6);
    expect(all.map((x) => x.id)).toEqual([...all.map((x) => x.id)].sort((a, b) => a - b));
    expect((await get(`/api/Trading/TradeInstances/${status.tradeInstanceId}`)).json().tradeCount).toBe(6);

    const first = await get(`${url}?$top=4&$count=true`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe('6');
    expect(first.json()).toEqual(all.slice(0, 4));
    // A truncated page says so, $count or not: the total, and where the rest is.
    const truncated = await get(`${url}?$top=4`);
    expect(truncated.headers['x-total-count']).toBe('6');
    expect(truncated.headers.link).toBe(`<${url}?$top=4&$skip=4>; rel="next"`);
    const last = await get(`${url}?$top=4&$skip=4`);
    expect(last.json()).toEqual(all.slice(4));
    expect(last.headers['x-total-count']).toBe('6');
    expect(last.headers.link).toBeUndefined();
    expect((await get(`${url}?$skip=6&$count=true`)).json()).toEqual([]);
    // Past the end the count is still the instance's.
    expect((await get(`${url}?$top=2&$skip=10&$count=true`)).headers['x-total-count']).toBe('6');

    const second = await get(`${url}?accountId=${accounts[1]}&$count=true`);
    expect(second.json()).toEqual(all.filter((x) => x.accountId === accounts[1]));
    expect(second.headers['x-total-count']).toBe('2');
    expect((await get(`${url}?accountId=${accounts[1]}&$top=1&$skip=1`)).json()).toEqual(all.filter((x) => x.accountId === accounts[1]).slice(1));
    expect((await get(`${url}?accountId=99999999`)).json()).toEqual([]);

    for (const [query, field] of [
      ['$top=0', '$top'],
      ['$top=1001', '$top'],
      ['$skip=-1', '$skip'],
      ['accountId=0', 'accountId'],
      ['accountId=abc', 'accountId'],
    ]) {
      const refused = await get(`${url}?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(JSON.stringify(refused.json()), query).toContain(field);
    }
    expect((await get('/api/Trading/TradeInstances/99999999/Trades')).statusCode).toBe(404);
    const stranger = await t.session('admin', 'otherFirm');
    expect((await get(url, stranger)).statusCode).toBe(404);
  });

  it('takes more keys than a statement binds: 40,000 accounts by household (tax-aware) and by registration', async () => {
    // A registration of its own: the level Registration run takes every account of it.
    const account = await (await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId)).account();
    const keys = [account, ...Array.from({ length: 40_000 }, (_, i) => 50_000_000 + i)];
    for (const extra of [{ taxOptions: {} }, { level: 'Registration' }]) {
      const response = await post('/api/Trading/GenerateTrades?wait=true', { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys, ...extra });
      expect(response.statusCode, response.body).toBe(200);
      const status = (await get(`/api/Trading/TradeGenerationStatus/${response.json<number>()}`)).json();
      expect(status).toMatchObject({ status: 'Failed', totalItems: 40_001, itemsCompleted: 40_001, errorCount: 40_000 });
    }
  });
  it('a rebalance shaped by an open instance\'s orders says so in the account\'s messages: which instance and how much', async () => {
    const account = await book.account();
    const first = await generate({ reason: 'NeedReview', keys: [account] });
    const instanceId = (await get(`/api/Trading/TradeGenerationStatus/${first}`)).json().tradeInstanceId;
    const trades = await tradesOf(first);
    const total = (action: string) => trades.filter((x) => x.action === action).reduce((sum, x) => sum + Math.round(x.amount * 100), 0) / 100;
    const dollars = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    const noted = async (batchId: number) =>
      ((await get(`/api/Trading/TradeGenerationStatus/${batchId}/Message`)).json().details ?? []).filter((d: { message: string }) => /counted as executed/.test(d.message));
    expect(await noted(first)).toEqual([]);

    const again = await generate({ reason: 'NeedReview', keys: [account] });
    expect(await tradesOf(again)).toEqual([]);
    const status = (await get(`/api/Trading/TradeGenerationStatus/${again}`)).json();
    expect(status).toMatchObject({ status: 'Complete', errorCount: 0, warningCount: 0 });
    expect(await noted(again)).toEqual([
      {
        severityCode: expect.any(Number),
        severity: 'Info',
        entityEnum: 'Account',
        entityId: account,
        message: `2 open orders of trade instance ${instanceId} counted as executed: buys ${dollars(total('BUY'))}, sells ${dollars(total('SELL'))}`,
      },
    ]);
    // Asked to leave orders out, the run trades again and says nothing of them.
    const ignoring = await generate({ reason: 'NeedReview', keys: [account], assetValues: 'Current' });
    expect((await tradesOf(ignoring)).length).toBeGreaterThan(0);
    expect(await noted(ignoring)).toEqual([]);
  });
});
