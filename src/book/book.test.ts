import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';
import { staleLotTexts } from '../db/position-lots.js';

describeEachDatabase('portfolio book API (verbose)', (database) => {
  const t = useTestApp(database);
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, user: 'admin' | 'reader' | 'nobody' = 'admin', of: 'firm' | 'otherFirm' = 'firm') =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: await t.session(user, of) } });

  async function createBook() {
    const client = (await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'The Smiths', representativeId: t.firm.representativeId, id: 0 })).json();
    const registration = (await call('POST', '/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: 'Smith Joint', type: 'Joint' })).json();
    const ticker = `vt${Math.random().toString(36).slice(2, 6)}`;
    const product = (await call('POST', '/api/v1/Portfolio/Products/Verbose', { ticker, name: 'Vanguard Total Stock Market ETF', type: 'ETF', class: 'Equity', price: 250.12, priceDate: '2026-11-20' })).json();
    const account = (
      await call('POST', '/api/v1/Portfolio/Accounts/Verbose', {
        registrationId: registration.id,
        number: `ACC-${Math.random().toString(36).slice(2, 10)}`,
        name: 'Smith Joint Brokerage',
        custodian: 'Schwab',
        modelId: t.firm.modelId,
        cash: 1234.56,
      })
    ).json();
    // The household record shows the book below it (section 2.16): read it again now that it has an account.
    const household = (await call('GET', `/api/v1/Portfolio/Clients/Verbose/${client.id}`)).json();
    expect(household).toMatchObject({ id: client.id, name: client.name, createdDate: client.createdDate, portfolio: { accountCount: 1, cash: 1234.56 } });
    return { client: household, registration, product, account, ticker: ticker.toUpperCase() };
  }

  it('writes a book through the verbose endpoints and reads it back the same', async () => {
    const { client, registration, product, account, ticker } = await createBook();
    expect(client).toMatchObject({ name: 'The Smiths', representativeId: t.firm.representativeId, notes: null, createdBy: 'admin@alpha' });
    expect(registration).toMatchObject({ clientId: client.id, type: 'Joint', isSleeved: false, doNotTrade: false });
    expect(product).toMatchObject({ ticker, price: 250.12, priceDate: '2026-11-20', isCash: false, allowsFractionalShares: false });
    expect(account).toMatchObject({ registrationId: registration.id, modelId: t.firm.modelId, cash: 1234.56, isTradingBlocked: false, restrictedPlanId: null });
    for (const [path, record] of [['Clients', client], ['Registrations', registration], ['Products', product], ['Accounts', account]] as const) {
      const read = await call('GET', `/api/v1/Portfolio/${path}/Verbose/${record.id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(record);
      // Section 9.2: the unversioned form reaches the same handler.
      expect((await call('GET', `/api/Portfolio/${path}/Verbose/${record.id}`)).json()).toEqual(record);
    }
  });

  it('updates from a whole record, keeping omitted optional fields', async () => {
    const { account } = await createBook();
    const { id: _id, createdDate: _c, createdBy: _cb, editedDate: _e, editedBy: _eb, restrictedPlanId: _r, sleeveType: _s, sleeveTargetPercent: _st, sleeveToleranceLower: _sl, sleeveToleranceUpper: _su, cash: _cash, ...rest } = account;
    const response = await call('PUT', `/api/v1/Portfolio/Accounts/Verbose/${account.id}`, { ...rest, name: 'Renamed', id: account.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Renamed', cash: 1234.56, modelId: t.firm.modelId });
  });

  it('pages lists with $top and $skip, and reports the total only with $count=true', async () => {
    await createBook();
    await createBook();
    const all = await call('GET', '/api/v1/Portfolio/Clients?$top=1000&$count=true');
    const total = Number(all.headers['x-total-count']);
    expect(total).toBe(all.json().length);
    expect(total).toBeGreaterThan(2);
    const page = await call('GET', '/api/v1/Portfolio/Clients?$top=1&$skip=1');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual([all.json()[1]]);
    expect(page.headers['x-total-count']).toBeUndefined();
    // A full page and a page past the end count the firm; a short page shows the total itself.
    for (const query of ['$top=1&$skip=1', `$top=5&$skip=${total + 10}`, `$top=2&$skip=${total - 1}`]) {
      const counted = await call('GET', `/api/v1/Portfolio/Clients?${query}&$count=true`);
      expect(counted.headers['x-total-count'], query).toBe(String(total));
    }
    const notBoolean = await call('GET', '/api/v1/Portfolio/Clients?$count=maybe');
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.json().errors).toEqual([{ field: 'querystring.$count', message: 'must be boolean' }]);
    const bad = await call('GET', '/api/v1/Portfolio/Clients?$top=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'querystring.$top', message: 'must be >= 1' }]);
  });

  it('refuses a bad body with a 400 naming the field and writes nothing', async () => {
    const before = (await call('GET', '/api/v1/Portfolio/Accounts?$top=1000&$count=true')).headers['x-total-count'];
    const cases: [unknown, string, string][] = [
      [{ registrationId: 1, number: 'X1', name: 'n', custodian: 'c', cash: 'lots' }, 'cash', 'must be number'],
      [{ number: 'X1', name: 'n', custodian: 'c' }, 'registrationId', 'is required'],
      [{ registrationId: 999999, number: 'X1', name: 'n', custodian: 'c' }, 'registrationId', 'registration 999999 does not exist'],
      [{ registrationId: 1, number: 'X1', name: 'n', custodian: 'c', id: 5 }, 'id', 'must be <= 0'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await call('POST', '/api/v1/Portfolio/Accounts/Verbose', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().errors).toContainEqual({ field, message });
    }
    const malformed = await t.app.inject({ method: 'POST', url: '/api/v1/Portfolio/Clients/Verbose', headers: { authorization: await t.session('admin'), 'content-type': 'application/json' }, payload: '{"name":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).not.toMatch(/at .*\.js|select |insert /i);
    expect((await call('GET', '/api/v1/Portfolio/Accounts?$top=1000&$count=true')).headers['x-total-count']).toBe(before);
  });

  it('refuses a duplicate account number or ticker, naming the field', async () => {
    const { account, registration, ticker: held } = await createBook();
    const duplicate = await call('POST', '/api/v1/Portfolio/Accounts/Verbose', { registrationId: registration.id, number: account.number, name: 'Other', custodian: 'Fidelity' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().errors).toEqual([{ field: 'number', message: `${account.number} is already used by another account` }]);
    const ticker = await call('POST', '/api/v1/Portfolio/Products/Verbose', { ticker: held.toLowerCase(), name: 'again', type: 'ETF' });
    expect(ticker.statusCode).toBe(400);
    expect(ticker.json().errors[0].field).toBe('ticker');
  });

  it('bulk-updates all or nothing', async () => {
    const a = (await createBook()).client;
    const b = (await createBook()).client;
    const good = await call('PUT', '/api/v1/Portfolio/Clients/Verbose', [
      { id: a.id, name: 'A renamed', representativeId: t.firm.representativeId },
      { id: b.id, name: 'B renamed', representativeId: t.firm.representativeId },
    ]);
    expect(good.statusCode).toBe(200);
    expect(good.json().map((c: { name: string }) => c.name)).toEqual(['A renamed', 'B renamed']);
    const bad = await call('PUT', '/api/v1/Portfolio/Clients/Verbose', [
      { id: a.id, name: 'A again', representativeId: t.firm.representativeId },
      { id: b.id, name: 'B again', representativeId: 424242 },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: '[1].representativeId', message: 'representative 424242 does not exist' }]);
    expect((await call('GET', `/api/v1/Portfolio/Clients/Verbose/${a.id}`)).json().name).toBe('A renamed');
  });

  it('keeps firms apart: another firm\'s id is 404 and its lists never show the first firm\'s rows', async () => {
    const { client } = await createBook();
    const read = await call('GET', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, undefined, 'admin', 'otherFirm');
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject({ code: 'not_found' });
    const update = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, { name: 'hijack', representativeId: t.otherFirm.representativeId }, 'admin', 'otherFirm');
    expect(update.statusCode).toBe(404);
    const list = await call('GET', '/api/v1/Portfolio/Clients?$top=1000', undefined, 'admin', 'otherFirm');
    expect(list.json().some((c: { id: number }) => c.id === client.id)).toBe(false);
    // A reference to the first firm's representative is refused as unknown.
    const create = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'x', representativeId: t.firm.representativeId }, 'admin', 'otherFirm');
    expect(create.statusCode).toBe(400);
  });

  it('answers an id beyond the 32-bit range with a 400, not a database error', async () => {
    const response = await call('GET', '/api/v1/Portfolio/Accounts/Verbose/99999999999');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field: 'params.key', message: 'must be <= 2147483647' }]);
  });

  it('checks privileges: reading needs Read, writing needs Edit', async () => {
    expect((await call('GET', '/api/v1/Portfolio/Clients', undefined, 'nobody')).statusCode).toBe(403);
    const write = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'x', representativeId: t.firm.representativeId }, 'reader');
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'forbidden', status: 403 });
    expect((await call('GET', '/api/v1/Portfolio/Clients', undefined, 'reader')).statusCode).toBe(200);
  });

  it('replaces positions with tax lots and reads them back with market values', async () => {
    const { account, product, ticker } = await createBook();
    const response = await call('PUT', `/api/v1/Portfolio/Accounts/${account.id}/Positions`, [
      { productId: product.id, shares: 10.5, taxLots: [{ shares: 4, costBasis: 800, acquiredDate: '2020-01-02' }, { shares: 6.5, costBasis: 1300.25, acquiredDate: '2021-03-04' }] },
    ]);
    expect(response.statusCode).toBe(200);
    const [position] = response.json();
    expect(position).toMatchObject({ productId: product.id, ticker, shares: 10.5, costBasis: 2100.25, price: 250.12, marketValue: 2626.26 });
    expect(position.taxLots.map((l: { shares: number }) => l.shares)).toEqual([4, 6.5]);
    expect((await call('GET', `/api/v1/Portfolio/Accounts/${account.id}/Positions`)).json()).toEqual(response.json());
    expect(await staleLotTexts(t.db.kysely)).toEqual([]);

    const mismatch = await call('PUT', `/api/v1/Portfolio/Accounts/${account.id}/Positions`, [
      { productId: product.id, shares: 11, taxLots: [{ shares: 4, costBasis: 800, acquiredDate: '2020-01-02' }] },
    ]);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors).toEqual([{ field: '[0].shares', message: 'must equal the sum of its tax lots (4)' }]);
    expect((await call('GET', `/api/v1/Portfolio/Accounts/${account.id}/Positions`)).json()).toEqual(response.json());
    expect((await call('GET', '/api/v1/Portfolio/Accounts/999999/Positions')).statusCode).toBe(404);
  });

  it('records prices; the product\'s latest price follows the newest date', async () => {
    const { product } = await createBook();
    const stored = await call('POST', '/api/v1/Portfolio/Products/Prices', [
      { productId: product.id, date: '2026-11-21', price: 251.5 },
      { productId: product.id, date: '2026-11-01', price: 240 },
    ]);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual({ stored: 2 });
    expect((await call('GET', `/api/v1/Portfolio/Products/${product.id}/Prices`)).json()).toEqual([
      { date: '2026-11-21', price: 251.5 },
      { date: '2026-11-01', price: 240 },
    ]);
    expect((await call('GET', `/api/v1/Portfolio/Products/Verbose/${product.id}`)).json()).toMatchObject({ price: 251.5, priceDate: '2026-11-21' });
    const bad = await call('POST', '/api/v1/Portfolio/Products/Prices', [{ productId: product.id, date: 'yesterday', price: 1 }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toEqual({ field: '[0].date', message: 'must match format "date"' });
  });

  it('pages a product\'s prices: 1000 by default, $top/$skip newest first, the total always, the next page in Link', async () => {
    const { product } = await createBook();
    const dates = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'];
    expect((await call('POST', '/api/v1/Portfolio/Products/Prices', dates.map((date, n) => ({ productId: product.id, date, price: 100 + n })))).statusCode).toBe(200);
    const path = `/api/v1/Portfolio/Products/${product.id}/Prices`;
    const whole = await call('GET', path);
    const all = whole.json().map((p: { date: string }) => p.date);
    expect(all).toEqual([...dates].reverse());
    expect(whole.headers['x-total-count']).toBe(String(all.length));
    expect(whole.headers.link).toBeUndefined();
    const page = await call('GET', `${path}?$top=2&$skip=1`);
    expect(page.json().map((p: { date: string }) => p.date)).toEqual(all.slice(1, 3));
    expect(page.headers['x-total-count']).toBe(String(all.length));
    expect(page.headers.link).toBe(`<${path}?$top=2&$skip=3>; rel="next"`);
    const last = await call('GET', `${path}?$top=2&$skip=3`);
    expect(last.json().map((p: { date: string }) => p.date)).toEqual(all.slice(3));
    expect(last.headers.link).toBeUndefined();
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=10001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await call('GET', `${path}?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });
});
