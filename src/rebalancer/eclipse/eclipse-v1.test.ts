import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { createProduct } from '../../../test/support/rebalancer.js';
import { type EclipseBook, eclipseBook } from './test-support.js';

/** The source system's v1 Eclipse reads of portfolios, holdings, security sets, securities, trade orders and sleeves. */
describeEachDatabase('Eclipse v1 reads (portfolios, holdings, securities, trade orders)', (database) => {
  const t = useTestApp(database);
  let book: EclipseBook;
  const get = (url: string, authorization = book.admin) => t.app.inject({ url: `/rebalancer${url}`, headers: { authorization } });
  const problemField = (body: { errors?: { field: string }[] }) => body.errors?.map((e) => e.field);

  beforeAll(async () => {
    book = await eclipseBook(t);
  });

  it('lists portfolios (registrations) with search, value and paging, and the total', async () => {
    const found = await get('/v1/portfolio/portfolios/simple?search=eclipse%20JOI&includevalue=true');
    expect(found.statusCode, found.body).toBe(200);
    expect(found.headers['x-total-count']).toBe('1');
    // 60 × 100 + 20 × 50 + 1 000 cash in the first account, 500 cash in the second.
    expect(found.json()).toEqual([expect.objectContaining({ id: book.portfolioId, name: 'Eclipse Joint', registrationId: book.portfolioId, value: 8500, isDeleted: 0 })]);
    const paged = await get('/v1/portfolio/portfolios/simple?$top=1&$skip=0');
    expect(paged.json()).toHaveLength(1);
    expect(paged.json()[0]).not.toHaveProperty('value');
    const all = await get('/v1/portfolio/portfolios/simple');
    expect(all.json().map((p: { id: number }) => p.id)).not.toContain(book.strangerPortfolio);
    expect((await get('/v1/portfolio/portfolios/simple?$top=0')).statusCode).toBe(400);
  });

  it('reads one portfolio with its sections; another firm\'s is 404', async () => {
    const one = await get(`/v1/portfolio/portfolios/${book.portfolioId}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({
      id: book.portfolioId,
      general: { portfolioName: 'Eclipse Joint', registrationId: book.portfolioId, modelIds: [book.modelId] },
      teams: [],
      issues: { accountCount: 2, accountsWithoutModel: 1, tradeBlockedAccounts: 0, pendingTrades: 1 },
      summary: { totalValue: 8500, cashValue: 1500 },
    });
    expect((await get(`/v1/portfolio/portfolios/${book.strangerPortfolio}`)).statusCode).toBe(404);
    const bad = await get('/v1/portfolio/portfolios/abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('portfolioId');
  });

  it('lists a portfolio\'s accounts in the long and the short form', async () => {
    const accounts = await get(`/v1/portfolio/portfolios/${book.portfolioId}/accounts`);
    expect(accounts.statusCode, accounts.body).toBe(200);
    expect(accounts.json().map((a: { id: number }) => a.id)).toEqual(book.accountIds);
    expect(accounts.json()[0]).toMatchObject({ accountNumber: 'ECL-7731', portfolioId: book.portfolioId, value: 8000, currentCash: 1000 });
    const simple = await get(`/v1/portfolio/portfolios/${book.portfolioId}/accounts/simple?includevalue=true`);
    expect(simple.json()).toEqual([expect.objectContaining({ id: book.accountIds[0], value: 8000 }), expect.objectContaining({ id: book.accountIds[1], value: 500 })]);
    expect((await get(`/v1/portfolio/portfolios/${book.strangerPortfolio}/accounts`)).statusCode).toBe(404);
    expect((await get(`/v1/portfolio/portfolios/${book.strangerPortfolio}/accounts/simple`)).statusCode).toBe(404);
  });

  it('lists holdings of an account or of a portfolio, narrowed by search', async () => {
    const ofAccount = await get(`/v1/holding/holdings/simple?inAccountId=${book.accountIds[0]}`);
    expect(ofAccount.statusCode, ofAccount.body).toBe(200);
    expect(ofAccount.json().map((h: { securitySymbol: string }) => h.securitySymbol)).toEqual(['ECLA', 'ECLB']);
    expect(ofAccount.json()[0]).toMatchObject({ accountId: book.accountIds[0], portfolioId: book.portfolioId, shares: 60, value: 6000, targetInPer: 60 });
    const searched = await get(`/v1/holding/holdings/simple?inPortfolioId=${book.portfolioId}&search=eclb`);
    expect(searched.json()).toEqual([expect.objectContaining({ securitySymbol: 'ECLB', shares: 20 })]);
    const alias = await get(`/v1/holding/holdings/simple?portfolioId=${book.portfolioId}`);
    expect(alias.json()).toHaveLength(2);
  });

  it('pages holdings: 5000 by default, $top/$skip, the total always, the next page in Link', async () => {
    const path = `/v1/holding/holdings/simple?inPortfolioId=${book.portfolioId}`;
    const whole = await get(path);
    expect(whole.json().map((h: { securitySymbol: string }) => h.securitySymbol)).toEqual(['ECLA', 'ECLB']);
    expect(whole.headers['x-total-count']).toBe('2');
    expect(whole.headers.link).toBeUndefined();
    const page = await get(`${path}&$top=1`);
    expect(page.json().map((h: { securitySymbol: string }) => h.securitySymbol)).toEqual(['ECLA']);
    expect(page.headers['x-total-count']).toBe('2');
    expect(page.headers.link).toBe(`</rebalancer${path}&$top=1&$skip=1>; rel="next"`);
    const last = await get(`${path}&$top=1&$skip=1`);
    expect(last.json().map((h: { securitySymbol: string }) => h.securitySymbol)).toEqual(['ECLB']);
    expect(last.headers.link).toBeUndefined();
    const searched = await get(`/v1/holding/holdings/simple?inAccountId=${book.accountIds[0]}&search=ecla&$top=5`);
    expect(searched.headers['x-total-count']).toBe('1');
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=20001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await get(`${path}&${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(problemField(bad.json()), query).toEqual([field]);
    }
    expect((await get(`/v1/holding/holdings/simple?inAccountId=${book.accountIds[0]}`, book.stranger)).statusCode).toBe(404);
  });

  it('refuses holdings without exactly one owner, and another firm\'s owner', async () => {
    const none = await get('/v1/holding/holdings/simple');
    expect(none.statusCode).toBe(400);
    expect(problemField(none.json())).toEqual(['querystring.inAccountId']);
    const both = await get(`/v1/holding/holdings/simple?inAccountId=${book.accountIds[0]}&inPortfolioId=${book.portfolioId}`);
    expect(both.statusCode).toBe(400);
    const mismatch = await get(`/v1/holding/holdings/simple?inAccountId=${book.accountIds[0]}&accountId=${book.accountIds[1]}`);
    expect(problemField(mismatch.json())).toEqual(['querystring.accountId']);
    expect((await get(`/v1/holding/holdings/simple?inAccountId=${book.strangerAccount}`)).statusCode).toBe(404);
    expect((await get(`/v1/holding/holdings/simple?inPortfolioId=${book.strangerPortfolio}`)).statusCode).toBe(404);
  });

  it('lists security sets as the models\' lines', async () => {
    const sets = await get('/v1/security/securityset');
    expect(sets.statusCode, sets.body).toBe(200);
    const set = sets.json().find((s: { id: number }) => s.id === book.modelId);
    expect(set).toMatchObject({ name: 'Eclipse Growth', isDeleted: 0, cashTargetPercent: 10 });
    expect(set.details).toEqual([
      { securitySetId: book.modelId, securityId: book.products[0]!.id, symbol: 'ECLA', rank: 1, targetPercent: 60, lowerModelTolerancePercent: 5, upperModelTolerancePercent: 5, equivalences: [] },
      { securitySetId: book.modelId, securityId: book.products[1]!.id, symbol: 'ECLB', rank: 2, targetPercent: 30, lowerModelTolerancePercent: 2, upperModelTolerancePercent: 3, equivalences: [] },
    ]);
    expect((await get('/v1/security/securityset', book.stranger)).json().map((s: { id: number }) => s.id)).not.toContain(book.modelId);
  });

  it('reads one security set with its securities and their equivalents; another firm\'s or an unknown id is 404, a bad id 400', async () => {
    const [a, b] = book.products as [{ id: number; ticker: string }, { id: number; ticker: string }];
    const eq = await createProduct(t.db.kysely, t.firm.firmId, 49, 'ECLE');
    const created = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/v1/modeling/models',
      headers: { authorization: book.admin },
      payload: { name: 'Eclipse Set Detail', description: 'Two lines', cashTargetPercent: 5, targets: [{ productId: b.id, targetPercent: 55, lowerTolerance: 4, upperTolerance: 6, equivalents: [eq.id] }, { productId: a.id, targetPercent: 40 }] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as number;
    const one = await get(`/v1/security/securityset/details/${id}`);
    expect(one.statusCode, one.body).toBe(200);
    const set = one.json();
    expect(set).toMatchObject({ id, name: 'Eclipse Set Detail', description: 'Two lines', isDeleted: 0, isDynamic: false, cashTargetPercent: 5 });
    const product = async (productId: number) => t.db.kysely.selectFrom('products').select(['ticker', 'name']).where('id', '=', productId).executeTakeFirstOrThrow();
    const [pa, pb, pe] = [await product(a.id), await product(b.id), await product(eq.id)];
    // Lines in the model's order (by ticker), ranked from 1.
    expect(set.securities).toEqual([
      { id: a.id, securityId: a.id, symbol: 'ECLA', name: pa.name, rank: 1, targetPercent: 40, lowerModelTolerancePercent: 0, upperModelTolerancePercent: 0, equivalences: [] },
      {
        id: b.id, securityId: b.id, symbol: 'ECLB', name: pb.name, rank: 2, targetPercent: 55, lowerModelTolerancePercent: 4, upperModelTolerancePercent: 6,
        equivalences: [{ id: eq.id, securityId: eq.id, symbol: 'ECLE', name: pe.name }],
      },
    ]);
    expect(set.details.map((d: { securityId: number }) => d.securityId)).toEqual([a.id, b.id]);
    // What the source system's client reads (export_security_set_to_file): the bounds come back from target and band.
    expect(set.securities.map((s: { symbol: string; targetPercent: number; lowerModelTolerancePercent: number; upperModelTolerancePercent: number }) => [s.symbol, s.targetPercent - s.lowerModelTolerancePercent, s.targetPercent + s.upperModelTolerancePercent])).toEqual([['ECLA', 40, 40], ['ECLB', 51, 61]]);

    const missing = (response: { statusCode: number; json: () => { status: number } }) => [response.statusCode, response.json().status];
    expect(missing(await get(`/v1/security/securityset/details/${id}`, book.stranger))).toEqual([404, 404]);
    expect(missing(await get(`/v1/security/securityset/details/${t.otherFirm.modelId}`))).toEqual([404, 404]);
    expect(missing(await get('/v1/security/securityset/details/987654321'))).toEqual([404, 404]);
    const bad = await get('/v1/security/securityset/details/abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('securitySetId');
  });

  it('searches securities by ticker, name or id, case-insensitive and partial', async () => {
    const byTicker = await get('/v1/security/securities?search=ecla&top=20&excludeCashSecurity=true');
    expect(byTicker.statusCode, byTicker.body).toBe(200);
    expect(byTicker.json()).toEqual([expect.objectContaining({ id: book.products[0]!.id, symbol: 'ECLA', price: 100, isCash: false })]);
    expect((await get('/v1/security/securities?search=CLB%20FU')).json().map((s: { symbol: string }) => s.symbol)).toEqual(['ECLB']);
    expect((await get(`/v1/security/securities?search=${book.products[1]!.id}`)).json().map((s: { symbol: string }) => s.symbol)).toContain('ECLB');
    expect((await get('/v1/security/securities?search=ecl&top=1')).json()).toHaveLength(1);
    expect((await get('/v1/security/securities?search=ecla', book.stranger)).json()).toEqual([]);
    const missing = await get('/v1/security/securities');
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('search');
  });

  it('lists trade instances of a date range with the source system\'s type codes', async () => {
    const found = await get('/v1/tradeorder/instances?startDate=2026-11-01&endDate=2026-11-02');
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual([expect.objectContaining({ id: book.instanceId, tradeInstanceType: 6, tradeInstanceSubType: 14, orderCount: 2, status: 'Open', notes: 'November rebalance' })]);
    expect((await get('/v1/tradeorder/instances?startDate=2026-11-03&endDate=2026-11-30')).json()).toEqual([]);
    expect((await get('/v1/tradeorder/instances?startDate=2026-11-01&endDate=2026-11-02', book.stranger)).json()).toEqual([]);
    const reversed = await get('/v1/tradeorder/instances?startDate=2026-11-05&endDate=2026-11-01');
    expect(reversed.statusCode).toBe(400);
    expect(problemField(reversed.json())).toEqual(['querystring.endDate']);
    const missing = await get('/v1/tradeorder/instances?startDate=2026-11-01');
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('endDate');
  });

  it('pages trade instances: 1000 by default, $top/$skip newest first, the total always, the next page in Link', async () => {
    const instance = { firm_id: t.firm.firmId, routine: 'Rebalance' as const, notes: 'October', request: '{}', status: 'Open' as const, created_at: '2026-10-15T10:00:00.000Z', created_by: 'admin@alpha', cancelled_at: null, cancelled_by: null, trade_count: 0 };
    await t.db.kysely.insertInto('trade_instances').values([instance, instance, instance]).execute();
    const path = '/v1/tradeorder/instances?startDate=2026-10-15&endDate=2026-10-15';
    const whole = await get(path);
    const all = whole.json().map((i: { id: number }) => i.id);
    expect(all).toHaveLength(3);
    expect(all).toEqual([...all].sort((a: number, b: number) => b - a));
    expect(whole.headers['x-total-count']).toBe('3');
    expect(whole.headers.link).toBeUndefined();
    const page = await get(`${path}&$top=1&$skip=1`);
    expect(page.json().map((i: { id: number }) => i.id)).toEqual(all.slice(1, 2));
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toBe(`</rebalancer${path}&$top=1&$skip=2>; rel="next"`);
    const last = await get(`${path}&$top=2&$skip=2`);
    expect(last.json().map((i: { id: number }) => i.id)).toEqual(all.slice(2));
    expect(last.headers.link).toBeUndefined();
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=10001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await get(`${path}&${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(problemField(bad.json()), query).toEqual([field]);
    }
  });

  it('lists trade orders, pending or not, of a portfolio, paged', async () => {
    const pending = await get('/v1/tradeorder/trades?isPending=true');
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json()).toEqual([
      expect.objectContaining({ id: book.openTradeId, tradeInstanceId: book.instanceId, accountId: book.accountIds[0], portfolioId: book.portfolioId, ticker: 'ECLA', action: 2, orderQty: 5, tradeAmount: 500, price: 100, status: 'Open', isPending: true }),
    ]);
    expect((await get('/v1/tradeorder/trades?isPending=false')).json()).toEqual([expect.objectContaining({ id: book.executedTradeId, action: 1, status: 'Executed', isPending: false, executedDate: '2026-11-03T15:00:00.000Z' })]);
    expect((await get(`/v1/tradeorder/trades?portfolioId=${book.portfolioId}&$top=1`)).json().map((o: { id: number }) => o.id)).toEqual([book.openTradeId]);
    expect((await get('/v1/tradeorder/trades', book.stranger)).json()).toEqual([]);
    expect((await get(`/v1/tradeorder/trades?portfolioId=${book.strangerPortfolio}`)).statusCode).toBe(404);
    const bad = await get('/v1/tradeorder/trades?isPending=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('isPending');
  });

  it('gives the trade orders\' total with $count=true and the next page in Link', async () => {
    const whole = await get(`/v1/tradeorder/trades?portfolioId=${book.portfolioId}`);
    expect(whole.headers['x-total-count']).toBeUndefined();
    const all = whole.json().map((o: { id: number }) => o.id);
    expect(all.length).toBeGreaterThanOrEqual(2);
    const counted = await get(`/v1/tradeorder/trades?portfolioId=${book.portfolioId}&$count=true`);
    expect(counted.headers['x-total-count']).toBe(String(all.length));
    expect(counted.headers.link).toBeUndefined();
    const page = await get(`/v1/tradeorder/trades?portfolioId=${book.portfolioId}&$top=1&$count=true`);
    expect(page.json().map((o: { id: number }) => o.id)).toEqual(all.slice(0, 1));
    expect(page.headers['x-total-count']).toBe(String(all.length));
    expect(page.headers.link).toBe(`</rebalancer/v1/tradeorder/trades?portfolioId=${book.portfolioId}&$top=1&$count=true&$skip=1>; rel="next"`);
    const last = await get(`/v1/tradeorder/trades?portfolioId=${book.portfolioId}&$top=1&$skip=${all.length - 1}&$count=true`);
    expect(last.json().map((o: { id: number }) => o.id)).toEqual(all.slice(-1));
    expect(last.headers.link).toBeUndefined();
    expect((await get('/v1/tradeorder/trades?isPending=true&$count=true')).headers['x-total-count']).toBe('1');
    expect((await get('/v1/tradeorder/trades?$count=true', book.stranger)).headers['x-total-count']).toBe('0');
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$skip=-1', 'querystring.$skip'], ['$count=maybe', 'querystring.$count']]) {
      const refused = await get(`/v1/tradeorder/trades?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(problemField(refused.json()), query).toEqual([field]);
    }
  });

  it('lists sleeves: the sleeve accounts', async () => {
    await t.db.kysely.updateTable('accounts').set({ sleeve_type: 'Normal', sleeve_target_pct: 40, sleeve_tolerance_lower: 2, sleeve_tolerance_upper: 2 }).where('id', '=', book.accountIds[1]).execute();
    const sleeves = await get('/v1/portfolio/sleeves');
    expect(sleeves.statusCode, sleeves.body).toBe(200);
    expect(sleeves.json()).toEqual([expect.objectContaining({ id: book.accountIds[1], portfolioId: book.portfolioId, sleeveType: 'Normal', sleeveTarget: 40, isDeleted: 0 })]);
    expect((await get('/v1/portfolio/sleeves', book.stranger)).json()).toEqual([]);
    await t.db.kysely.updateTable('accounts').set({ sleeve_type: null, sleeve_target_pct: null, sleeve_tolerance_lower: null, sleeve_tolerance_upper: null }).where('id', '=', book.accountIds[1]).execute();
  });

  it('pages sleeves: every one unless $top, $top/$skip in id order, the total always, the next page in Link', async () => {
    const sleeve = { sleeve_type: 'Normal' as const, sleeve_target_pct: 50, sleeve_tolerance_lower: 2, sleeve_tolerance_upper: 2 };
    await t.db.kysely.updateTable('accounts').set(sleeve).where('id', 'in', book.accountIds).execute();
    try {
      const whole = await get('/v1/portfolio/sleeves');
      expect(whole.json().map((x: { id: number }) => x.id)).toEqual(book.accountIds);
      expect(whole.headers['x-total-count']).toBe('2');
      expect(whole.headers.link).toBeUndefined();
      const page = await get('/v1/portfolio/sleeves?$top=1');
      expect(page.json().map((x: { id: number }) => x.id)).toEqual([book.accountIds[0]]);
      expect(page.headers['x-total-count']).toBe('2');
      expect(page.headers.link).toBe('</rebalancer/v1/portfolio/sleeves?$top=1&$skip=1>; rel="next"');
      const last = await get('/v1/portfolio/sleeves?$top=1&$skip=1');
      expect(last.json().map((x: { id: number }) => x.id)).toEqual([book.accountIds[1]]);
      expect(last.headers.link).toBeUndefined();
      for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=100001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
        const bad = await get(`/v1/portfolio/sleeves?${query}`);
        expect(bad.statusCode, query).toBe(400);
        expect(problemField(bad.json()), query).toEqual([field]);
      }
      const stranger = await get('/v1/portfolio/sleeves', book.stranger);
      expect(stranger.json()).toEqual([]);
      expect(stranger.headers['x-total-count']).toBe('0');
    } finally {
      await t.db.kysely.updateTable('accounts').set({ sleeve_type: null, sleeve_target_pct: null, sleeve_tolerance_lower: null, sleeve_tolerance_upper: null }).where('id', 'in', book.accountIds).execute();
    }
  });

  it('pages security sets as the models: 1000 by default, $top/$skip by name, the total of those the caller sees, the next page in Link', async () => {
    const income = await t.app.inject({ method: 'POST', url: '/rebalancer/v1/modeling/models', headers: { authorization: book.admin }, payload: { name: 'Eclipse Income', cashTargetPercent: 0, targets: [{ productId: book.products[1]!.id, targetPercent: 100 }] } });
    expect(income.statusCode, income.body).toBe(200);
    const whole = await get('/v1/security/securityset');
    const names = whole.json().map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Eclipse Growth', 'Eclipse Income']));
    expect(names).toEqual([...names].sort());
    expect(whole.headers['x-total-count']).toBe(String(names.length));
    expect(whole.headers.link).toBeUndefined();
    const page = await get('/v1/security/securityset?$top=1&$skip=1');
    expect(page.json().map((x: { name: string }) => x.name)).toEqual(names.slice(1, 2));
    expect(page.headers['x-total-count']).toBe(String(names.length));
    if (names.length > 2) expect(page.headers.link).toBe('</rebalancer/v1/security/securityset?$top=1&$skip=2>; rel="next"');
    const first = await get('/v1/security/securityset?$top=1');
    expect(first.headers.link).toBe('</rebalancer/v1/security/securityset?$top=1&$skip=1>; rel="next"');
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=100001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await get(`/v1/security/securityset?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(problemField(bad.json()), query).toEqual([field]);
    }
    const stranger = await get('/v1/security/securityset', book.stranger);
    expect(stranger.json().map((x: { id: number }) => x.id)).not.toContain(book.modelId);
    expect(stranger.headers['x-total-count']).toBe(String(stranger.json().length));
  });

  it('needs a token and the portfolio read privilege on every read', async () => {
    const urls = [
      '/v1/portfolio/portfolios/simple',
      `/v1/portfolio/portfolios/${book.portfolioId}`,
      `/v1/portfolio/portfolios/${book.portfolioId}/accounts`,
      `/v1/holding/holdings/simple?inAccountId=${book.accountIds[0]}`,
      '/v1/security/securityset',
      `/v1/security/securityset/details/${book.modelId}`,
      '/v1/security/securities?search=a',
      '/v1/tradeorder/instances?startDate=2026-11-01&endDate=2026-11-02',
      '/v1/tradeorder/trades',
      '/v1/portfolio/sleeves',
    ];
    for (const url of urls) {
      expect((await t.app.inject({ url: `/rebalancer${url}` })).statusCode, url).toBe(401);
      expect((await get(url, book.nobody)).statusCode, url).toBe(403);
    }
  });
});
