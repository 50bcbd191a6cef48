import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { useTestApp } from '../../../test/support/app.js';

/**
 * Every list pages and can tell its total: the source system's search lists and the firm's
 * transactions count on `$count=true`; an account's positions and transactions always count.
 */
describeEachDatabase('list paging: default page, $top/$skip, total and next link', (database) => {
  const t = useTestApp(database);
  const call = async (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: await t.session('admin') } });
  const post = async (url: string, payload: object) => (await t.app.inject({ method: 'POST', url, payload, headers: { authorization: await t.session('admin') } })).json();
  const ids = (response: { json(): unknown }) => (response.json() as { id: number }[]).map((r) => r.id);

  /** One household with three registrations, three accounts holding three products, and 25 transactions on the first account. */
  async function book() {
    const tag = Math.random().toString(36).slice(2, 8);
    const client = await post('/api/v1/Portfolio/Clients/Verbose', { name: `Paging ${tag} Household`, representativeId: t.firm.representativeId });
    const registrations = [];
    const accounts = [];
    const products = [];
    for (const n of [1, 2, 3]) {
      const registration = await post('/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: `Paging ${tag} IRA ${n}`, type: 'Roth IRA' });
      registrations.push(registration);
      accounts.push(await post('/api/v1/Portfolio/Accounts/Verbose', { registrationId: registration.id, number: `P-${tag}-${n}`, name: `Paging ${tag} ${n}`, custodian: 'Schwab', cash: 10 }));
      products.push(await post('/api/v1/Portfolio/Products/Verbose', { ticker: `PG${tag}${n}`.toUpperCase(), name: `Paging ${tag} Fund ${n}`, type: 'ETF', price: 10 * n, priceDate: '2026-11-20' }));
    }
    const first = accounts[0];
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/Portfolio/Accounts/${first.id}/Positions`,
      payload: products.map((p) => ({ productId: p.id, shares: 5 })),
      headers: { authorization: await t.session('admin') },
    });
    expect(put.statusCode).toBe(200);
    for (const account of accounts.slice(1)) {
      await t.app.inject({ method: 'PUT', url: `/api/v1/Portfolio/Accounts/${account.id}/Positions`, payload: [{ productId: products[0].id, shares: 1 }], headers: { authorization: await t.session('admin') } });
    }
    const transactions = [];
    for (let day = 1; day <= 25; day++) {
      transactions.push(await post(`/api/v1/Portfolio/Accounts/${first.id}/Transactions`, { type: 'Contribution', amount: day, tradeDate: `2026-10-${String(day).padStart(2, '0')}` }));
    }
    // Newest first, as both transaction lists answer them.
    const newest = transactions.map((tr) => tr.id).reverse();
    return { tag, client, registrations, accounts, products, first, newest };
  }

  it('the search lists page by id and give their total with $count=true, and the next page in Link', async () => {
    const { tag, registrations, accounts } = await book();
    const lists = [
      { path: `/api/v1/Portfolio/Registrations/Simple/Search?search=${tag}`, all: registrations.map((r) => r.id) },
      { path: `/api/v1/Portfolio/Accounts/Simple/Search?search=P-${tag}`, all: accounts.map((a) => a.id) },
    ];
    for (const { path, all } of lists) {
      // Default page (20) holds them all; no count unless asked, no next page.
      const whole = await call(path);
      expect(whole.statusCode, path).toBe(200);
      expect(ids(whole)).toEqual(all);
      expect(whole.headers['x-total-count']).toBeUndefined();
      expect(whole.headers.link).toBeUndefined();

      const page = await call(`${path}&$top=2&$count=true`);
      expect(ids(page)).toEqual(all.slice(0, 2));
      expect(page.headers['x-total-count']).toBe('3');
      expect(page.headers.link).toBe(`<${path.split('?')[0]}?${path.split('?')[1]}&$top=2&$count=true&$skip=2>; rel="next"`);

      // The source system's spelling pages the same way.
      const last = await call(`${path}&top=2&skip=2&$count=true`);
      expect(ids(last)).toEqual(all.slice(2));
      expect(last.headers['x-total-count']).toBe('3');
      expect(last.headers.link).toBeUndefined();

      // Past the end: an empty page, still counted.
      const beyond = await call(`${path}&$skip=10&$count=true`);
      expect(beyond.json()).toEqual([]);
      expect(beyond.headers['x-total-count']).toBe('3');
    }
    const households = await call(`/api/v1/Portfolio/Clients/Simple/Search?search=paging%20${tag}&$count=true`);
    expect(households.headers['x-total-count']).toBe('1');
    const assets = await call(`/api/v1/Portfolio/Assets/Simple/Search?search=PG${tag}&$top=1&$count=true`);
    expect(assets.json()).toHaveLength(1);
    expect(assets.headers['x-total-count']).toBe('5');
    expect(assets.headers.link).toContain('$skip=1>; rel="next"');
    const none = await call(`/api/v1/Portfolio/Assets/Simple/Search?search=nothing-${tag}&$count=true`);
    expect(none.json()).toEqual([]);
    expect(none.headers['x-total-count']).toBe('0');
  });

  it('the firm\'s transactions: 20 by default, $top/$skip, total with $count=true', async () => {
    const { first, newest } = await book();
    const path = `/api/v1/Portfolio/Transactions?accountId=${first.id}`;
    const page = await call(path);
    expect(page.statusCode).toBe(200);
    expect(ids(page)).toEqual(newest.slice(0, 20));
    expect(page.headers['x-total-count']).toBeUndefined();
    expect(page.headers.link).toBe(`</api/v1/Portfolio/Transactions?accountId=${first.id}&$skip=20&$top=20>; rel="next"`);
    const counted = await call(`${path}&$top=10&$skip=20&$count=true`);
    expect(ids(counted)).toEqual(newest.slice(20));
    expect(counted.headers['x-total-count']).toBe('25');
    expect(counted.headers.link).toBeUndefined();
    const full = await call(`${path}&$top=5&$skip=5&$count=true`);
    expect(ids(full)).toEqual(newest.slice(5, 10));
    expect(full.headers['x-total-count']).toBe('25');
    // A status no recorded transaction has lists nothing, and counts nothing.
    const pending = await call(`${path}&status=Pending&$count=true`);
    expect(pending.json()).toEqual([]);
    expect(pending.headers['x-total-count']).toBe('0');
  });

  it('an account\'s transactions: 100 by default, $top/$skip, the total always', async () => {
    const { first, accounts, newest } = await book();
    const path = `/api/v1/Portfolio/Accounts/${first.id}/Transactions`;
    const whole = await call(path);
    expect(whole.statusCode).toBe(200);
    expect(ids(whole)).toEqual(newest);
    expect(whole.headers['x-total-count']).toBe('25');
    expect(whole.headers.link).toBeUndefined();
    const page = await call(`${path}?$top=10&$skip=10`);
    expect(ids(page)).toEqual(newest.slice(10, 20));
    expect(page.headers['x-total-count']).toBe('25');
    expect(page.headers.link).toBe(`<${path}?$top=10&$skip=20>; rel="next"`);
    const empty = await call(`/api/v1/Portfolio/Accounts/${accounts[1].id}/Transactions`);
    expect(empty.json()).toEqual([]);
    expect(empty.headers['x-total-count']).toBe('0');
    expect((await call('/api/v1/Portfolio/Accounts/999999/Transactions?$top=5')).statusCode).toBe(404);
  });

  it('an account\'s positions: 1000 by default, $top/$skip in ticker order, the total always', async () => {
    const { first, products } = await book();
    const path = `/api/v1/Portfolio/Accounts/${first.id}/Positions`;
    const tickers = products.map((p) => p.ticker as string).sort();
    const whole = await call(path);
    expect(whole.statusCode).toBe(200);
    expect(whole.json().map((p: { ticker: string }) => p.ticker)).toEqual(tickers);
    expect(whole.headers['x-total-count']).toBe('3');
    expect(whole.headers.link).toBeUndefined();
    const page = await call(`${path}?$top=1&$skip=1`);
    expect(page.json()).toEqual([expect.objectContaining({ ticker: tickers[1], shares: 5, taxLots: expect.any(Array) })]);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toBe(`<${path}?$top=1&$skip=2>; rel="next"`);
    expect((await call('/api/v1/Portfolio/Accounts/999999/Positions')).statusCode).toBe(404);
  });

  it('refuses a bad $top or $skip with a 400 naming it', async () => {
    const { first } = await book();
    const cases: [string, string][] = [
      ['/api/v1/Portfolio/Accounts/Simple/Search?search=a&$top=0', 'querystring.$top'],
      ['/api/v1/Portfolio/Clients/Simple/Search?search=a&top=1001', 'querystring.top'],
      ['/api/v1/Portfolio/Registrations/Simple/Search?search=a&$skip=-1', 'querystring.$skip'],
      ['/api/v1/Portfolio/Assets/Simple/Search?search=a&$top=abc', 'querystring.$top'],
      ['/api/v1/Portfolio/Transactions?$top=1001', 'querystring.$top'],
      ['/api/v1/Portfolio/Transactions?$count=maybe', 'querystring.$count'],
      [`/api/v1/Portfolio/Accounts/${first.id}/Transactions?$top=1001`, 'querystring.$top'],
      [`/api/v1/Portfolio/Accounts/${first.id}/Positions?$top=5001`, 'querystring.$top'],
      [`/api/v1/Portfolio/Accounts/${first.id}/Positions?$skip=1e20`, 'querystring.$skip'],
    ];
    for (const [url, field] of cases) {
      const response = await call(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors.map((e: { field: string }) => e.field), url).toContain(field);
    }
  });
});
