import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { addPosition, createAccount, createProduct, rebalancerSession } from '../../../test/support/rebalancer.js';
import { tradingCalls } from '../../../test/support/trading.js';

type Product = { id: number; ticker: string };

/** Model allocations and portfolios as the source system's client reads them, and section 2.8 priorities on a model's securities. */
describeEachDatabase('model securities: allocations, portfolios and priorities', (database) => {
  const t = useTestApp(database);
  let admin: string;
  let stranger: string;
  let a: Product;
  let b: Product;
  let eq: Product;
  let outside: Product;
  let modelId: number;
  const call = (method: 'GET' | 'PUT', url: string, payload?: object, authorization = admin) => t.app.inject({ method, url: `/rebalancer${url}`, payload, headers: { authorization } });
  const priorities = (id = modelId) => call('GET', `/v1/modeling/models/${id}/priorities`);

  beforeAll(async () => {
    admin = await rebalancerSession(t);
    stranger = await rebalancerSession(t, 'admin', 'otherFirm');
    [a, b, eq, outside] = [await createProduct(t.db.kysely, t.firm.firmId, 100), await createProduct(t.db.kysely, t.firm.firmId, 50), await createProduct(t.db.kysely, t.firm.firmId, 50), await createProduct(t.db.kysely, t.firm.firmId, 20)];
    const created = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/v1/modeling/models',
      headers: { authorization: admin },
      payload: { name: 'Growth 50/40', cashTargetPercent: 10, targets: [{ productId: a.id, targetPercent: 50, lowerTolerance: 2, upperTolerance: 3 }, { productId: b.id, targetPercent: 40, equivalents: [eq.id] }] },
    });
    expect(created.statusCode).toBe(200);
    modelId = created.json().id;
  });

  it('allocations: aggregated (the default) gives id, securityId, name, symbol and targetInPercent; aggregateAllocations=false adds the rest', async () => {
    const short = await call('GET', `/v1/modeling/models/${modelId}/allocations`);
    expect(short.statusCode).toBe(200);
    expect(short.json()).toEqual(
      [a, b].sort((x, y) => x.ticker.localeCompare(y.ticker)).map((p) => ({ id: p.id, securityId: p.id, name: `${p.ticker} fund`, symbol: p.ticker, targetInPercent: p === a ? 50 : 40 })),
    );
    expect((await call('GET', `/v1/modeling/models/${modelId}/allocations?aggregateAllocations=true`)).json()).toEqual(short.json());
    const full = (await call('GET', `/v1/modeling/models/${modelId}/allocations?aggregateAllocations=false`)).json();
    expect(full.find((x: { id: number }) => x.id === a.id)).toMatchObject({ lowerModelTolerancePercent: 2, upperModelTolerancePercent: 3, assetClassNameOfSecurity: 'Equity', assetSubClassNameOfSecurity: 'Large Cap', assetCategoryNameOfSecurity: 'US', equivalents: [], buyPriorityId: null, sellPriorityId: null });
    expect(full.find((x: { id: number }) => x.id === b.id).equivalents).toEqual([eq.id]);
    expect(full[0].modelDetailId).toEqual(expect.any(Number));
  });

  it('the model list takes the client\'s name and $top (get_all_models), and find_model_by_name finds by name', async () => {
    const named = await call('GET', '/v1/modeling/models?name=growth%2050');
    expect(named.statusCode).toBe(200);
    expect(named.json().map((m: { name: string }) => m.name)).toEqual(['Growth 50/40']);
    const one = await call('GET', '/v1/modeling/models?$top=1');
    expect(one.json()).toHaveLength(1);
    expect(Number(one.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    expect((await call('GET', '/v1/modeling/models?name=nothing-like-it')).json()).toEqual([]);
    expect((await call('GET', '/v1/modeling/models?$top=0')).json().errors[0].field).toBe('querystring.$top');
  });

  it('portfolios: registrations with active accounts on the model, with their account count', async () => {
    expect((await call('GET', `/v1/modeling/models/${modelId}/portfolios`)).json()).toEqual([]);
    const account = await createAccount(t.db.kysely, t.firm.firmId, { modelId });
    const registration = (await t.db.kysely.selectFrom('accounts').select('registration_id').where('id', '=', account).executeTakeFirstOrThrow()).registration_id;
    const response = await call('GET', `/v1/modeling/models/${modelId}/portfolios`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ id: registration, name: 'Registration', substitutedModelId: null, status: 'APPROVED', accountCount: 1 }]);
    expect(response.headers['x-total-count']).toBe('1');
  });

  it('portfolios page: 10000 by default, $top/$skip by name, the total always, the next page in Link', async () => {
    const k = t.db.kysely;
    const created = await t.app.inject({ method: 'POST', url: '/rebalancer/v1/modeling/models', headers: { authorization: admin }, payload: { name: 'Paged portfolios', cashTargetPercent: 0, targets: [{ productId: a.id, targetPercent: 100 }] } });
    const paged = created.json().id as number;
    const registrations: number[] = [];
    for (const name of ['Alder', 'Birch', 'Cedar']) {
      const account = await createAccount(k, t.firm.firmId, { modelId: paged });
      const registration = (await k.selectFrom('accounts').select('registration_id').where('id', '=', account).executeTakeFirstOrThrow()).registration_id;
      await k.updateTable('registrations').set({ name }).where('id', '=', registration).execute();
      registrations.push(registration);
    }
    const path = `/v1/modeling/models/${paged}/portfolios`;
    const names = (r: { json: () => { name: string }[] }) => r.json().map((p) => p.name);
    const whole = await call('GET', path);
    expect(names(whole)).toEqual(['Alder', 'Birch', 'Cedar']);
    expect(whole.headers['x-total-count']).toBe('3');
    expect(whole.headers.link).toBeUndefined();
    const page = await call('GET', `${path}?$top=1&$skip=1`);
    expect(page.json()).toEqual([expect.objectContaining({ id: registrations[1], name: 'Birch', accountCount: 1 })]);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toBe(`</rebalancer${path}?$top=1&$skip=2>; rel="next"`);
    const last = await call('GET', `${path}?$top=2&$skip=2`);
    expect(names(last)).toEqual(['Cedar']);
    expect(last.headers.link).toBeUndefined();
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=100001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await call('GET', `${path}?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors.map((e: { field: string }) => e.field), query).toEqual([field]);
    }
    expect((await call('GET', path, undefined, stranger)).statusCode).toBe(404);
  });

  it('priorities: set on targets and equivalents, read back with descriptions; unlisted keep theirs; null clears', async () => {
    const before = (await priorities()).json();
    expect(before.map((p: { securityId: number; isEquivalent: number }) => [p.securityId, p.isEquivalent]).sort()).toEqual([[a.id, 0], [b.id, 0], [eq.id, 1]].sort());
    expect(before.every((p: { buyPriorityId: null; sellPriorityId: null }) => p.buyPriorityId === null && p.sellPriorityId === null)).toBe(true);

    const set = await call('PUT', `/v1/modeling/models/${modelId}/priorities`, { securities: [{ securityId: a.id, sellPriorityId: 1, sellPriority: 'do not sell' }, { securityId: eq.id, buyPriorityId: 6 }] });
    expect(set.statusCode, set.body).toBe(200);
    const byId = (rows: { securityId: number }[], id: number) => rows.find((r) => r.securityId === id);
    expect(byId(set.json(), a.id)).toMatchObject({ securitySymbol: a.ticker, sellPriorityId: 1, sellPriority: 'Do Not Sell', buyPriorityId: null, buyPriority: null, editedBy: 'admin@alpha' });
    expect(byId(set.json(), eq.id)).toMatchObject({ buyPriorityId: 6, buyPriority: 'Preferred if held', isEquivalent: 1 });
    expect((await priorities()).json()).toEqual(set.json());
    const full = (await call('GET', `/v1/modeling/models/${modelId}/allocations?aggregateAllocations=false`)).json();
    expect(byId(full, a.id)).toMatchObject({ sellPriorityId: 1, buyPriorityId: null });

    const cleared = (await call('PUT', `/v1/modeling/models/${modelId}/priorities`, { securities: [{ securityId: eq.id, buyPriorityId: null }] })).json();
    expect(byId(cleared, eq.id)).toMatchObject({ buyPriorityId: null, editedOn: null });
    expect(byId(cleared, a.id)).toMatchObject({ sellPriorityId: 1 });
  });

  it('a model update that drops a security drops its priorities', async () => {
    const model = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/v1/modeling/models',
      headers: { authorization: admin },
      payload: { name: 'Shrinking', targets: [{ productId: a.id, targetPercent: 50 }, { productId: b.id, targetPercent: 50 }] },
    });
    const id = model.json().id;
    await call('PUT', `/v1/modeling/models/${id}/priorities`, { securities: [{ securityId: b.id, buyPriorityId: 5 }] });
    const updated = await call('PUT', `/v1/modeling/models/${id}`, { ...model.json(), targets: [{ productId: a.id, targetPercent: 100 }] });
    expect(updated.statusCode, updated.body).toBe(200);
    await call('PUT', `/v1/modeling/models/${id}`, { ...model.json(), targets: [{ productId: a.id, targetPercent: 50 }, { productId: b.id, targetPercent: 50 }] });
    expect((await priorities(id)).json().find((p: { securityId: number }) => p.securityId === b.id)).toMatchObject({ buyPriorityId: null });
  });

  it('a rebalance trades by the model\'s priorities: a Do Not Sell security is kept though overweight', async () => {
    // The same model without priorities, to show that A would be sold.
    const plain = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/v1/modeling/models',
      headers: { authorization: admin },
      payload: { name: 'Growth 50/40 plain', cashTargetPercent: 10, targets: [{ productId: a.id, targetPercent: 50, lowerTolerance: 2, upperTolerance: 3 }, { productId: b.id, targetPercent: 40, equivalents: [eq.id] }] },
    });
    const platform = await t.session('admin');
    const trading = tradingCalls(t, () => platform);
    const sellsOfA = async (model: number) => {
      // 80% in A (target 50 ± 3), 20% cash.
      const account = await createAccount(t.db.kysely, t.firm.firmId, { cash: 2000, modelId: model });
      await addPosition(t.db.kysely, t.firm.firmId, account, a.id, 80, 8000);
      const trades = await trading.tradesOf(await trading.generate({ reason: 'NeedReview', keys: [account] }));
      expect(trades.some((x) => x.action === 'BUY')).toBe(true);
      return trades.filter((x) => x.productId === a.id && x.action === 'SELL').length;
    };
    expect(await sellsOfA(plain.json().id)).toBe(1);
    expect(await sellsOfA(modelId)).toBe(0);
  });

  it('refuses bad priorities with a 400 naming the field, and writes nothing', async () => {
    const before = (await priorities()).json();
    const cases: [object, string, RegExp][] = [
      [{ securities: [{ securityId: outside.id, buyPriorityId: 3 }] }, 'securities[0].securityId', /neither a target nor an equivalent/],
      [{ securities: [{ securityId: b.id, buyPriorityId: 3 }, { securityId: b.id, sellPriorityId: 2 }] }, 'securities[1].securityId', /twice/],
      [{ securities: [{ securityId: b.id, buyPriorityId: 7 }] }, 'securities[0].buyPriorityId', /6/],
      [{ securities: [{ securityId: b.id, sellPriorityId: 0 }] }, 'securities[0].sellPriorityId', /1/],
      [{ securities: [{ securityId: b.id, sellPriorityId: 2, sellPriority: 'Can Sell' }] }, 'securities[0].sellPriority', /not the description/],
      [{ securities: [{ securityId: b.id, buyPriority: 'Priority Buy' }] }, 'securities[0].buyPriorityId', /required/],
      [{ securities: [] }, 'securities', /fewer than 1|at least|NOT have fewer/i],
      [{}, 'securities', /required/],
    ];
    for (const [payload, field, message] of cases) {
      // A good item beside the bad one: all or nothing.
      const withGood = 'securities' in payload && Array.isArray(payload.securities) && payload.securities.length > 0 ? { securities: [...(payload.securities as object[]), { securityId: a.id, buyPriorityId: 2 }] } : payload;
      const response = await call('PUT', `/v1/modeling/models/${modelId}/priorities`, withGood);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const problem = response.json().errors.find((e: { field: string }) => e.field === field);
      expect(problem, `${field} in ${response.body}`).toBeDefined();
      expect(problem.message).toMatch(message);
    }
    expect((await priorities()).json()).toEqual(before);
    const params = await call('GET', '/v1/modeling/models/abc/priorities');
    expect(params.json().errors[0].field).toBe('params.modelId');
    const flag = await call('GET', `/v1/modeling/models/${modelId}/allocations?aggregateAllocations=maybe`);
    expect(flag.statusCode).toBe(400);
    expect(flag.json().errors[0].field).toBe('querystring.aggregateAllocations');
  });

  it('another firm\'s model is not found; tokens and privileges as the other model routes', async () => {
    for (const path of ['allocations', 'portfolios', 'priorities']) {
      expect((await call('GET', `/v1/modeling/models/${modelId}/${path}`, undefined, stranger)).statusCode, path).toBe(404);
      expect((await call('GET', `/v1/modeling/models/${modelId}/${path}`, undefined, await t.session('admin'))).statusCode, path).toBe(401);
      expect((await call('GET', `/v1/modeling/models/${modelId}/${path}`, undefined, await rebalancerSession(t, 'nobody'))).statusCode, path).toBe(403);
    }
    const foreign = await call('PUT', `/v1/modeling/models/${modelId}/priorities`, { securities: [{ securityId: a.id, buyPriorityId: 1 }] }, stranger);
    expect(foreign.statusCode).toBe(404);
    const reader = await call('PUT', `/v1/modeling/models/${modelId}/priorities`, { securities: [{ securityId: a.id, buyPriorityId: 1 }] }, await rebalancerSession(t, 'reader'));
    expect(reader.statusCode).toBe(403);
    expect((await priorities()).json().find((p: { securityId: number }) => p.securityId === a.id).buyPriorityId).toBeNull();
  });
});
