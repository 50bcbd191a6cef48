import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { createAccount, createProduct, rebalancerSession } from '../../../test/support/rebalancer.js';

describeEachDatabase('restricted plans (section 4.3)', (database) => {
  const t = useTestApp(database);
  let admin: string;
  let products: { id: number; ticker: string }[];
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, authorization = admin) =>
    t.app.inject({ method, url: `/rebalancer${url}`, payload: payload as object, headers: { authorization } });
  let counter = 0;
  const plan = (securities: object[], extra: object = {}) => ({ id: null, name: `Plan ${++counter}`, useInTradeFile: true, securities: { securities }, ...extra });

  beforeAll(async () => {
    admin = await rebalancerSession(t);
    products = [];
    for (let i = 0; i < 4; i++) products.push(await createProduct(t.db.kysely, t.firm.firmId, 50 + i));
  });

  it('creates a plan and answers with 0/1 flags and the products\' name, symbol, type, class, subClass and category', async () => {
    const [a, b] = products as [{ id: number; ticker: string }, { id: number; ticker: string }];
    const created = await call('POST', '/v1/restrictedPlans', plan(
      [
        { securityId: a.id, doNotBuyGroupEquivalency: true, buyPriorityId: 5, buyPriority: 'Priority Buy', sellPriorityId: 1, sellPriority: 'Do Not Sell' },
        { securityId: b.id },
      ],
      { externalPlanId: 'EXT-1' },
    ));
    expect(created.statusCode).toBe(200);
    const body = created.json();
    expect(body).toMatchObject({ name: `Plan ${counter}`, useInTradeFile: 1, externalPlanId: 'EXT-1' });
    const [first, second] = [...body.securities].sort((x, y) => x.securityId - y.securityId);
    expect(first).toMatchObject({
      securityId: a.id,
      securityName: `${a.ticker} fund`,
      securitySymbol: a.ticker,
      type: 'ETF',
      class: 'Equity',
      subClass: 'Large Cap',
      category: 'US',
      doNotBuyGroupEquivalency: 1,
      buyPriorityId: 5,
      buyPriority: 'Priority Buy',
      sellPriorityId: 1,
      sellPriority: 'Do Not Sell',
      createdBy: 'admin@alpha',
    });
    expect(second).toMatchObject({ securityId: b.id, doNotBuyGroupEquivalency: 0, buyPriorityId: null, buyPriority: null, sellPriorityId: null, sellPriority: null });
    expect((await call('GET', `/v1/restrictedPlans?id=${body.id}`)).json()).toEqual(body);
    expect((await call('GET', '/v1/restrictedPlans?externalPlanId=EXT-1')).json()).toEqual(body);
    expect((await call('GET', '/v1/restrictedPlans?externalPlanId=NOPE')).statusCode).toBe(404);
    expect((await call('GET', '/v1/restrictedPlans?id=999999')).statusCode).toBe(404);
    // Another firm's token never sees it.
    expect((await call('GET', `/v1/restrictedPlans?id=${body.id}`, undefined, await rebalancerSession(t, 'admin', 'otherFirm'))).statusCode).toBe(404);
  });

  it('lists plans with accountCount from accounts assigned through the portfolio API, and searches by name', async () => {
    const created = (await call('POST', '/v1/restrictedPlans', plan([{ securityId: products[0]!.id }], { name: 'Faith Based 100% Equity' }))).json();
    await call('POST', '/v1/restrictedPlans', plan([], { name: 'Plain_plan' }));
    const accountId = await createAccount(t.db.kysely, t.firm.firmId);
    const platform = await t.session('admin');
    const account = (await t.app.inject({ url: `/api/v1/Portfolio/Accounts/Verbose/${accountId}`, headers: { authorization: platform } })).json();
    const { id, createdDate, createdBy, editedDate, editedBy, sleeveType, sleeveTargetPercent, sleeveToleranceLower, sleeveToleranceUpper, ...input } = account;
    void [createdDate, createdBy, editedDate, editedBy, sleeveType, sleeveTargetPercent, sleeveToleranceLower, sleeveToleranceUpper];
    const assigned = await t.app.inject({ method: 'PUT', url: `/api/v1/Portfolio/Accounts/Verbose/${id}`, payload: { ...input, restrictedPlanId: created.id }, headers: { authorization: platform } });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().restrictedPlanId).toBe(created.id);
    const unknown = await t.app.inject({ method: 'PUT', url: `/api/v1/Portfolio/Accounts/Verbose/${id}`, payload: { ...input, restrictedPlanId: 999999 }, headers: { authorization: platform } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([{ field: 'restrictedPlanId', message: 'restricted plan 999999 does not exist' }]);

    const all = (await call('GET', '/v1/restrictedPlans')).json();
    expect(all.find((p: { id: number }) => p.id === created.id)).toMatchObject({ name: 'Faith Based 100% Equity', useInTradeFile: 1, accountCount: 1, externalPlanId: null, createdBy: 'admin@alpha', editedBy: 'admin@alpha' });
    expect(all.every((p: { accountCount: number }) => typeof p.accountCount === 'number')).toBe(true);
    const search = async (text: string) => (await call('GET', `/v1/restrictedPlans?search=${encodeURIComponent(text)}`)).json().map((p: { name: string }) => p.name);
    expect(await search('faith BASED')).toEqual(['Faith Based 100% Equity']);
    expect(await search('100%')).toEqual(['Faith Based 100% Equity']);
    expect(await search('n_p')).toEqual(['Plain_plan']);
    expect(await search('zzz')).toEqual([]);
    expect((await call('GET', '/v1/restrictedPlans?search=x&id=1')).statusCode).toBe(400);

    // In use: refused; once the account is moved off the plan, deleted.
    const refused = await call('DELETE', `/v1/restrictedPlans?id=${created.id}`);
    expect(refused.statusCode).toBe(409);
    await t.app.inject({ method: 'PUT', url: `/api/v1/Portfolio/Accounts/Verbose/${id}`, payload: { ...input, restrictedPlanId: null }, headers: { authorization: platform } });
    const deleted = await call('DELETE', `/v1/restrictedPlans?id=${created.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id: String(created.id), message: `Restricted plan ${created.id} deleted` });
    expect((await call('GET', `/v1/restrictedPlans?id=${created.id}`)).statusCode).toBe(404);
    expect(await search('faith')).toEqual([]);
    expect((await call('DELETE', `/v1/restrictedPlans?id=${created.id}`)).statusCode).toBe(404);
  });

  it('pages the plans: 100 by default, $top/$skip by name, the total always, the next page in Link', async () => {
    for (const n of [1, 2, 3]) expect((await call('POST', '/v1/restrictedPlans', plan([], { name: `Paged ${n}` }))).statusCode).toBe(200);
    const whole = await call('GET', '/v1/restrictedPlans');
    const all = whole.json().map((p: { id: number }) => p.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(whole.headers['x-total-count']).toBe(String(all.length));
    expect(whole.headers.link).toBeUndefined();
    const path = '/v1/restrictedPlans?search=paged';
    const searched = await call('GET', path);
    expect(searched.json().map((p: { name: string }) => p.name)).toEqual(['Paged 1', 'Paged 2', 'Paged 3']);
    expect(searched.headers['x-total-count']).toBe('3');
    const page = await call('GET', `${path}&$top=1&$skip=1`);
    expect(page.json().map((p: { name: string }) => p.name)).toEqual(['Paged 2']);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toBe(`</rebalancer${path}&$top=1&$skip=2>; rel="next"`);
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=1001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await call('GET', `/v1/restrictedPlans?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('edits a plan: listed securities added or rewritten, deletedSecurities removed (required, may be empty), others kept', async () => {
    const [a, b, c] = products.map((p) => p.id).map((id) => ({ id })) as [{ id: number }, { id: number }, { id: number }];
    const created = (await call('POST', '/v1/restrictedPlans', plan([{ securityId: a.id, buyPriorityId: 3, buyPriority: 'Can Buy' }, { securityId: b.id }]))).json();
    const edit = (securities: object, extra: object = {}) => call('PUT', `/v1/restrictedPlans?id=${created.id}`, { id: created.id, name: created.name, securities, ...extra });
    const missing = await edit({ securities: [] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ field: 'securities.deletedSecurities', message: 'is required' }]);
    const edited = await edit({ securities: [{ securityId: a.id, sellPriorityId: 2, sellPriority: 'hard to sell' }, { securityId: c.id, doNotBuyGroupEquivalency: true }], deletedSecurities: [b.id] }, { name: 'Renamed plan', useInTradeFile: false });
    expect(edited.statusCode).toBe(200);
    const body = edited.json();
    expect(body).toMatchObject({ id: created.id, name: 'Renamed plan', useInTradeFile: 0 });
    expect(body.securities.map((s: { securityId: number }) => s.securityId).sort()).toEqual([a.id, c.id].sort());
    expect(body.securities.find((s: { securityId: number }) => s.securityId === a.id)).toMatchObject({ buyPriorityId: null, sellPriorityId: 2, sellPriority: 'Hard To Sell' });
    const kept = await edit({ securities: [], deletedSecurities: [] }, { name: 'Renamed plan' });
    expect(kept.json().securities).toHaveLength(2);

    const bad = await edit({ securities: [], deletedSecurities: [b.id] });
    expect(bad.json().errors).toEqual([{ field: 'securities.deletedSecurities[0]', message: `security ${b.id} is not in the plan` }]);
    const mismatch = await call('PUT', `/v1/restrictedPlans?id=${created.id}`, { id: created.id + 1, name: 'x', securities: { securities: [], deletedSecurities: [] } });
    expect(mismatch.json().errors[0].field).toBe('id');
    const absent = await call('PUT', '/v1/restrictedPlans?id=999999', { id: 999999, name: 'x', securities: { securities: [], deletedSecurities: [] } });
    expect(absent.statusCode).toBe(404);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const [a] = products.map((p) => ({ id: p.id })) as [{ id: number }];
    const taken = (await call('POST', '/v1/restrictedPlans', plan([], { externalPlanId: 'TAKEN' }))).json();
    const cases: [object, string, RegExp][] = [
      [{ securities: { securities: [] } }, 'name', /required/],
      [plan([], { name: '   ' }), 'name', /required/],
      [plan([], { name: taken.name.toUpperCase() }), 'name', /already/],
      [plan([], { externalPlanId: 'TAKEN' }), 'externalPlanId', /already/],
      [{ name: 'No securities' }, 'securities', /required/],
      [plan([{ securityId: 999999 }]), 'securities.securities[0].securityId', /does not exist/],
      [plan([{ securityId: a.id }, { securityId: a.id }]), 'securities.securities[1].securityId', /twice/],
      [plan([{ securityId: a.id, buyPriorityId: 5 }]), 'securities.securities[0].buyPriority', /required/],
      [plan([{ securityId: a.id, buyPriority: 'Priority Buy' }]), 'securities.securities[0].buyPriorityId', /required/],
      [plan([{ securityId: a.id, sellPriorityId: 1 }]), 'securities.securities[0].sellPriority', /required/],
      [plan([{ securityId: a.id, sellPriority: 'Do Not Sell', sellPriorityId: null }]), 'securities.securities[0].sellPriorityId', /required/],
      [plan([{ securityId: a.id, buyPriorityId: 7, buyPriority: 'Whatever' }]), 'securities.securities[0].buyPriorityId', /not a buy priority/],
      [plan([{ securityId: a.id, sellPriorityId: 0, sellPriority: 'Never' }]), 'securities.securities[0].sellPriorityId', /not a sell priority/],
      [plan([{ securityId: a.id, sellPriorityId: 1, sellPriority: 'Can Sell' }]), 'securities.securities[0].sellPriority', /not the description/],
      [plan([{ securityId: a.id, doNotBuyGroupEquivalency: 1 }]), 'securities.securities[0].doNotBuyGroupEquivalency', /boolean/],
    ];
    for (const [payload, field, message] of cases) {
      const response = await call('POST', '/v1/restrictedPlans', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const problem = response.json().errors.find((e: { field: string }) => e.field === field);
      expect(problem, `${field} in ${response.body}`).toBeDefined();
      expect(problem.message).toMatch(message);
    }
  });

  it('takes rebalancer tokens only; reads need portfolio.read and writes portfolio.edit', async () => {
    const reader = await rebalancerSession(t, 'reader');
    expect((await call('GET', '/v1/restrictedPlans', undefined, reader)).statusCode).toBe(200);
    expect((await call('POST', '/v1/restrictedPlans', plan([]), reader)).statusCode).toBe(403);
    expect((await call('GET', '/v1/restrictedPlans', undefined, await t.session('admin'))).statusCode).toBe(401);
  });

  it('answers an id beyond the 32-bit id columns with a 400 on every route of the rebalancer data, never a 500', async () => {
    const big = 99_999_999_999;
    const calls: [string, string, object?][] = [
      ['GET', `/v1/restrictedPlans?id=${big}`],
      ['POST', '/v1/restrictedPlans', plan([{ securityId: big }])],
      ['GET', `/v1/account/accounts/${big}/asidecash`],
      ['DELETE', `/v1/account/accounts/1/asidecash/${big}`],
      ['GET', `/v1/modeling/models/${big}`],
      ['POST', '/v1/modeling/models', { name: 'Big', cashTargetPercent: 100, teamIds: [big] }],
      ['POST', '/v1/admin/teams/1/Models', { modelIds: [big] }],
      ['PUT', '/v1/admin/teams/1/Models', { modelIds: [big] }],
    ];
    for (const [method, url, payload] of calls) {
      const response = await call(method as 'GET', url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400);
    }
    const platform = await t.session('admin');
    const transactions = await t.app.inject({ url: `/api/v1/Portfolio/Accounts/${big}/Transactions`, headers: { authorization: platform } });
    expect(transactions.statusCode).toBe(400);
  });
});
