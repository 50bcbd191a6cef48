import { expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './hostile-input.js';

it('measures JSON depth without parsing, ignoring brackets inside strings', () => {
  expect(jsonDepthExceeds('[[[]]]', 3)).toBe(false);
  expect(jsonDepthExceeds('[[[[]]]]', 3)).toBe(true);
  expect(jsonDepthExceeds('{"a":"[[[[[[[[[[","b":{"c":"\\"{{{{{"}}', 2)).toBe(false);
});

/** Hostile input gets a 4xx naming the field, the same on both databases; nothing is written. */
describeEachDatabase('hostile input', (database) => {
  const t = useTestApp(database);
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, payload: payload as string, headers: { authorization: await t.session('admin'), ...headers } });
  const clients = async () => Number((await t.db.kysely.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('paging values out of range are a 400 naming the parameter on every kind of list', async () => {
    for (const url of ['/api/v1/Portfolio/Accounts', '/api/v1/Portfolio/Clients', '/api/v1/Trading/TradeInstances']) {
      for (const query of ['$skip=1e20', '$skip=-1', '$top=0', '$top=100000', '$top=1.5', '$skip=abc']) {
        const response = await call('GET', `${url}?${query}`);
        expect(response.statusCode, `${url}?${query}`).toBe(400);
        expect(response.json().errors[0].field).toBe(`querystring.${query.split('=')[0]}`);
      }
    }
  });

  it('JSON nested deeper than the limit is a 400 that does not echo the body', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const method of ['POST', 'PUT'] as const) {
      const response = await call(method, '/api/v1/Trading/TradeBlocks', deep, { 'content-type': 'application/json' });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 400, errors: [{ field: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }] });
      expect(response.body.length).toBeLessThan(1000);
    }
  });

  it('a NUL character in a string is a 400 naming the field, and nothing is written', async () => {
    const before = await clients();
    const created = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { portfolio: { name: 'Nul\u0000Family', representativeId: t.firm.representativeId } });
    expect(created.statusCode).toBe(400);
    expect(created.json().errors).toEqual([{ field: 'portfolio.name', message: 'must not contain a NUL character' }]);
    const query = await call('GET', '/api/v1/Portfolio/Clients?$top=1&search=a%00b');
    expect(query.statusCode).toBe(400);
    expect(query.json().errors).toEqual([{ field: 'querystring.search', message: 'must not contain a NUL character' }]);
    expect(await clients()).toBe(before);
  });

  it('wrong-typed JSON on the form endpoints is a problem document, never "[object Object]"', async () => {
    for (const url of ['/api/oauth/signin', '/api/oauth/consent', '/api/Integrations/RiskPartner/Questionnaire']) {
      const response = await t.app.inject({ method: 'POST', url, payload: { username: { $ne: 1 }, password: [1, 2], csrf: 42, token: { a: 1 }, decision: 7 } });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type'], url).toMatch(/application\/problem\+json/);
      expect(response.body).not.toContain('[object Object]');
      expect(response.json().errors.length, url).toBeGreaterThan(0);
    }
  });

  it('an id no record can have is that item\'s error in an item-by-item validation, not a 500', async () => {
    const response = await call('POST', '/api/v1/trading/validateimport/orders/list', [{ accountId: 1e20, ticker: 'VTI', action: 'BUY', dollars: 100 }, { accountId: 2 ** 53 - 1, ticker: 'VTI', action: 'BUY', shares: 1 }]);
    expect(response.statusCode).toBe(200);
    expect(response.json().map((item: { isValid: boolean; message: string }) => [item.isValid, item.message])).toEqual([
      [false, expect.stringMatching(/not found/)],
      [false, expect.stringMatching(/not found/)],
    ]);
  });

  it('an error body never echoes a large input', async () => {
    const huge = 'x'.repeat(200_000);
    const response = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { portfolio: { name: huge } });
    expect(response.statusCode).toBe(400);
    expect(response.body.length).toBeLessThan(4000);
  });
});
