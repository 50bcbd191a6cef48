import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { useTestApp } from '../../../test/support/app.js';

/** The portfolio hierarchy as the source system's clients read it. */
describeEachDatabase('portfolio hierarchy reads in the source system\'s shapes', (database) => {
  const t = useTestApp(database);
  const call = async (url: string, user: 'admin' | 'reader' | 'nobody' = 'admin', of: 'firm' | 'otherFirm' = 'firm') =>
    t.app.inject({ method: 'GET', url, headers: { authorization: await t.session(user, of) } });
  const post = async (url: string, payload: object) =>
    (await t.app.inject({ method: 'POST', url, payload, headers: { authorization: await t.session('admin') } })).json();
  const put = async (url: string, payload: object) =>
    t.app.inject({ method: 'PUT', url, payload, headers: { authorization: await t.session('admin') } });

  async function household() {
    const tag = Math.random().toString(36).slice(2, 8);
    const client = await post('/api/v1/Portfolio/Clients/Verbose', { name: `Okafor ${tag} Household`, representativeId: t.firm.representativeId, notes: 'prefers ETFs' });
    const ira = await post('/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: `Okafor ${tag} IRA`, type: 'Roth IRA' });
    const trust = await post('/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: `Okafor ${tag} Trust`, type: 'Family Trust' });
    const product = await post('/api/v1/Portfolio/Products/Verbose', { ticker: `Q${tag}`, name: `Quality ${tag} Fund`, type: 'ETF', price: 50, priceDate: '2026-11-20' });
    const account = await post('/api/v1/Portfolio/Accounts/Verbose', { registrationId: ira.id, number: `N-${tag}`, name: `Okafor ${tag} Roth`, custodian: 'Schwab', modelId: t.firm.modelId, cash: 100.25 });
    const second = await post('/api/v1/Portfolio/Accounts/Verbose', { registrationId: trust.id, number: `T-${tag}`, name: `Okafor ${tag} Trust Brokerage`, custodian: 'Fidelity', cash: 0 });
    expect((await put(`/api/v1/Portfolio/Accounts/${account.id}/Positions`, [{ productId: product.id, shares: 10, costBasis: 400 }])).statusCode).toBe(200);
    await post(`/api/v1/Portfolio/Accounts/${account.id}/Transactions`, { type: 'Contribution', amount: 1000, tradeDate: '2026-10-01' });
    await post(`/api/v1/Portfolio/Accounts/${account.id}/Transactions`, { type: 'Fee', amount: 12.5, tradeDate: '2026-11-01', description: 'Q4 fee' });
    return { tag, client, ira, trust, product, account, second };
  }

  it('searches households, registrations, accounts and assets with search, top and skip', async () => {
    const { tag, client, ira, trust, account, second, product } = await household();
    const clients = await call(`/api/v1/Portfolio/Clients/Simple/Search?search=okafor%20${tag}&top=20&isActive=true`);
    expect(clients.statusCode).toBe(200);
    expect(clients.json()).toEqual([{ id: client.id, name: client.name, isActive: true, representativeId: t.firm.representativeId, representativeName: expect.any(String) }]);

    const registrations = (await call(`/api/v1/Portfolio/Registrations/Simple/Search?search=${tag}`)).json();
    expect(registrations.map((r: { id: number }) => r.id)).toEqual([ira.id, trust.id]);
    expect(registrations[0]).toMatchObject({ clientId: client.id, clientName: client.name, type: 'Roth IRA', typeId: expect.any(Number), taxStatus: 'TaxExempt', isActive: true });
    // A type outside the catalogue keeps its name and has no id.
    expect(registrations[1]).toMatchObject({ type: 'Family Trust', typeId: null, taxStatus: null });
    // Source-system paging (top/skip) and ours ($top/$skip) both work.
    expect((await call(`/api/v1/Portfolio/Registrations/Simple/Search?search=${tag}&top=1&skip=1`)).json().map((r: { id: number }) => r.id)).toEqual([trust.id]);
    expect((await call(`/api/v1/Portfolio/Registrations/Simple/Search?search=${tag}&$top=1`)).json().map((r: { id: number }) => r.id)).toEqual([ira.id]);

    const accounts = (await call(`/api/v1/Portfolio/Accounts/Simple/Search?search=N-${tag}`)).json();
    expect(accounts).toEqual([
      {
        id: account.id,
        number: account.number,
        name: account.name,
        custodian: 'Schwab',
        registrationId: ira.id,
        registrationName: ira.name,
        clientId: client.id,
        clientName: client.name,
        modelId: t.firm.modelId,
        modelName: expect.any(String),
        isActive: true,
        currentValue: 600.25,
      },
    ]);
    expect((await call(`/api/v1/Portfolio/Accounts/Simple/Search?search=${tag}`)).json().map((a: { id: number }) => a.id)).toEqual([account.id, second.id]);

    const assets = (await call(`/api/v1/Portfolio/Assets/Simple/Search?search=quality%20${tag}&top=5`)).json();
    expect(assets).toEqual([
      expect.objectContaining({ accountId: account.id, productId: product.id, ticker: product.ticker, shares: 10, price: 50, currentValue: 500, costBasis: 400, isCash: false }),
    ]);
    // Matched by ticker too, in any case; a term no product matches finds nothing.
    expect((await call(`/api/v1/Portfolio/Assets/Simple/Search?search=${product.ticker.toLowerCase()}`)).json().map((a: { accountId: number }) => a.accountId)).toContain(account.id);
    const none = await call(`/api/v1/Portfolio/Assets/Simple/Search?search=no%20such%20product%20${tag}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it('reads one household, registration and account with custom fields and the names clients read', async () => {
    const { client, ira, account } = await household();
    const household_ = await call(`/api/v1/Portfolio/Clients/${client.id}`);
    expect(household_.statusCode).toBe(200);
    expect(household_.json()).toMatchObject({ id: client.id, name: client.name, notes: 'prefers ETFs', isActive: true, representativeName: expect.any(String), userDefinedFields: expect.any(Array) });
    expect((await call(`/api/v1/Portfolio/Registrations/${ira.id}`)).json()).toMatchObject({ id: ira.id, clientId: client.id, clientName: client.name, type: 'Roth IRA', userDefinedFields: expect.any(Array) });
    expect((await call(`/api/v1/Portfolio/Accounts/${account.id}`)).json()).toMatchObject({ id: account.id, number: account.number, cash: 100.25, currentValue: 600.25, clientId: client.id, userDefinedFields: expect.any(Array) });
    const registrations = (await call(`/api/v1/Portfolio/Clients/${client.id}/Registrations?isActive=true`)).json();
    expect(registrations.map((r: { name: string }) => r.name)).toEqual([ira.name, `${ira.name.replace(' IRA', '')} Trust`]);
  });

  it('builds the portfolio tree with values, in every filter type', async () => {
    const { client, ira, trust, account, second } = await household();
    const tree = (await call(`/api/v1/Portfolio/Clients/${client.id}/PortfolioTree?includeAdditional=false&includeRep=true`)).json();
    expect(tree).toEqual({
      id: client.id,
      name: client.name,
      currentValue: 600.25,
      representativeId: t.firm.representativeId,
      representativeName: expect.any(String),
      registrations: [
        { id: ira.id, name: ira.name, currentValue: 600.25, accounts: [{ id: account.id, number: account.number, name: account.name, custodian: 'Schwab', isActive: true, currentValue: 600.25 }] },
        { id: trust.id, name: trust.name, currentValue: 0, accounts: [{ id: second.id, number: second.number, name: second.name, custodian: 'Fidelity', isActive: true, currentValue: 0 }] },
      ],
    });
    const registrationsOnly = (await call(`/api/v1/Portfolio/Clients/${client.id}/PortfolioTree?filterType=RegistrationsOnly&includeAdditional=true`)).json();
    expect(registrationsOnly.notes).toBe('prefers ETFs');
    expect(registrationsOnly.registrations[0]).toEqual({ id: ira.id, name: ira.name, currentValue: 600.25, type: 'Roth IRA', typeId: expect.any(Number) });
    const accountsOnly = (await call(`/api/v1/Portfolio/Clients/${client.id}/PortfolioTree?filterType=AccountsOnly`)).json();
    expect(accountsOnly.registrations).toBeUndefined();
    expect(accountsOnly.accounts.map((a: { id: number }) => a.id)).toEqual([account.id, second.id]);
    const bad = await call(`/api/v1/Portfolio/Clients/${client.id}/PortfolioTree?filterType=Everything`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('querystring.filterType');
  });

  it('lists an account\'s assets and the firm\'s transactions with the source system\'s filters', async () => {
    const { client, ira, account, second } = await household();
    const assets = await call(`/api/v1/Portfolio/Assets?accountId=${account.id}&hasValue=true`);
    expect(assets.json()).toHaveLength(1);
    expect((await call(`/api/v1/Portfolio/Assets?accountId=${second.id}&hasValue=true`)).json()).toEqual([]);
    const all = (await call(`/api/v1/Portfolio/Transactions?clientId=${client.id}`)).json();
    expect(all.map((x: { transType: string; amount: number }) => [x.transType, x.amount])).toEqual([['Fee', 12.5], ['Contribution', 1000]]);
    expect(all[0]).toMatchObject({ accountId: account.id, accountNumber: account.number, registrationId: ira.id, clientId: client.id, status: 'Complete', tradeDate: '2026-11-01', description: 'Q4 fee', hasErrors: false });
    const feeType = all[0].transTypeId;
    expect((await call(`/api/v1/Portfolio/Transactions?accountId=${account.id}&transTypeIds=${feeType}`)).json()).toHaveLength(1);
    expect((await call(`/api/v1/Portfolio/Transactions?registrationId=${ira.id}&startDate=2026-10-15&endDate=2026-12-31`)).json()).toHaveLength(1);
    expect((await call(`/api/v1/Portfolio/Transactions?accountId=${account.id}&status=Pending`)).json()).toEqual([]);
    const backwards = await call(`/api/v1/Portfolio/Transactions?startDate=2026-12-01&endDate=2026-01-01`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toEqual([{ field: 'querystring.endDate', message: 'must not be before startDate' }]);
    const badStatus = await call('/api/v1/Portfolio/Transactions?status=Lost');
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().errors[0].field).toBe('querystring.status');
  });

  it('answers who the token belongs to, registration types and custom-field definitions by entity', async () => {
    const me = await call('/api/v1/authorization/user', 'reader');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ loginUserId: expect.stringContaining('reader'), firmId: t.firm.firmId, isActive: true, privileges: expect.arrayContaining(['portfolio.read']) });
    const types = (await call('/api/v1/Portfolio/Registrations/Types')).json();
    expect(types).toContainEqual({ id: expect.any(Number), name: 'Roth IRA', taxStatus: 'TaxExempt' });
    expect(new Set(types.map((x: { id: number }) => x.id)).size).toBe(types.length);
    const definitions = await call('/api/v1/Settings/UserDefinedFields/Definitions/client');
    expect(definitions.statusCode).toBe(200);
    for (const d of definitions.json()) expect(d).toMatchObject({ entity: 'Household', description: d.name, code: expect.any(String) });
    const unknown = await call('/api/v1/Settings/UserDefinedFields/Definitions/planet');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({ field: 'params.entity' });
  });

  it('keeps firms apart, checks the read privilege, and refuses bad parameters with their names', async () => {
    const { client, ira, account } = await household();
    for (const url of [`/api/v1/Portfolio/Clients/${client.id}`, `/api/v1/Portfolio/Registrations/${ira.id}`, `/api/v1/Portfolio/Accounts/${account.id}`, `/api/v1/Portfolio/Clients/${client.id}/PortfolioTree`, `/api/v1/Portfolio/Assets?accountId=${account.id}`]) {
      const other = await call(url, 'admin', 'otherFirm');
      expect(other.statusCode, url).toBe(404);
      expect((await call(url, 'nobody')).statusCode, url).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    expect((await call(`/api/v1/Portfolio/Clients/Simple/Search?search=${encodeURIComponent(client.name)}`, 'admin', 'otherFirm')).json()).toEqual([]);
    expect((await call(`/api/v1/Portfolio/Transactions?accountId=${account.id}`, 'admin', 'otherFirm')).json()).toEqual([]);
    const cases: [string, string][] = [
      ['/api/v1/Portfolio/Clients/Simple/Search', 'querystring.search'],
      ['/api/v1/Portfolio/Clients/Simple/Search?search=a&top=0', 'querystring.top'],
      ['/api/v1/Portfolio/Accounts/Simple/Search?search=a&skip=-1', 'querystring.skip'],
      ['/api/v1/Portfolio/Assets', 'querystring.accountId'],
      ['/api/v1/Portfolio/Clients/abc', 'params.clientId'],
      ['/api/v1/Portfolio/Transactions?startDate=yesterday', 'querystring.startDate'],
    ];
    for (const [url, field] of cases) {
      const response = await call(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors.map((e: { field: string }) => e.field), url).toContain(field);
    }
    // A search term's wildcards are text: `%` finds nothing rather than everything.
    expect((await call('/api/v1/Portfolio/Clients/Simple/Search?search=%25%25')).json()).toEqual([]);
  });
});
