// What GenerateTrades and the trading lists promise at the edge: unknown options refused, the
// docs' requests run as written, answers bounded and saying what they leave out. Both databases.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { daysAgo, household } from './tax-test-support.js';

/** The JSON requests docs/tax-aware.md shows, in order. */
const docsRequests = (): Record<string, unknown>[] => {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'tax-aware.md'), 'utf8');
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>).filter((body) => 'taxOptions' in body);
};

describeEachDatabase('the trading contract: nothing accepted silently, bounded answers', (database) => {
  const t = useTestApp(database);
  let book: TestBook;
  let session: string;
  beforeAll(async () => {
    book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    session = await t.session('advisor');
  });
  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: session } });
  const get = (url: string) => t.app.inject({ url, headers: { authorization: session } });
  const batchCount = async () => Number((await t.db.kysely.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('refuses an unknown field of taxOptions, of harvestLosses and of a fill with a 400 naming it, and starts nothing', async () => {
    const account = await book.account();
    const before = await batchCount();
    const rebalance = { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: [account] };
    const cases: [object, { field: string; message: string }][] = [
      [{ ...rebalance, taxOptions: { lotSelect: 'HIFO' } }, { field: 'taxOptions.lotSelect', message: 'is not a known field' }],
      [{ ...rebalance, reason: 'TaxLossHarvest', taxOptions: { harvestLosses: { minLossDollars: 1000, minLossPct: 5 } } }, { field: 'taxOptions.harvestLosses.minLossPct', message: 'is not a known field' }],
      [{ ...rebalance, reason: 'TaxLossHarvest', taxOptions: { harvestLosses: { minLossDollars: 1000 } } }, { field: 'taxOptions.harvestLosses.minLossPercent', message: 'is required' }],
      [{ ...rebalance, routine: 'Trade' }, { field: 'routine', message: 'must be one of Rebalance, QuickTrade' }],
      [{ routine: 'QuickTrade', trades: [{ accountId: account, productId: book.products.VTI, tradeType: 'Shares', amount: 1, side: '3' }] }, { field: 'trades[0].side', message: 'must be one of 1, 2' }],
    ];
    for (const [payload, error] of cases) {
      const response = await post('/api/Trading/GenerateTrades', payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors, JSON.stringify(payload)).toContainEqual(error);
    }
    for (const payload of ['"S"', 'null', '[]']) {
      const response = await t.app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', payload, headers: { authorization: session, 'content-type': 'application/json' } });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'body', message: 'must be object' }]);
    }
    expect(await batchCount()).toBe(before);
    // A body without routine is still a rebalance.
    const { routine: _omitted, ...withoutRoutine } = rebalance;
    expect((await post('/api/Trading/GenerateTrades?wait=true', withoutRoutine)).statusCode).toBe(200);
  });

  it('runs every tax-aware request docs/tax-aware.md shows, and the harvest gives the trades it names', async () => {
    const requests = docsRequests();
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const request of requests) {
      const hh = await household(t.db.kysely, t.firm.firmId, t.firm.representativeId, 100);
      const { id } = await hh.account('Individual', 0, [{ productId: hh.VTI, lots: [{ shares: 100, cost: 23000, acquired: daysAgo(60) }] }]);
      const response = await post('/api/Trading/GenerateTrades?wait=true', { ...request, keys: [id] });
      expect(response.statusCode, `${JSON.stringify(request)} → ${response.body}`).toBe(200);
      const status = (await get(`/api/Trading/TradeGenerationStatus/${response.json()}`)).json();
      expect(status.status).toBe('Complete');
      const trades = (await get(`/api/Trading/TradeInstances/${status.tradeInstanceId}/Trades`)).json<{ action: string; productId: number; shares: number }[]>();
      if (request.reason === 'TaxLossHarvest') {
        expect(trades.map((x) => [x.action, x.productId, x.shares])).toEqual([['SELL', hh.VTI, 100], ['BUY', hh.SCHB, 400]]);
      }
    }
  });

  it('refuses a fill with an unknown field', async () => {
    const account = await book.account();
    const batchId = (await post('/api/Trading/GenerateTrades?wait=true', { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: [account] })).json<number>();
    const instanceId = (await get(`/api/Trading/TradeGenerationStatus/${batchId}`)).json().tradeInstanceId;
    const [trade] = (await get(`/api/Trading/TradeInstances/${instanceId}/Trades`)).json<{ id: number }[]>();
    const response = await post(`/api/Trading/TradeInstances/${instanceId}/Trades/${trade!.id}/Action/Execute`, { shares: 1, pricePerShare: 10 });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field: 'pricePerShare', message: 'is not a known field' }]);
    expect((await get(`/api/Trading/TradeInstances/${instanceId}/Trades`)).json()[0].status).toBe('Open');
  });

  it('answers a body over the limit with 413 naming the limit in bytes', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Trading/GenerateTrades',
      headers: { authorization: session, 'content-type': 'application/json' },
      payload: `{"routine":"Rebalance","keys":[${'1,'.repeat(11 * 1024 * 1024)}1]}`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ status: 413, detail: `Request body is larger than the limit of ${20 * 1024 * 1024} bytes` });
  });

  it('pages the trade instances with a total on request and the next page while there is one', async () => {
    for (let i = 0; i < 3; i++) await post('/api/Trading/GenerateTrades?wait=true', { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: [await book.account()] });
    const all = (await get('/api/Trading/TradeInstances?$top=1000')).json<{ id: number }[]>();
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = await get('/api/Trading/TradeInstances?$top=2&$count=true');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(all.slice(0, 2));
    expect(first.headers['x-total-count']).toBe(String(all.length));
    expect(first.headers.link).toBe('</api/Trading/TradeInstances?$top=2&$count=true&$skip=2>; rel="next"');
    const last = await get(`/api/Trading/TradeInstances?$top=2&$skip=${all.length - 1}&$count=true`);
    expect(last.json()).toEqual(all.slice(-1));
    expect(last.headers.link).toBeUndefined();
    expect((await get('/api/Trading/TradeInstances?$top=0')).json().errors).toEqual([{ field: 'querystring.$top', message: 'must be >= 1' }]);
  });
});
