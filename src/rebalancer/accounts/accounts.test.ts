import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { addPosition, createAccount, createProduct, rebalancerSession } from '../../../test/support/rebalancer.js';

/** The source system's account reads, as its Python client (orionapi EclipseV1) calls them. */
describeEachDatabase('rebalancer account reads (/v1/account/accounts)', (database) => {
  const t = useTestApp(database);
  let admin: string;
  let stranger: string;
  const get = (url: string, authorization = admin) => t.app.inject({ url: `/rebalancer${url}`, headers: { authorization } });
  let products: { id: number; ticker: string }[];
  let modelId: number;
  let onTarget: number;
  let overweight: number;
  let number: string;
  let strangerAccount: number;
  let strangerModel: number;

  beforeAll(async () => {
    admin = await rebalancerSession(t);
    stranger = await rebalancerSession(t, 'admin', 'otherFirm');
    products = [await createProduct(t.db.kysely, t.firm.firmId, 100), await createProduct(t.db.kysely, t.firm.firmId, 50), await createProduct(t.db.kysely, t.firm.firmId, 10)];
    const [a, b, eq] = products as [{ id: number; ticker: string }, { id: number; ticker: string }, { id: number; ticker: string }];
    const model = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/v1/modeling/models',
      headers: { authorization: admin },
      payload: { name: 'Balanced 60/40', cashTargetPercent: 10, targets: [{ productId: a.id, targetPercent: 60, lowerTolerance: 5, upperTolerance: 5 }, { productId: b.id, targetPercent: 30, lowerTolerance: 5, upperTolerance: 5, equivalents: [eq.id] }] },
    });
    expect(model.statusCode).toBe(200);
    modelId = model.json().id;
    // Value 10 000: 60 × 100 in A (60%), 30 × 50 in B + 150 × 10 in its equivalent (30%), 1 000 cash.
    onTarget = await createAccount(t.db.kysely, t.firm.firmId, { cash: 1000, modelId });
    await addPosition(t.db.kysely, t.firm.firmId, onTarget, a.id, 60, 5000);
    await addPosition(t.db.kysely, t.firm.firmId, onTarget, b.id, 30, 1500);
    await addPosition(t.db.kysely, t.firm.firmId, onTarget, eq.id, 150, 1500);
    // Value 10 000: 80% in A, 10% in B, 10% cash.
    overweight = await createAccount(t.db.kysely, t.firm.firmId, { cash: 1000, modelId });
    await addPosition(t.db.kysely, t.firm.firmId, overweight, a.id, 80, 8000);
    await addPosition(t.db.kysely, t.firm.firmId, overweight, b.id, 20, 1000);
    number = (await t.db.kysely.selectFrom('accounts').select('number').where('id', '=', overweight).executeTakeFirstOrThrow()).number;
    // An open sell of 10 A in the overweight account.
    const instance = await t.db.kysely
      .insertInto('trade_instances')
      .values({ firm_id: t.firm.firmId, routine: 'Rebalance', notes: null, request: '{}', status: 'Open', created_at: '2026-01-02T00:00:00.000Z', created_by: 'test', cancelled_at: null, cancelled_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('trades')
      .values({ firm_id: t.firm.firmId, trade_instance_id: instance.id, account_id: overweight, product_id: a.id, side: 'Sell', trade_type: 'Shares', shares_micros: 10_000_000, amount_cents: 100_000, price_micros: 100_000_000, reason: 'NeedReview', status: 'Open', created_at: '2026-01-02T00:00:00.000Z' })
      .execute();
    const setAside = await t.app.inject({
      method: 'POST',
      url: `/rebalancer/v1/account/accounts/${overweight}/asidecash`,
      headers: { authorization: admin },
      payload: { cashAmountTypeId: 1, cashAmount: 400, expirationTypeId: 3 },
    });
    expect(setAside.statusCode).toBe(200);
    strangerAccount = await createAccount(t.db.kysely, t.otherFirm.firmId, { cash: 5 });
    strangerModel = t.otherFirm.modelId;
  });

  it('simple: every active account with the fields the client reads (id, name, accountId, accountNumber, accountType); search by number, name or id', async () => {
    const all = await get('/v1/account/accounts/simple');
    expect(all.statusCode).toBe(200);
    const ids = all.json().map((a: { id: number }) => a.id);
    expect(ids).toEqual(expect.arrayContaining([onTarget, overweight]));
    expect(ids).not.toContain(strangerAccount);
    expect(Number(all.headers['x-total-count'])).toBe(ids.length);
    const mine = all.json().find((a: { id: number }) => a.id === overweight);
    expect(mine).toMatchObject({ id: overweight, name: 'Account', accountId: String(overweight), accountNumber: number, accountType: 'Individual', isSleeve: 0, modelId, isDeleted: 0, portfolioName: 'Registration' });
    expect(mine).not.toHaveProperty('value');

    // search_accounts_number_and_name: search by the trailing digits, then endswith on accountNumber.
    const tail = number.slice(-5);
    const byNumber = (await get(`/v1/account/accounts/simple?search=${encodeURIComponent(tail)}`)).json();
    expect(byNumber.map((a: { accountNumber: string }) => a.accountNumber)).toContain(number);
    expect(byNumber.every((a: { accountNumber: string; name: string; portfolioName: string; id: number }) => [a.accountNumber, a.name, a.portfolioName].some((s) => s.toLowerCase().includes(tail.toLowerCase())) || String(a.id) === tail)).toBe(true);
    expect((await get(`/v1/account/accounts/simple?search=${overweight}`)).json().map((a: { id: number }) => a.id)).toContain(overweight);
    expect((await get('/v1/account/accounts/simple?search=zz%25_none')).json()).toEqual([]);
    expect((await get(`/v1/account/accounts/simple?search=${encodeURIComponent(tail)}`, stranger)).json()).toEqual([]);

    const page = await get('/v1/account/accounts/simple?$top=1&$skip=1');
    expect(page.json()).toHaveLength(1);
    expect(page.json()[0].id).toBe(ids[1]);
    expect(page.headers['x-total-count']).toBe(String(ids.length));
    const valued = (await get('/v1/account/accounts/simple?includevalue=true')).json();
    expect(valued.find((a: { id: number }) => a.id === overweight).value).toBe(10000);
  });

  it('search (list and simple) matches number, name and registration name in any case and part, or the id', async () => {
    // Number, name and registration name, any case, any part; an id; the stranger finds nothing.
    const found = await createAccount(t.db.kysely, t.firm.firmId, { cash: 10 });
    const registration = (await t.db.kysely.selectFrom('accounts').select('registration_id').where('id', '=', found).executeTakeFirstOrThrow()).registration_id;
    await t.db.kysely.updateTable('accounts').set({ name: 'Zephyr Holdings Trust', number: 'ZX-40917' }).where('id', '=', found).execute();
    await t.db.kysely.updateTable('registrations').set({ name: 'Quill Family' }).where('id', '=', registration).execute();
    for (const list of ['/v1/account/accounts', '/v1/account/accounts/simple']) {
      for (const term of ['zephyr', 'HOLDINGS tr', 'x-409', 'quill FAM', 'ZX', 'il']) {
        const answer = await get(`${list}?search=${encodeURIComponent(term)}`);
        expect(answer.statusCode, `${list} ${term}`).toBe(200);
        const ids = answer.json().map((a: { id: number }) => a.id);
        expect(ids, `${list} ${term}`).toContain(found);
        expect(answer.headers['x-total-count'], `${list} ${term}`).toBe(String(ids.length));
      }
      expect((await get(`${list}?search=zephyr`)).json().map((a: { id: number }) => a.id)).toEqual([found]);
      expect((await get(`${list}?search=${found}`)).json().map((a: { id: number }) => a.id)).toContain(found);
      expect((await get(`${list}?search=zephyr`, stranger)).json()).toEqual([]);
    }
    // Closed again: the other tests count the firm's active accounts.
    await t.db.kysely.updateTable('accounts').set({ is_active: 0 }).where('id', '=', found).execute();
  });

  it('simple/{id} and {id}: one account; summarySection.cashAvailable is cash less set aside cash and the model cash reserve', async () => {
    const simple = await get(`/v1/account/accounts/simple/${overweight}`);
    expect(simple.statusCode).toBe(200);
    expect(simple.json()).toMatchObject({ id: overweight, accountNumber: number, accountId: String(overweight), accountType: 'Individual' });
    const detail = await get(`/v1/account/accounts/${overweight}`);
    expect(detail.statusCode).toBe(200);
    // Value 10 000, 400 protected, cash target 10% of 9 600 = 960: 1 000 − 400 − 960 < 0 → 0.
    expect(detail.json()).toMatchObject({
      id: overweight,
      name: 'Account',
      accountNumber: number,
      portfolio: 'Registration',
      custodian: 'Schwab',
      model: 'Balanced 60/40',
      modelId,
      value: 10000,
      restrictedPlan: null,
      setAsideCashActual: 400,
      targetCashPercent: 10,
      targetCash: 1360,
      pendingCashValue: 2000,
      summarySection: { grandTotal: 10000, totalValue: 10000, totalCashValue: 1000, setAsideCash: 400, cashReserve: 960, cashAvailable: 0, pendingCashValue: 2000 },
    });
    expect(detail.json().generalSection).toEqual({ accountName: 'Account', accountNumber: number, accountId: String(overweight), accountType: 'Individual', portfolioId: expect.any(Number), portfolioName: 'Registration', custodian: 'Schwab', model: 'Balanced 60/40' });
    const plain = (await get(`/v1/account/accounts/${onTarget}`)).json();
    expect(plain.summarySection).toMatchObject({ totalCashValue: 1000, setAsideCash: 0, cashReserve: 1000, cashAvailable: 0 });

    const list = await get('/v1/account/accounts?$top=1000');
    expect(list.statusCode).toBe(200);
    expect(list.json().find((a: { id: number }) => a.id === overweight)).toMatchObject({ value: 10000, model: 'Balanced 60/40', setAsideCashActual: 400, currentCash: 1000, currentCashPercent: 10 });
  });

  it('{id}/holdings: shares, price, value, current, target and pending weights, inModel', async () => {
    const [a, b] = products as [{ id: number; ticker: string }, { id: number; ticker: string }];
    const response = await get(`/v1/account/accounts/${overweight}/holdings`);
    expect(response.statusCode).toBe(200);
    const rows = response.json();
    expect(rows).toHaveLength(2);
    expect(rows.find((h: { securityId: number }) => h.securityId === a.id)).toMatchObject({
      accountNumber: number,
      securitySymbol: a.ticker,
      securityName: `${a.ticker} fund`,
      price: 100,
      shares: 80,
      value: 8000,
      currentInPer: 80,
      targetInPer: 60,
      pendingValue: 7000,
      pendingInPer: 70,
      isCash: 'No',
      inModel: 'Yes',
      excluded: 'No',
    });
    expect(rows.find((h: { securityId: number }) => h.securityId === b.id)).toMatchObject({ shares: 20, value: 1000, targetInPer: 30, pendingValue: 1000 });
  });

  it('{modelId}/outOfTolerance/{assetId}: only accounts outside the band; equivalents count; open orders give the post-trade figures', async () => {
    const [a, b] = products as [{ id: number; ticker: string }, { id: number; ticker: string }];
    const response = await get(`/v1/account/accounts/${modelId}/outOfTolerance/${a.id}?assetType=security`);
    expect(response.statusCode).toBe(200);
    // Investable 9 600: A is 8 000 / 9 600 = 83.3333%, target 60 ± 5.
    expect(response.json()).toEqual([
      {
        accountId: overweight,
        accountName: 'Account',
        accountNumber: number,
        targetInPercentage: 60,
        currentInPercentage: 83.3333,
        postTradeInPercentage: 72.9167,
        differenceInPercentage: 23.3333,
        currentInDollar: 8000,
        postTradeInDollar: 7000,
        differenceInDollar: 2240,
        currentInShares: 80,
        postTradeInShares: 70,
        differenceInShares: 22.4,
      },
    ]);
    // B (with its equivalent) is 30% in the first account and 1 000 / 9 600 in the second.
    const underweight = (await get(`/v1/account/accounts/${modelId}/outOfTolerance/${b.id}?assetType=securityset`)).json();
    expect(underweight.map((r: { accountId: number }) => r.accountId)).toEqual([overweight]);
    expect(underweight[0].differenceInPercentage).toBeLessThan(0);
  });

  it('code tables of set aside cash (section 2.12) and the restricted plan list', async () => {
    const table = async (path: string) => (await get(`/v1/account/accounts/${path}`)).json();
    expect(await table('asideCashAmountType')).toEqual([{ id: 1, name: 'Dollar' }, { id: 2, name: 'Percent' }]);
    expect(await table('asideCashExpirationType')).toEqual([{ id: 1, name: 'Date' }, { id: 2, name: 'Transaction' }, { id: 3, name: 'None' }]);
    expect(await table('asideCashTransactionType')).toEqual([{ id: 1, name: 'Distribution / Merge Out' }, { id: 3, name: 'Fee' }]);
    expect(await table('accountSetAsidePercentCalculationType')).toEqual([{ id: 0, name: 'Use Default/Managed Value' }, { id: 1, name: 'Use Total Value' }, { id: 2, name: 'Use Excluded Value' }]);
    await t.app.inject({ method: 'POST', url: '/rebalancer/v1/restrictedPlans', headers: { authorization: admin }, payload: { name: 'ESG only', securities: { securities: [] } } });
    const plans = await get('/v1/account/accounts/restrictedPlans');
    expect(plans.statusCode).toBe(200);
    expect(plans.json()).toEqual((await get('/v1/restrictedPlans')).json());
    expect(plans.json()[0]).toMatchObject({ name: 'ESG only', accountCount: 0, useInTradeFile: 0 });
    expect((await get('/v1/account/accounts/restrictedPlans', stranger)).json()).toEqual([]);
  });

  it('another firm\'s account or model is not found; bad parameters are a 400 naming the parameter', async () => {
    const foreign: [string, string][] = [
      [`simple/${strangerAccount}`, admin],
      [`${strangerAccount}`, admin],
      [`${strangerAccount}/holdings`, admin],
      [`${strangerModel}/outOfTolerance/${products[0]!.id}`, admin],
      [`${modelId}/outOfTolerance/${products[0]!.id}`, stranger],
      [`${overweight}`, stranger],
    ];
    for (const [path, token] of foreign) {
      const response = await get(`/v1/account/accounts/${path}`, token);
      expect(response.statusCode, `${path} ${response.body}`).toBe(404);
    }
    expect((await get(`/v1/account/accounts/${modelId}/outOfTolerance/999999`)).statusCode).toBe(404);
    const cases: [string, string][] = [
      ['simple?$top=0', 'querystring.$top'],
      ['simple?$skip=-1', 'querystring.$skip'],
      ['?$top=abc', 'querystring.$top'],
      ['simple?includevalue=maybe', 'querystring.includevalue'],
      ['simple/abc', 'params.accountId'],
      ['99999999999', 'params.accountId'],
      ['0/holdings', 'params.accountId'],
      [`${modelId}/outOfTolerance/x`, 'params.assetId'],
      [`${modelId}/outOfTolerance/${products[0]!.id}?assetType=class`, 'querystring.assetType'],
    ];
    for (const [path, field] of cases) {
      const response = await get(`/v1/account/accounts/${path}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().errors.map((e: { field: string }) => e.field), path).toContain(field);
    }
  });

  it('takes rebalancer tokens only and needs portfolio.read', async () => {
    expect((await get('/v1/account/accounts/simple', await t.session('admin'))).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/rebalancer/v1/account/accounts/simple' })).statusCode).toBe(401);
    const nobody = await rebalancerSession(t, 'nobody');
    for (const path of ['', '/simple', `/simple/${overweight}`, `/${overweight}`, `/${overweight}/holdings`, `/${modelId}/outOfTolerance/${products[0]!.id}`, '/asideCashAmountType', '/restrictedPlans']) {
      expect((await get(`/v1/account/accounts${path}`, nobody)).statusCode, path).toBe(403);
    }
    expect((await get('/v1/account/accounts/simple', await rebalancerSession(t, 'reader'))).statusCode).toBe(200);
  });
});

describeEachDatabase('rebalancer account lists of a large firm', (database) => {
  const t = useTestApp(database);
  it('answers an unpaged list of more accounts than one query\'s id list holds, valued', async () => {
    const db = t.db.kysely;
    const firmId = t.firm.firmId;
    const first = await createAccount(db, firmId, { cash: 1 });
    const registration = (await db.selectFrom('accounts').select('registration_id').where('id', '=', first).executeTakeFirstOrThrow()).registration_id;
    const now = new Date().toISOString();
    const admin = await rebalancerSession(t);
    const product = await createProduct(db, firmId, 100);
    const model = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/v1/modeling/models',
      headers: { authorization: admin },
      payload: { name: 'Bulk model', cashTargetPercent: 0, targets: [{ productId: product.id, targetPercent: 100, lowerTolerance: 5, upperTolerance: 5 }] },
    });
    const bulkModel: number = model.json().id;
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      firm_id: firmId, registration_id: registration, number: `BULK-${i}`, name: `Bulk ${i}`, custodian: 'Schwab', model_id: bulkModel, cash_cents: 100 * i, is_trading_blocked: 0 as const,
      restricted_plan_id: null, is_active: 1 as const, sleeve_type: null, sleeve_target_pct: null, sleeve_tolerance_lower: null, sleeve_tolerance_upper: null, created_at: now, created_by: 'test', edited_at: now, edited_by: 'test',
    }));
    for (let i = 0; i < rows.length; i += 300) await db.insertInto('accounts').values(rows.slice(i, i + 300)).execute();
    const simple = await t.app.inject({ url: '/rebalancer/v1/account/accounts/simple?includevalue=true', headers: { authorization: admin } });
    expect(simple.statusCode).toBe(200);
    expect(simple.json()).toHaveLength(1201);
    expect(simple.json().find((a: { accountNumber: string }) => a.accountNumber === 'BULK-1199').value).toBe(1199);
    const list = await t.app.inject({ url: '/rebalancer/v1/account/accounts', headers: { authorization: admin } });
    expect(list.json()).toHaveLength(1201);
    expect(list.headers['x-total-count']).toBe('1201');
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    const items: { id: number; accountNumber: string }[] = list.json();
    const ids = items.map((a) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(1201);
    expect(items.find((a) => a.accountNumber === 'BULK-1199')).toMatchObject({ value: 1199, currentCash: 1199, sleeveType: 'None', pendingCashValue: 1199 });

    // The list is answered a page of accounts at a time: $skip and $top hold across the pages.
    const read = async (url: string) => (await t.app.inject({ url: `/rebalancer${url}`, headers: { authorization: admin } })).json().map((a: { id: number }) => a.id);
    expect(await read('/v1/account/accounts?$skip=10&$top=1100')).toEqual(ids.slice(10, 1110));
    expect(await read('/v1/account/accounts/simple?$skip=990')).toEqual(ids.slice(990));
    expect(await read('/v1/account/accounts?$skip=1201')).toEqual([]);
    expect(await read('/v1/account/accounts?search=BULK-119')).toEqual(items.filter((a) => /^BULK-119\d?$/.test(a.accountNumber)).map((a) => a.id));

    // Out of tolerance is judged a page of the model's accounts at a time, and answered whole:
    // the bulk accounts hold only cash, so each is under every target's band.
    const out = await t.app.inject({ url: `/rebalancer/v1/account/accounts/${bulkModel}/outOfTolerance/${product.id}?assetType=security`, headers: { authorization: admin } });
    expect(out.statusCode).toBe(200);
    expect(out.json().map((a: { accountId: number }) => a.accountId)).toEqual(items.filter((a) => a.accountNumber.startsWith('BULK-')).map((a) => a.id));
    expect(out.json()[1]).toMatchObject({ accountNumber: 'BULK-1', currentInPercentage: 0, targetInPercentage: 100, currentInDollar: 0, differenceInDollar: -1 });
  });
});
