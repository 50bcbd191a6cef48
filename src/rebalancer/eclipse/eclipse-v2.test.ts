import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { rebalancerSession } from '../../../test/support/rebalancer.js';
import { type EclipseBook, eclipseBook } from './test-support.js';

/** The source system's v2 Eclipse reads: accounts, set aside settings, trade block reads, blocks, strategies, teams and searches. */
describeEachDatabase('Eclipse v2 reads (accounts, trade blocks, teams, searches)', (database) => {
  const t = useTestApp(database);
  let book: EclipseBook;
  const get = (url: string, authorization = book.admin) => t.app.inject({ url: `/rebalancer${url}`, headers: { authorization } });
  const post = (url: string, payload: unknown, authorization = book.admin) => t.app.inject({ method: 'POST', url: `/rebalancer${url}`, payload: payload as object, headers: { authorization } });
  const fields = (body: { errors?: { field: string }[] }) => body.errors?.map((e) => e.field);
  let planId: number;
  let setAsideId: number;

  beforeAll(async () => {
    book = await eclipseBook(t);
    const now = new Date().toISOString();
    const plan = await t.db.kysely
      .insertInto('restricted_plans')
      .values({ firm_id: t.firm.firmId, name: 'Eclipse ESG', name_key: 'eclipse esg', use_in_trade_file: 0, external_plan_id: 'ESG-1', created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    planId = plan.id;
    await t.db.kysely.updateTable('accounts').set({ restricted_plan_id: planId }).where('id', '=', book.accountIds[0]).execute();
    const setAside = await post(`/v1/account/accounts/${book.accountIds[0]}/asidecash`, { cashAmountTypeId: 1, cashAmount: 250, expirationTypeId: 3, description: 'Tuition' });
    expect(setAside.statusCode, setAside.body).toBe(200);
    setAsideId = setAside.json().id;
  });

  it('lists accounts with v2 names, and reads one with its holdings', async () => {
    const list = await get('/api/v2/Account/Accounts?filterId=0');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.json()[0]).toMatchObject({ id: book.accountIds[0], accountNumber: 'ECL-7731', portfolioId: book.portfolioId, registrationId: book.portfolioId, restrictedPlanName: 'Eclipse ESG', isDisabled: 0, value: 8000 });
    expect((await get('/api/v2/Account/Accounts?filterId=3')).statusCode).toBe(400);
    const one = await get(`/api/v2/Account/Accounts/${book.accountIds[0]}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ id: book.accountIds[0], restrictedPlanId: planId, restrictedPlanName: 'Eclipse ESG', summarySection: { totalValue: 8000, setAsideCash: 250 } });
    expect(one.json().accountValue).toEqual({
      totalValue: 8000,
      holdings: [
        { securityId: book.products[0]!.id, securityName: 'ECLA fund', securitySymbol: 'ECLA', marketValue: 6000, unit: 60, price: 100, percentage: 75, pendingValue: 5500 },
        { securityId: book.products[1]!.id, securityName: 'ECLB fund', securitySymbol: 'ECLB', marketValue: 1000, unit: 20, price: 50, percentage: 12.5, pendingValue: 1000 },
      ],
    });
    expect((await get(`/api/v2/Account/Accounts/${book.strangerAccount}`)).statusCode).toBe(404);
    expect((await get('/api/v2/Account/Accounts', book.stranger)).json().map((a: { id: number }) => a.id)).toEqual([book.strangerAccount]);
  });

  it('lists a restricted plan\'s accounts by id or external id', async () => {
    const byId = await get(`/api/v2/Account/Accounts/RestrictedPlan?restrictedPlanId=${planId}`);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().map((a: { id: number }) => a.id)).toEqual([book.accountIds[0]]);
    expect((await get('/api/v2/Account/Accounts/RestrictedPlan?externalPlanId=ESG-1')).json().map((a: { id: number }) => a.id)).toEqual([book.accountIds[0]]);
    const none = await get('/api/v2/Account/Accounts/RestrictedPlan');
    expect(none.statusCode).toBe(400);
    expect(fields(none.json())).toEqual(['querystring.restrictedPlanId']);
    expect((await get(`/api/v2/Account/Accounts/RestrictedPlan?restrictedPlanId=${planId}`, book.stranger)).statusCode).toBe(404);
  });

  it('pages a restricted plan\'s accounts: every one unless $top, $top/$skip, the total always, the next page in Link', async () => {
    await t.db.kysely.updateTable('accounts').set({ restricted_plan_id: planId }).where('id', '=', book.accountIds[1]).execute();
    try {
      const path = `/api/v2/Account/Accounts/RestrictedPlan?restrictedPlanId=${planId}`;
      const whole = await get(path);
      expect(whole.json().map((a: { id: number }) => a.id)).toEqual(book.accountIds);
      expect(whole.headers['x-total-count']).toBe('2');
      expect(whole.headers.link).toBeUndefined();
      const page = await get(`${path}&$top=1`);
      expect(page.json().map((a: { id: number }) => a.id)).toEqual([book.accountIds[0]]);
      expect(page.headers['x-total-count']).toBe('2');
      expect(page.headers.link).toBe(`</rebalancer${path}&$top=1&$skip=1>; rel="next"`);
      const last = await get(`${path}&$top=1&$skip=1`);
      expect(last.json().map((a: { id: number }) => a.id)).toEqual([book.accountIds[1]]);
      expect(last.headers.link).toBeUndefined();
      for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=100001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
        const bad = await get(`${path}&${query}`);
        expect(bad.statusCode, query).toBe(400);
        expect(fields(bad.json()), query).toEqual([field]);
      }
      expect((await get(path, book.stranger)).statusCode).toBe(404);
    } finally {
      await t.db.kysely.updateTable('accounts').set({ restricted_plan_id: null }).where('id', '=', book.accountIds[1]).execute();
    }
  });

  it('answers the set aside records of posted account ids, and refuses an unknown id whole', async () => {
    const found = await post('/api/v2/Account/Accounts/SetAsideCashSettings', book.accountIds);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual([
      expect.objectContaining({ id: setAsideId, accountId: book.accountIds[0], accountNumber: 'ECL-7731', setAsideCashAmount: 250, isActive: true, description: 'Tuition', expirationTypeId: 3, expirationType: 'None' }),
    ]);
    const before = await t.db.kysely.selectFrom('set_aside_cash').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const unknown = await post('/api/v2/Account/Accounts/SetAsideCashSettings', [book.accountIds[0], book.strangerAccount]);
    expect(unknown.statusCode).toBe(400);
    expect(fields(unknown.json())).toEqual(['[1]']);
    const notIds = await post('/api/v2/Account/Accounts/SetAsideCashSettings', ['x']);
    expect(notIds.statusCode).toBe(400);
    expect((await post('/api/v2/Account/Accounts/SetAsideCashSettings', { accountIds: [1] })).statusCode).toBe(400);
    const after = await t.db.kysely.selectFrom('set_aside_cash').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await post('/api/v2/Account/Accounts/SetAsideCashSettings', [])).json()).toEqual([]);
  });

  it('answers related entities at their own path (not the {id} route) and the details\' history', async () => {
    const related = await get(`/api/v2/TradeBlockDetails/RelatedEntities?entityId=${book.portfolioId}&entityType=16`);
    expect(related.statusCode, related.body).toBe(200);
    expect(related.json()).toEqual([
      { id: book.portfolioId, entityType: 16, name: 'Eclipse Joint' },
      { id: book.accountIds[0], entityType: 32, name: 'Eclipse Brokerage' },
      { id: book.accountIds[1], entityType: 32, name: 'Eclipse Cash' },
    ]);
    expect((await get(`/api/v2/TradeBlockDetails/relatedentities?entityId=${book.accountIds[1]}&entityType=32`)).json()).toEqual([
      { id: book.accountIds[1], entityType: 32, name: 'Eclipse Cash' },
      { id: book.portfolioId, entityType: 16, name: 'Eclipse Joint' },
    ]);
    const badType = await get(`/api/v2/TradeBlockDetails/RelatedEntities?entityId=${book.portfolioId}&entityType=7`);
    expect(badType.statusCode).toBe(400);
    expect(badType.body).toContain('entityType');
    expect((await get(`/api/v2/TradeBlockDetails/RelatedEntities?entityId=${book.strangerAccount}&entityType=32`)).statusCode).toBe(404);

    const own = await firstReason();
    const reasons = await get('/api/v2/TradeBlockReasons/Editable');
    expect(reasons.statusCode, reasons.body).toBe(200);
    expect(reasons.json()).toEqual([expect.objectContaining({ id: own.id, name: 'Estate', isSystemMaintained: false, allowDetailAssignment: true })]);
    expect((await get('/api/v2/TradeBlockReasons/Editable', book.stranger)).json()).toEqual([]);
    const reason = await post('/api/v2/TradeBlockDetails', { relatedType: 32, relatedTypeId: book.accountIds[0], tradeBlockReasonId: own.id, description: 'Estate review', startDate: '2026-11-01' });
    expect(reason.statusCode, reason.body).toBe(200);
    const history = await get(`/api/v2/TradeBlockDetails/History/32/${book.accountIds[0]}`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json()).toEqual([expect.objectContaining({ id: reason.json().id, changeType: 'Added', description: 'Estate review', startDate: '2026-11-01', endDate: null })]);
    expect((await get(`/api/v2/TradeBlockDetails/History/32/${book.accountIds[0]}?startDate=2000-01-01&endDate=2000-01-02`)).json()).toEqual([]);
    expect((await get(`/api/v2/TradeBlockDetails/History/32/${book.strangerAccount}`)).statusCode).toBe(404);
    const reversed = await get(`/api/v2/TradeBlockDetails/History/32/${book.accountIds[0]}?startDate=2026-11-02&endDate=2026-11-01`);
    expect(fields(reversed.json())).toEqual(['querystring.endDate']);
    expect((await get(`/api/v2/TradeBlockDetails/History/7/${book.accountIds[0]}`)).statusCode).toBe(400);
  });

  /** A reason of the firm's own (editable), written straight to the table. */
  async function firstReason(): Promise<{ id: number }> {
    const now = new Date().toISOString();
    return t.db.kysely
      .insertInto('trade_block_reasons')
      .values({ firm_id: t.firm.firmId, global_id: crypto.randomUUID(), name: 'Estate', is_system_maintained: 0, allow_detail_assignment: 1, created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  it('sums open trade orders into blocks per security and side', async () => {
    const blocks = await get('/api/v2/Trading/Blocks?hasQuodd=false&getAdv=false');
    expect(blocks.statusCode, blocks.body).toBe(200);
    expect(blocks.json()).toEqual([expect.objectContaining({ id: book.openTradeId, tradeActionId: 2, securityId: book.products[0]!.id, symbol: 'ECLA', orderQuantity: 5, estimateAmount: 500, tradeCount: 1, accountCount: 1 })]);
    expect((await get('/api/v2/Trading/Blocks', book.stranger)).json()).toEqual([]);
    expect((await get('/api/v2/Trading/Blocks?hasQuodd=perhaps')).statusCode).toBe(400);
  });

  it('pages the blocks: 5000 by default, $top/$skip by ticker and side, the total always, the next page in Link', async () => {
    const k = t.db.kysely;
    const [a, b] = book.products as [{ id: number; ticker: string }, { id: number; ticker: string }];
    const open = { firm_id: t.firm.firmId, trade_instance_id: book.instanceId, account_id: book.accountIds[0], trade_type: 'Shares' as const, reason: 'Rebalance', status: 'Open' as const, created_at: '2026-11-02T10:00:00.000Z', executed_at: null };
    const added = await k
      .insertInto('trades')
      .values([
        { ...open, product_id: a.id, side: 'Buy', shares_micros: 1_000_000, amount_cents: 10_000, price_micros: 100_000_000 },
        { ...open, product_id: b.id, side: 'Buy', shares_micros: 2_000_000, amount_cents: 10_000, price_micros: 50_000_000 },
      ])
      .returning('id')
      .execute();
    try {
      const blocks = (r: { json: () => { symbol: string; tradeActionId: number }[] }) => r.json().map((x) => `${x.symbol} ${x.tradeActionId}`);
      const whole = await get('/api/v2/Trading/Blocks');
      expect(blocks(whole)).toEqual(['ECLA 1', 'ECLA 2', 'ECLB 1']);
      expect(whole.headers['x-total-count']).toBe('3');
      expect(whole.headers.link).toBeUndefined();
      const path = '/api/v2/Trading/Blocks?getAdv=false';
      const page = await get(`${path}&$top=1&$skip=1`);
      expect(blocks(page)).toEqual(['ECLA 2']);
      expect(page.headers['x-total-count']).toBe('3');
      expect(page.headers.link).toBe(`</rebalancer${path}&$top=1&$skip=2>; rel="next"`);
      const last = await get(`${path}&$top=2&$skip=2`);
      expect(blocks(last)).toEqual(['ECLB 1']);
      expect(last.headers.link).toBeUndefined();
      for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=50001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
        const bad = await get(`${path}&${query}`);
        expect(bad.statusCode, query).toBe(400);
        expect(fields(bad.json()), query).toEqual([field]);
      }
      const stranger = await get('/api/v2/Trading/Blocks', book.stranger);
      expect(stranger.json()).toEqual([]);
      expect(stranger.headers['x-total-count']).toBe('0');
    } finally {
      await k.deleteFrom('trades').where('id', 'in', added.map((r) => r.id)).execute();
    }
  });

  it('lists sleeve strategies (model aggregates) and teams', async () => {
    const agg = await t.db.kysely.insertInto('model_aggs').values({ firm_id: t.firm.firmId, name: 'Core and Satellite' }).returning('id').executeTakeFirstOrThrow();
    await t.db.kysely.insertInto('model_agg_models').values({ firm_id: t.firm.firmId, model_agg_id: agg.id, model_id: book.modelId, weight_pct: 100 }).execute();
    const strategies = await get('/api/v2/Portfolio/Sleeves/SleeveStrategies');
    expect(strategies.statusCode, strategies.body).toBe(200);
    expect(strategies.json()).toContainEqual({ id: agg.id, name: 'Core and Satellite', hasAssignedRegistrations: false, models: [{ modelId: book.modelId, name: 'Eclipse Growth', weightPercent: 100 }] });
    expect((await get('/api/v2/Portfolio/Sleeves/SleeveStrategies', book.stranger)).json().map((s: { id: number }) => s.id)).not.toContain(agg.id);

    const team = await t.db.kysely.insertInto('teams').values({ firm_id: t.firm.firmId, name: 'Desk East' }).returning('id').executeTakeFirstOrThrow();
    const teams = await get('/api/v2/Team/Team/GetTeams');
    expect(teams.statusCode, teams.body).toBe(200);
    expect(teams.json()).toContainEqual({ id: team.id, name: 'Desk East' });
    expect((await get(`/api/v2/Team/Team/GetTeams?externalId=${team.id}`)).json()).toEqual([{ id: team.id, name: 'Desk East' }]);
    expect((await get('/api/v2/Team/Team/GetTeams?externalId=abc')).json()).toEqual([]);
    expect((await get(`/api/v2/Team/Team/GetTeams?externalId=${team.id}`, book.stranger)).json()).toEqual([]);
  });

  it('searches accounts by number, name or id, case-insensitive and partial, paged', async () => {
    const byNumber = await get('/api/v2/AccountSearch/AccountSearchList?search=ecl-77');
    expect(byNumber.statusCode, byNumber.body).toBe(200);
    expect(byNumber.json().map((a: { id: number }) => a.id)).toEqual(book.accountIds);
    expect(byNumber.json()[0]).toMatchObject({ accountNumber: 'ECL-7731', name: 'Eclipse Brokerage', portfolioId: book.portfolioId, portfolioName: 'Eclipse Joint', custodian: 'Schwab' });
    expect((await get('/api/v2/AccountSearch/AccountSearchList?search=BROKER')).json().map((a: { id: number }) => a.id)).toEqual([book.accountIds[0]]);
    expect((await get(`/api/v2/AccountSearch/AccountSearchList?search=${book.accountIds[1]}`)).json().map((a: { id: number }) => a.id)).toContain(book.accountIds[1]);
    expect((await get('/api/v2/AccountSearch/AccountSearchList?search=ecl-77&limit=1&offset=1')).json().map((a: { id: number }) => a.id)).toEqual([book.accountIds[1]]);
    expect((await get('/api/v2/AccountSearch/AccountSearchList?search=100%25')).json()).toEqual([]);
    expect((await get('/api/v2/AccountSearch/AccountSearchList?search=ecl', book.stranger)).json()).toEqual([]);
    const empty = await get('/api/v2/AccountSearch/AccountSearchList?search=%20');
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('search');
    expect((await get('/api/v2/AccountSearch/AccountSearchList?search=a&limit=1001')).statusCode).toBe(400);
  });

  it('searches securities with skip/take and the firm and account context', async () => {
    const found = await get(`/api/v2/SecuritySearch/SecuritySearchList?search=ECL&skip=1&take=5&externalFirmId=${t.firm.firmId}&externalAccountId=${book.accountIds[0]}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().map((s: { symbol: string }) => s.symbol)).toEqual(['ECLB']);
    expect((await get(`/api/v2/SecuritySearch/SecuritySearchList?search=ecl&externalFirmId=${t.otherFirm.firmId}`)).statusCode).toBe(404);
    expect((await get(`/api/v2/SecuritySearch/SecuritySearchList?search=ecl&externalAccountId=${book.strangerAccount}`)).statusCode).toBe(404);
    expect((await get('/api/v2/SecuritySearch/SecuritySearchList')).statusCode).toBe(400);
  });

  it('searches portfolios, accounts and models at once', async () => {
    const found = await get('/api/v2/GlobalSearch/GlobalSearchList?search=eclipse&includeValue=true&limit=5');
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({
      portfolios: [{ id: book.portfolioId, name: 'Eclipse Joint', value: 8500, isDeleted: false }],
      accounts: [
        { id: book.accountIds[0], name: 'Eclipse Brokerage', value: 8000, isDeleted: false },
        { id: book.accountIds[1], name: 'Eclipse Cash', value: 500, isDeleted: false },
      ],
      models: [{ id: book.modelId, name: 'Eclipse Growth', isDeleted: false }],
    });
    expect((await get(`/api/v2/GlobalSearch/GlobalSearchList?search=${book.modelId}`)).json().models).toEqual([{ id: book.modelId, name: 'Eclipse Growth', isDeleted: false }]);
    const byName = await get('/api/v2/GlobalSearch/GlobalSearchList?name=ecl-7731');
    expect(byName.json()).toEqual({ portfolios: [], accounts: [], models: [] });
    expect((await get('/api/v2/GlobalSearch/GlobalSearchList?search=ecl-7731&limit=1')).json().accounts).toEqual([{ id: book.accountIds[0], name: 'Eclipse Brokerage', isDeleted: false }]);
    expect((await get('/api/v2/GlobalSearch/GlobalSearchList?search=eclipse', book.stranger)).json()).toEqual({ portfolios: [], accounts: [], models: [] });
    // Models are those the caller may see: one on a team is found by the team's members only.
    const team = await t.db.kysely.insertInto('teams').values({ firm_id: t.firm.firmId, name: 'Desk Global' }).returning('id').executeTakeFirstOrThrow();
    await t.db.kysely.insertInto('team_users').values({ firm_id: t.firm.firmId, team_id: team.id, user_id: t.firm.users.advisor.id }).execute();
    const teamModel = await post('/v1/modeling/models', { name: 'Eclipse Desk Only', cashTargetPercent: 10, teamIds: [team.id], targets: [{ productId: book.products[0]!.id, targetPercent: 90 }] }, book.admin);
    expect(teamModel.statusCode, teamModel.body).toBe(200);
    const modelsSeen = async (who: 'advisor' | 'reader') => (await get('/api/v2/GlobalSearch/GlobalSearchList?search=ECLIPSE%20desk', await rebalancerSession(t, who))).json().models;
    expect(await modelsSeen('advisor')).toEqual([{ id: teamModel.json().id, name: 'Eclipse Desk Only', isDeleted: false }]);
    expect(await modelsSeen('reader')).toEqual([]);
    const none = await get('/api/v2/GlobalSearch/GlobalSearchList');
    expect(none.statusCode).toBe(400);
    expect(fields(none.json())).toEqual(['querystring.search']);
    expect((await get('/api/v2/GlobalSearch/GlobalSearchList?search=a&status=closed')).statusCode).toBe(400);
  });

  it('needs a token and the portfolio read privilege on every read', async () => {
    const urls = [
      '/api/v2/Account/Accounts',
      `/api/v2/Account/Accounts/${book.accountIds[0]}`,
      `/api/v2/Account/Accounts/RestrictedPlan?restrictedPlanId=${planId}`,
      '/api/v2/TradeBlockReasons/Editable',
      `/api/v2/TradeBlockDetails/History/16/${book.portfolioId}`,
      `/api/v2/TradeBlockDetails/RelatedEntities?entityId=${book.portfolioId}&entityType=16`,
      '/api/v2/Trading/Blocks',
      '/api/v2/Portfolio/Sleeves/SleeveStrategies',
      '/api/v2/Team/Team/GetTeams',
      '/api/v2/AccountSearch/AccountSearchList?search=a',
      '/api/v2/SecuritySearch/SecuritySearchList?search=a',
      '/api/v2/GlobalSearch/GlobalSearchList?search=a',
    ];
    for (const url of urls) {
      expect((await t.app.inject({ url: `/rebalancer${url}` })).statusCode, url).toBe(401);
      expect((await get(url, book.nobody)).statusCode, url).toBe(403);
    }
    expect((await post('/api/v2/Account/Accounts/SetAsideCashSettings', book.accountIds, book.nobody)).statusCode).toBe(403);
  });
});
