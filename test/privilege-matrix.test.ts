import type { RouteOptions } from 'fastify';

import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { describeEachDatabase } from './support/databases.js';

/**
 * For every route the app registered: a caller without the route's privilege gets 403, and a
 * caller of another firm never reads or changes the first firm's data. Routes come from the app
 * itself (app.routeCatalog), so a new route cannot escape this test.
 */
const MARKER = 'alpha';
const BOOK_TABLES = ['clients', 'registrations', 'accounts', 'products', 'positions', 'tax_lots', 'product_prices', 'representatives', 'user_defined_definitions', 'user_defined_values'] as const;

type Catalogued = { method: string; url: string; config: { public?: boolean; privilege?: unknown; tokenOnly?: boolean; audience?: 'platform' | 'rebalancer' } };

function routesOf(catalog: RouteOptions[]): Catalogued[] {
  const seen = new Set<string>();
  const out: Catalogued[] = [];
  for (const route of catalog) {
    for (const method of ([] as string[]).concat(route.method)) {
      if (method === 'HEAD') continue;
      const key = `${method} ${route.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const config = (route.config ?? {}) as Catalogued['config'];
      // Only routes behind a scope's token check; health, docs and documents live outside them.
      if (config.audience && !config.public) out.push({ method, url: route.url, config });
    }
  }
  return out;
}

describeEachDatabase('privilege matrix and firm isolation over every route', (database) => {
  const t = useTestApp(database);
  const ids: Record<string, number> = {};
  let sessions: { nobody: Record<string, string>; stranger: Record<string, string>; owner: string };

  const rebalancerToken = async (user: 'nobody' | 'admin', of: 'firm' | 'otherFirm') => {
    const platform = await t.session(user, of);
    const response = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: platform } });
    return `Session ${response.json().eclipse_access_token}`;
  };

  beforeAll(async () => {
    const owner = await t.session('admin');
    const post = async (url: string, payload: object) => (await t.app.inject({ method: 'POST', url, payload, headers: { authorization: owner } })).json();
    const client = await post('/api/v1/Portfolio/Clients/Verbose', { name: `${MARKER} household`, representativeId: t.firm.representativeId });
    const registration = await post('/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: `${MARKER} registration`, type: 'Individual' });
    const product = await post('/api/v1/Portfolio/Products/Verbose', { ticker: 'ALPHAX', name: `${MARKER} fund`, type: 'MutualFund', price: 10 });
    const account = await post('/api/v1/Portfolio/Accounts/Verbose', { registrationId: registration.id, number: `${MARKER}-001`, name: `${MARKER} account`, custodian: 'Schwab', cash: 100 });
    await t.app.inject({ method: 'PUT', url: `/api/v1/Portfolio/Accounts/${account.id}/Positions`, payload: [{ productId: product.id, shares: 5, costBasis: 40 }], headers: { authorization: owner } });
    const definition = await post('/api/v1/Portfolio/UserDefinedFields/Definitions', { entity: 'Household', name: `${MARKER} field`, type: 'Text', code: 'ALPHA_NOTE' });
    const valued = await t.app.inject({ method: 'PUT', url: `/api/v1/Portfolio/Clients/Verbose/${client.id}`, payload: { ...client, userDefinedFields: [{ userDefineDefinitionId: definition.id, value: `${MARKER} value` }] }, headers: { authorization: owner } });
    expect(valued.statusCode).toBe(200);
    Object.assign(ids, { client: client.id, registration: registration.id, product: product.id, account: account.id, representative: t.firm.representativeId, definition: definition.id });
    sessions = {
      owner,
      nobody: { api: await t.session('nobody'), rebalancer: await rebalancerToken('nobody', 'firm') },
      stranger: { api: await t.session('admin', 'otherFirm'), rebalancer: await rebalancerToken('admin', 'otherFirm') },
    };
  });

  /** Fills path parameters with the first firm's ids, chosen by the parameter's name or the collection before it. */
  function concrete(url: string): string {
    const parts = url.split('/');
    return parts
      .map((part, i) => {
        if (part === '*') return 'x';
        if (!part.startsWith(':')) return part;
        const collection = parts.slice(0, i).reverse().find((p) => p && !p.startsWith(':') && p !== 'Verbose') ?? '';
        const context = `${part} ${collection}`;
        const kind = ['account', 'product', 'registration', 'client', 'representative', 'definition'].find((k) => context.toLowerCase().includes(k)) ?? 'account';
        return String(ids[kind]);
      })
      .join('/');
  }

  async function snapshot() {
    const rows: Record<string, unknown[]> = {};
    for (const table of BOOK_TABLES) {
      rows[table] = await t.db.kysely.selectFrom(table).selectAll().where('firm_id', '=', t.firm.firmId).orderBy('id').execute();
    }
    return rows;
  }

  it('every non-public route states its privilege or that any token will do', () => {
    const secured = routesOf(t.app.routeCatalog);
    expect(secured.length).toBeGreaterThan(20);
    const unstated = secured.filter((r) => r.config.privilege === undefined && !r.config.tokenOnly);
    expect(unstated.map((r) => `${r.method} ${r.url}`).join("\n")).toBe("");
  });

  it('refuses a token without the privilege with 403 on every privileged route', async () => {
    const privileged = routesOf(t.app.routeCatalog).filter((r) => r.config.privilege !== undefined);
    expect(privileged.length).toBeGreaterThan(10);
    for (const route of privileged) {
      const scope = route.config.audience === 'rebalancer' ? 'rebalancer' : 'api';
      const response = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url), headers: { authorization: sessions.nobody[scope]! }, payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });

  it('never shows or changes the first firm\'s data to another firm, on any route', async () => {
    const before = await snapshot();
    for (const route of routesOf(t.app.routeCatalog)) {
      const scope = route.config.audience === 'rebalancer' ? 'rebalancer' : 'api';
      const url = concrete(route.url);
      // A write carries the first firm's own record where one can be read, so a missing firm check would apply it.
      let payload: unknown;
      if (route.method !== 'GET' && route.method !== 'DELETE') {
        const own = await t.app.inject({ method: 'GET', url, headers: { authorization: scope === 'api' ? sessions.owner : '' } });
        payload = own.statusCode === 200 ? own.json() : {};
      }
      const response = await t.app.inject({ method: route.method as 'GET', url, headers: { authorization: sessions.stranger[scope]! }, payload: payload as object });
      expect(response.statusCode, `${route.method} ${route.url}`).not.toBe(500);
      expect(response.body.toLowerCase(), `${route.method} ${route.url} leaks`).not.toContain(MARKER);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a token of the other application on each application', async () => {
    const rebalancer = await rebalancerToken('admin', 'firm');
    expect((await t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: rebalancer } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/rebalancer/v1/security/securityset/sellpriority', headers: { authorization: sessions.owner } })).statusCode).toBe(401);
    const ok = await t.app.inject({ url: '/rebalancer/v1/security/securityset/sellpriority', headers: { authorization: rebalancer } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()[0]).toEqual({ id: 1, description: 'Do Not Sell' });
  });
});
