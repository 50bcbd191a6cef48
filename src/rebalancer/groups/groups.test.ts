import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { createAccount, rebalancerSession } from '../../../test/support/rebalancer.js';
import { tradingCalls } from '../../../test/support/trading.js';

/** The keys a TradeGroup or ModelAgg rebalance (section 2.9, entity and keys) takes. */
describeEachDatabase('trade groups and aggregate models', (database) => {
  const t = useTestApp(database);
  let admin: string;
  let stranger: string;
  const get = (url: string, authorization = admin) => t.app.inject({ url: `/rebalancer${url}`, headers: { authorization } });
  const ids: { group: number; empty: number; agg: number; foreignGroup: number; foreignAgg: number; accounts: number[]; other: number } = { group: 0, empty: 0, agg: 0, foreignGroup: 0, foreignAgg: 0, accounts: [], other: 0 };

  beforeAll(async () => {
    admin = await rebalancerSession(t);
    stranger = await rebalancerSession(t, 'admin', 'otherFirm');
    const db = t.db.kysely;
    const firmId = t.firm.firmId;
    const insert = async (table: 'trade_groups' | 'model_aggs', firm: number, name: string) => (await db.insertInto(table).values({ firm_id: firm, name }).returning('id').executeTakeFirstOrThrow()).id;
    ids.group = await insert('trade_groups', firmId, 'Quarterly 100%');
    ids.empty = await insert('trade_groups', firmId, 'Annual_review');
    ids.foreignGroup = await insert('trade_groups', t.otherFirm.firmId, 'Quarterly beta');
    ids.accounts = [await createAccount(db, firmId, { modelId: t.firm.modelId }), await createAccount(db, firmId)];
    await db.insertInto('trade_group_accounts').values(ids.accounts.map((account_id) => ({ firm_id: firmId, trade_group_id: ids.group, account_id }))).execute();
    const second = await db.insertInto('models').values({ firm_id: firmId, name: 'Second', description: null, cash_target_pct: 100, cash_lower_pct: 0, cash_upper_pct: 0, is_active: 1, created_at: 'x', created_by: 'x', edited_at: 'x', edited_by: 'x' }).returning('id').executeTakeFirstOrThrow();
    ids.other = await createAccount(db, firmId, { modelId: second.id });
    ids.agg = await insert('model_aggs', firmId, 'Core strategies');
    await db.insertInto('model_agg_models').values([{ firm_id: firmId, model_agg_id: ids.agg, model_id: t.firm.modelId, weight_pct: 70 }, { firm_id: firmId, model_agg_id: ids.agg, model_id: second.id, weight_pct: 30 }]).execute();
    ids.foreignAgg = await insert('model_aggs', t.otherFirm.firmId, 'Beta strategies');
  });

  it('lists the firm\'s trade groups by name with their account count, paged and searchable; one group lists its accounts', async () => {
    const all = await get('/v1/tradeGroups');
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual([
      { id: ids.empty, name: 'Annual_review', accountCount: 0 },
      { id: ids.group, name: 'Quarterly 100%', accountCount: 2 },
    ]);
    expect(all.headers['x-total-count']).toBe('2');
    const page = await get('/v1/tradeGroups?$top=1&$skip=1');
    expect(page.json()).toEqual([{ id: ids.group, name: 'Quarterly 100%', accountCount: 2 }]);
    expect(page.headers['x-total-count']).toBe('2');
    expect((await get('/v1/tradeGroups?search=QUARTERLY')).json().map((g: { id: number }) => g.id)).toEqual([ids.group]);
    expect((await get('/v1/tradeGroups?search=100%25')).json().map((g: { id: number }) => g.id)).toEqual([ids.group]);
    expect((await get('/v1/tradeGroups?search=l_r')).json().map((g: { id: number }) => g.id)).toEqual([ids.empty]);
    expect((await get(`/v1/tradeGroups?search=${ids.empty}`)).json().map((g: { id: number }) => g.id)).toContain(ids.empty);
    const one = await get(`/v1/tradeGroups/${ids.group}`);
    expect(one.json()).toMatchObject({ id: ids.group, name: 'Quarterly 100%', accountCount: 2 });
    expect(one.json().accounts.map((a: { id: number }) => a.id)).toEqual(ids.accounts);
    expect(one.json().accounts[0]).toEqual({ id: ids.accounts[0], name: 'Account', accountNumber: expect.any(String) });
  });

  it('lists aggregate models with their models, weights and the accounts a ModelAgg rebalance takes', async () => {
    const all = await get('/v1/modeling/modelAggs');
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual([{ id: ids.agg, name: 'Core strategies', modelCount: 2, accountCount: 2 }]);
    expect(all.headers['x-total-count']).toBe('1');
    const one = (await get(`/v1/modeling/modelAggs/${ids.agg}`)).json();
    expect(one).toMatchObject({ id: ids.agg, name: 'Core strategies', modelCount: 2, accountCount: 2 });
    expect(one.models).toEqual(expect.arrayContaining([expect.objectContaining({ modelId: t.firm.modelId, weightPercent: 70 }), expect.objectContaining({ name: 'Second', weightPercent: 30 })]));
    expect((await get('/v1/modeling/modelAggs?search=zzz')).json()).toEqual([]);
  });

  it('the keys listed are the keys a rebalance takes', async () => {
    const platform = await t.session('admin');
    const trading = tradingCalls(t, () => platform);
    for (const [entity, key] of [['TradeGroup', ids.group], ['ModelAgg', ids.agg]] as const) {
      const status = await trading.status(await trading.generate({ reason: 'NeedReview', entity, keys: [key] }));
      expect(status.totalItems, entity).toBe(2);
    }
  });

  it('another firm\'s groups are neither listed nor found; bad parameters are a 400 naming the parameter', async () => {
    expect((await get('/v1/tradeGroups', stranger)).json().map((g: { id: number }) => g.id)).toEqual([ids.foreignGroup]);
    expect((await get(`/v1/tradeGroups/${ids.foreignGroup}`)).statusCode).toBe(404);
    expect((await get(`/v1/modeling/modelAggs/${ids.foreignAgg}`)).statusCode).toBe(404);
    expect((await get(`/v1/modeling/modelAggs/${ids.agg}`, stranger)).statusCode).toBe(404);
    const cases: [string, string][] = [
      ['/v1/tradeGroups?$top=0', 'querystring.$top'],
      ['/v1/tradeGroups?$top=1001', 'querystring.$top'],
      ['/v1/modeling/modelAggs?$skip=x', 'querystring.$skip'],
      ['/v1/tradeGroups/abc', 'params.tradeGroupId'],
      ['/v1/modeling/modelAggs/0', 'params.modelAggId'],
      ['/v1/modeling/modelAggs/99999999999', 'params.modelAggId'],
    ];
    for (const [url, field] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors.map((e: { field: string }) => e.field), url).toContain(field);
    }
  });

  it('takes rebalancer tokens and needs portfolio.read', async () => {
    const nobody = await rebalancerSession(t, 'nobody');
    for (const url of ['/v1/tradeGroups', `/v1/tradeGroups/${ids.group}`, '/v1/modeling/modelAggs', `/v1/modeling/modelAggs/${ids.agg}`]) {
      expect((await get(url, nobody)).statusCode, url).toBe(403);
      expect((await get(url, await t.session('admin'))).statusCode, url).toBe(401);
      expect((await get(url, await rebalancerSession(t, 'reader'))).statusCode, url).toBe(200);
    }
  });
});

describeEachDatabase('rebalancer list, priority and option routes in the OpenAPI document', (database) => {
  const t = useTestApp(database);
  it('lists every new path with its tag, summary, paging parameters and examples', async () => {
    const document = (await t.app.inject({ url: '/rebalancer/openapi.json' })).json();
    const op = (path: string, method = 'get') => document.paths[`/rebalancer${path}`]?.[method];
    const paths = [
      '/v1/account/accounts',
      '/v1/account/accounts/simple',
      '/v1/account/accounts/simple/{accountId}',
      '/v1/account/accounts/{accountId}',
      '/v1/account/accounts/{accountId}/holdings',
      '/v1/account/accounts/{modelId}/outOfTolerance/{assetId}',
      '/v1/account/accounts/asideCashAmountType',
      '/v1/account/accounts/asideCashExpirationType',
      '/v1/account/accounts/asideCashTransactionType',
      '/v1/account/accounts/accountSetAsidePercentCalculationType',
      '/v1/account/accounts/restrictedPlans',
      '/v1/modeling/models/{modelId}/allocations',
      '/v1/modeling/models/{modelId}/portfolios',
      '/v1/modeling/models/{modelId}/priorities',
      '/v1/tradeGroups',
      '/v1/tradeGroups/{tradeGroupId}',
      '/v1/modeling/modelAggs',
      '/v1/modeling/modelAggs/{modelAggId}',
      '/v1/admin/firms/options',
    ];
    for (const path of paths) {
      expect(op(path), path).toBeDefined();
      expect(op(path).tags.length, path).toBeGreaterThan(0);
      expect(op(path).summary, path).toEqual(expect.any(String));
    }
    expect(op('/v1/modeling/models/{modelId}/priorities', 'put')).toBeDefined();
    expect(op('/v1/admin/firms/options', 'put')).toBeDefined();
    const names = (path: string) => op(path).parameters.map((p: { name: string }) => p.name);
    expect(names('/v1/account/accounts/simple')).toEqual(expect.arrayContaining(['search', '$top', '$skip', 'includevalue']));
    expect(names('/v1/tradeGroups')).toEqual(expect.arrayContaining(['search', '$top', '$skip']));
    expect(names('/v1/modeling/models/{modelId}/allocations')).toContain('aggregateAllocations');
    expect(JSON.stringify(op('/v1/account/accounts/simple').responses['200'])).toContain('accountNumber');
    expect(JSON.stringify(op('/v1/account/accounts/simple').responses['200'])).toContain('X-Total-Count');
    expect(JSON.stringify(op('/v1/modeling/models/{modelId}/priorities', 'put').requestBody)).toContain('Do Not Sell');
  });
});
