import { expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { useTestApp } from '../support/app.js';
import { rebalancerSession } from '../support/rebalancer.js';
import { CLIENT_CALLS, COMPAT_PLAN_EXTERNAL_ID, type ClientCall, type Fixture } from './orionapi-calls.js';

/**
 * The source system's public Python client (`orionapi`, DockStreetAM/orion_module) works
 * against us unmodified. Each row of orionapi-calls.ts is a fact read from that client: the method,
 * the request it makes (its URL is `base_url` + `/path`, so paths carry a doubled slash) and the
 * fields of the answer it reads. This suite makes every call through HTTP and fails when one stops
 * answering or loses a field the client reads.
 */
describeEachDatabase('the source system\'s client, call by call', (database) => {
  const t = useTestApp(database);
  const basic = (user: { userName: string; password: string }) => `Basic ${Buffer.from(`${user.userName}:${user.password}`).toString('base64')}`;

  async function fixture(): Promise<Fixture> {
    const headers = { authorization: await t.session('admin') };
    const post = async (url: string, payload: object) => (await t.app.inject({ method: 'POST', url, payload, headers })).json();
    const client = await post('/api/v1/Portfolio/Clients/Verbose', { name: 'Compat Household', representativeId: t.firm.representativeId });
    const registration = await post('/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: 'Compat Joint', type: 'Joint' });
    const product = await post('/api/v1/Portfolio/Products/Verbose', { ticker: 'CMPT', name: 'Compat Fund', type: 'ETF', price: 10, priceDate: '2026-11-20' });
    // A model holding the fixture's product, so the model and tolerance reads have something to show.
    const model = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/v1/modeling/models',
      payload: { name: 'Compat Model', cashTargetPercent: 5, targets: [{ productId: product.id, targetPercent: 95, lowerTolerance: 1, upperTolerance: 1 }] },
      headers: { authorization: await rebalancerSession(t) },
    });
    expect(model.statusCode, model.body).toBe(200);
    const modelId = model.json().id as number;
    const account = await post('/api/v1/Portfolio/Accounts/Verbose', { registrationId: registration.id, number: 'CMP-0001', name: 'Compat Brokerage', custodian: 'Schwab', modelId, cash: 50 });
    await t.app.inject({ method: 'PUT', url: `/api/v1/Portfolio/Accounts/${account.id}/Positions`, payload: [{ productId: product.id, shares: 5, costBasis: 40 }], headers });
    await post(`/api/v1/Portfolio/Accounts/${account.id}/Transactions`, { type: 'Contribution', amount: 100, tradeDate: '2026-11-02' });
    await eclipseFixture(account.id, product.id);
    return { clientId: client.id, registrationId: registration.id, accountId: account.id, productId: product.id, modelId, search: 'Compat' };
  }

  /** What the Eclipse reads show: an open quick trade (an instance and a pending order), a restricted plan and a set aside record. */
  async function eclipseFixture(accountId: number, productId: number) {
    const headers = { authorization: await t.session('admin') };
    const trade = await t.app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', headers, payload: { routine: 'QuickTrade', trades: [{ accountId, productId, tradeType: 'Shares', amount: 1, side: '1' }] } });
    expect(trade.statusCode, trade.body).toBe(200);
    const rebalancer = { authorization: await rebalancerSession(t) };
    const plan = await t.app.inject({ method: 'POST', url: '/rebalancer/v1/restrictedPlans', headers: rebalancer, payload: { name: 'Compat Plan', externalPlanId: COMPAT_PLAN_EXTERNAL_ID, securities: { securities: [] } } });
    expect(plan.statusCode, plan.body).toBe(200);
    const setAside = await t.app.inject({ method: 'POST', url: `/rebalancer/v1/account/accounts/${accountId}/asidecash`, headers: rebalancer, payload: { cashAmountTypeId: 1, cashAmount: 10, expirationTypeId: 3 } });
    expect(setAside.statusCode, setAside.body).toBe(200);
  }

  /** OrionAPI.login: `GET {base_url}/security/token` with Basic credentials and nothing else. */
  async function login(): Promise<string> {
    const response = await t.app.inject({ url: '/api/v1//security/token', headers: { authorization: basic(t.firm.users.api) } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().access_token as string;
  }

  /** EclipseBase.login: `GET {eclipse}/v1/admin/token` with Basic credentials; reads eclipse_access_token. */
  async function eclipseLogin(): Promise<string> {
    const response = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: basic(t.firm.users.api) } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().eclipse_access_token as string;
  }

  it('logs in with Basic alone only when the firm has turned the setting on', async () => {
    const refused = await t.app.inject({ url: '/api/v1//security/token', headers: { authorization: basic(t.firm.users.api) } });
    expect(refused.statusCode).toBe(401);
    const on = await t.app.inject({ method: 'PUT', url: '/api/v1/Security/Firm/BasicLogin', payload: { enabled: true }, headers: { authorization: await t.session('admin') } });
    expect(on.statusCode).toBe(200);
    expect(typeof (await login())).toBe('string');
  });

  it('answers every read call of the client with the fields it reads', async () => {
    const ids = await fixture();
    await t.app.inject({ method: 'PUT', url: '/api/v1/Security/Firm/BasicLogin', payload: { enabled: true }, headers: { authorization: await t.session('admin') } });
    const tokens = { platform: await login(), rebalancer: await eclipseLogin() };
    const failures: string[] = [];
    for (const call of CLIENT_CALLS) {
      const problem = await check(call, ids, tokens);
      if (problem) failures.push(`${call.method} (${call.path}): ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  /** `a[].b`: every element of the list `a` has `b` (an empty list has nothing to lack). */
  function hasField(record: Record<string, unknown>, field: string): boolean {
    const at = field.indexOf('[].');
    if (at < 0) return field in record;
    const list = record[field.slice(0, at)];
    return Array.isArray(list) && list.every((item: Record<string, unknown>) => hasField(item, field.slice(at + 3)));
  }

  async function check(call: ClientCall, ids: Fixture, tokens: { platform: string; rebalancer: string }): Promise<string | undefined> {
    const url = call.url(ids);
    const headers = { authorization: `Session ${tokens[call.app]}` };
    const response = call.post ? await t.app.inject({ method: 'POST', url, headers, payload: call.post(ids) as object }) : await t.app.inject({ method: 'GET', url, headers });
    if (response.statusCode !== 200) return `answered ${response.statusCode}: ${response.body.slice(0, 200)}`;
    const body: unknown = response.json();
    const records = call.shape === 'list' ? body : [body];
    if (!Array.isArray(records)) return `expected a list, got ${typeof body}`;
    if (call.shape === 'list' && call.nonEmpty !== false && records.length === 0) return 'answered an empty list for the fixture';
    for (const record of records as Record<string, unknown>[]) {
      const missing = call.reads.filter((field) => !hasField(record, field));
      if (missing.length > 0) return `lacks ${missing.join(', ')}`;
    }
    return undefined;
  }
});
