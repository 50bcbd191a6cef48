import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { fakeClock } from '../../test/support/oauth.js';
import { loadRebalancerInputs } from '../trading/firm-inputs-repository.js';
import { addPosition, createAccount, createProduct, rebalancerSession } from '../../test/support/rebalancer.js';

const DAY = 86_400_000;

describeEachDatabase('set aside cash (section 4.6)', (database) => {
  const clock = fakeClock(Date.UTC(2026, 2, 10, 15));
  // Rebalancer tokens outlive the days the clock is moved forward, and so must the platform token
  // they come from (a derived token never outlives its parent): a year, on both.
  const t = useTestApp(database, { clock, env: { ACCESS_TOKEN_TTL_SECONDS: '31536000' } });
  let admin: string;
  const root = (accountId: number) => `/rebalancer/v1/account/accounts/${accountId}/asidecash`;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, authorization = admin) =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization } });
  const dollars = (extra: object = {}) => ({ cashAmountTypeId: 1, cashAmount: 1000, expirationTypeId: 3, description: 'Tuition', ...extra });
  const today = () => clock.now().toISOString().slice(0, 10);

  beforeAll(async () => {
    await t.db.kysely.updateTable('partner_apps').set({ access_token_ttl_seconds: 31_536_000 }).where('id', '=', t.firm.clientId).execute();
    admin = await rebalancerSession(t);
  });

  it('creates with the defaults: start today, min and max the full amount, percent calculation 0 for percents', async () => {
    const accountId = await createAccount(t.db.kysely, t.firm.firmId);
    const created = await call('POST', root(accountId), dollars());
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      accountId,
      description: 'Tuition',
      cashAmountTypeId: 1,
      cashAmount: 1000,
      minCashAmount: 1000,
      maxCashAmount: 1000,
      expirationTypeId: 3,
      expirationValue: null,
      isExpired: 0,
      startDate: today(),
      isDeleted: 0,
      percentCalculationTypeId: null,
      isDepleteOverTime: 0,
      createdBy: 'admin@alpha',
    });
    const percent = (await call('POST', root(accountId), { cashAmountTypeId: 2, cashAmount: 5, expirationTypeId: 2, expirationValue: 3, toleranceValue: 2, minCashAmount: 100 })).json();
    // Spec 4.6: an omitted bound defaults to the full cashAmount, percent records included.
    expect(percent).toMatchObject({ cashAmountTypeId: 2, cashAmount: 5, percentCalculationTypeId: 0, minCashAmount: 100, maxCashAmount: 5, expirationValue: 3, toleranceValue: 2 });
    expect((await call('GET', `${root(accountId)}/${percent.id}`)).json()).toEqual(percent);

    const list = (await call('GET', root(accountId))).json();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      cashAmountTypeName: 'Dollar',
      expirationTypeName: 'None',
      expirationValue: null,
      isExpired: 0,
      isActive: 1,
      amountExpired: 0,
      initialAmount: 1000,
      isDeleted: 0,
      isSystematic: 0,
      isBilling: 0,
      portfolioSetAsideCashId: null,
      expiredOn: null,
    });
    expect(list[1]).toMatchObject({ cashAmountTypeName: 'Percent', expirationTypeName: 'Transaction', expirationValue: 'Fee', percentCalculationTypeId: 0, percentCalculationType: 'Use Default/Managed Value' });
  });

  it('refuses every rule of the create-body table with a 400 naming the field', async () => {
    const accountId = await createAccount(t.db.kysely, t.firm.firmId);
    const cases: [object, string, RegExp][] = [
      [dollars({ cashAmountTypeId: 3 }), 'cashAmountTypeId', /1 \(dollars\) or 2/],
      [dollars({ expirationTypeId: 4 }), 'expirationTypeId', /1 \(Date\)/],
      [dollars({ expirationTypeId: 1 }), 'expirationValue', /required/],
      [dollars({ expirationTypeId: 1, expirationValue: 3 }), 'expirationValue', /date/],
      [dollars({ expirationTypeId: 1, expirationValue: '2026-02-30' }), 'expirationValue', /date/],
      [dollars({ expirationTypeId: 2 }), 'expirationValue', /required/],
      [dollars({ expirationTypeId: 2, expirationValue: 2 }), 'expirationValue', /1 \(Distribution/],
      [dollars({ description: 'x'.repeat(256) }), 'description', /255/],
      [dollars({ isDepleteOverTime: true }), 'isDepleteOverTime', /only to expirationTypeId 2/],
      [dollars({ minCashAmount: 600, maxCashAmount: 500 }), 'minCashAmount', /above maxCashAmount/],
      [dollars({ minCashAmount: 1500 }), 'minCashAmount', /above maxCashAmount/],
      [dollars({ cashAmountTypeId: 2, cashAmount: 101 }), 'cashAmount', /percent/],
      [dollars({ cashAmountTypeId: 2, cashAmount: 0 }), 'cashAmount', /percent/],
      [dollars({ cashAmount: -5 }), 'cashAmount', /above 0/],
      [dollars({ cashAmountTypeId: 2, cashAmount: 5, percentCalculationTypeId: 3 }), 'percentCalculationTypeId', /0 \(managed/],
      [dollars({ toleranceValue: 120 }), 'toleranceValue', /between 0 and 100/],
      [dollars({ startDate: 'tomorrow' }), 'startDate', /date/],
      [dollars({ cashAmount: '1000' }), 'cashAmount', /number/],
      [{ cashAmount: 5, expirationTypeId: 3 }, 'cashAmountTypeId', /required/],
    ];
    for (const [payload, field, message] of cases) {
      const response = await call('POST', root(accountId), payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const problem = response.json().errors?.find((e: { field: string }) => e.field === field);
      expect(problem, `${field} in ${response.body}`).toBeDefined();
      expect(problem.message).toMatch(message);
    }
    expect((await call('GET', root(accountId))).json()).toEqual([]);
    expect((await call('POST', root(999999), dollars())).statusCode).toBe(404);
    expect((await call('GET', root(accountId), undefined, await rebalancerSession(t, 'admin', 'otherFirm'))).statusCode).toBe(404);
    expect((await call('POST', root(accountId), dollars(), await rebalancerSession(t, 'reader'))).statusCode).toBe(403);
  });

  it('an update with an end date expires the record and keeps it listed; delete removes it', async () => {
    const accountId = await createAccount(t.db.kysely, t.firm.firmId);
    const created = (await call('POST', root(accountId), dollars())).json();
    const yesterday = new Date(clock.now().getTime() - DAY).toISOString().slice(0, 10);
    const updated = await call('PUT', `${root(accountId)}/${created.id}`, dollars({ expirationTypeId: 1, expirationValue: yesterday, cashAmount: 1500 }));
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ isExpired: 1, expirationValue: yesterday, cashAmount: 1500, editedBy: 'admin@alpha' });
    expect((await call('GET', root(accountId))).json()).toEqual([expect.objectContaining({ id: created.id, isExpired: 1, initialAmount: 1500 })]);
    expect((await loadRebalancerInputs(t.db.kysely, t.firm.firmId, [accountId], today())).setAsideCash.get(accountId)).toEqual([]);
    expect((await call('PUT', `${root(accountId)}/${created.id}`, dollars({ expirationTypeId: 9 }))).json().errors[0].field).toBe('expirationTypeId');

    const deleted = await call('DELETE', `${root(accountId)}/${created.id}`);
    expect(deleted.json()).toEqual({ id: String(created.id), message: `Set aside cash record ${created.id} deleted` });
    expect((await call('GET', root(accountId))).json()).toEqual([]);
    expect((await call('GET', `${root(accountId)}/${created.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${root(accountId)}/${created.id}`)).statusCode).toBe(404);
    expect((await call('PUT', `${root(accountId)}/${created.id}`, dollars())).statusCode).toBe(404);
  });

  it('expires Transaction records when a matching transaction is recorded through the portfolio API, within tolerance, depleting when asked', async () => {
    const accountId = await createAccount(t.db.kysely, t.firm.firmId);
    const platform = await t.session('admin');
    const transact = async (type: string, amount: number) =>
      t.app.inject({ method: 'POST', url: `/api/v1/Portfolio/Accounts/${accountId}/Transactions`, payload: { type, amount, tradeDate: today() }, headers: { authorization: platform } });
    const distribution = (await call('POST', root(accountId), dollars({ expirationTypeId: 2, expirationValue: 1, toleranceValue: 5 }))).json();
    const fee = (await call('POST', root(accountId), dollars({ cashAmount: 50, expirationTypeId: 2, expirationValue: '3' }))).json();
    const deplete = (await call('POST', root(accountId), dollars({ expirationTypeId: 2, expirationValue: 1, isDepleteOverTime: true }))).json();

    // Too small for the first record (outside 5%): it waits; the depleting record takes what was paid.
    const small = await transact('Distribution', 400);
    expect(small.statusCode).toBe(200);
    expect(small.json()).toMatchObject({ type: 'Distribution', amount: 400, expiredSetAsideIds: [], depletedSetAsideIds: [deplete.id] });
    let list = (await call('GET', root(accountId))).json();
    expect(list.find((r: { id: number }) => r.id === deplete.id)).toMatchObject({ isExpired: 0, cashAmount: 600, initialAmount: 1000, amountExpired: 400, isDepleteOverTime: 1 });

    expect((await transact('Contribution', 5000)).json().expiredSetAsideIds).toEqual([]);
    const covered = (await transact('Distribution', 960)).json();
    expect(covered.expiredSetAsideIds).toEqual([distribution.id]);
    const rest = (await transact('MergeOut', 600)).json();
    expect(rest.expiredSetAsideIds).toEqual([deplete.id]);
    expect((await transact('Fee', 50)).json().expiredSetAsideIds).toEqual([fee.id]);

    list = (await call('GET', root(accountId))).json();
    expect(list.find((r: { id: number }) => r.id === distribution.id)).toMatchObject({ isExpired: 1, isActive: 0, expiredOn: today(), expiredBy: `Transaction ${covered.id}`, amountExpired: 1000 });
    expect(list.find((r: { id: number }) => r.id === deplete.id)).toMatchObject({ isExpired: 1, cashAmount: 0, amountExpired: 1000 });
    expect(list.every((r: { isExpired: number }) => r.isExpired === 1)).toBe(true);
    const history = await t.app.inject({ url: `/api/Portfolio/Accounts/${accountId}/Transactions`, headers: { authorization: platform } });
    expect(history.json()).toHaveLength(5);

    const bad = await t.app.inject({ method: 'POST', url: `/api/v1/Portfolio/Accounts/${accountId}/Transactions`, payload: { type: 'Gift', amount: -1, tradeDate: 'x' }, headers: { authorization: platform } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['amount', 'tradeDate', 'type']);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/Portfolio/Accounts/999999/Transactions', payload: { type: 'Fee', amount: 1, tradeDate: today() }, headers: { authorization: platform } })).statusCode).toBe(404);
  });

  it('depletes one record once per transaction when transactions are recorded at the same time', async () => {
    const accountId = await createAccount(t.db.kysely, t.firm.firmId);
    const platform = await t.session('admin');
    const record = (await call('POST', root(accountId), dollars({ expirationTypeId: 2, expirationValue: 1, isDepleteOverTime: true }))).json();
    const transact = () =>
      t.app.inject({ method: 'POST', url: `/api/v1/Portfolio/Accounts/${accountId}/Transactions`, payload: { type: 'Distribution', amount: 150, tradeDate: today() }, headers: { authorization: platform } });
    const responses = await Promise.all([transact(), transact(), transact(), transact()]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const listed = (await call('GET', root(accountId))).json().find((r: { id: number }) => r.id === record.id);
    expect(listed).toMatchObject({ cashAmount: 400, amountExpired: 600, isExpired: 0 });
  });

  it('lists cash needs: accounts whose cash is below protected cash plus the model cash target, with the shortfall', async () => {
    const product = await createProduct(t.db.kysely, t.firm.firmId, 100);
    // The test firm's model targets 2% cash.
    const short = await createAccount(t.db.kysely, t.firm.firmId, { cash: 100, modelId: t.firm.modelId });
    await addPosition(t.db.kysely, t.firm.firmId, short, product.id, 10);
    await call('POST', root(short), dollars({ cashAmount: 300 }));
    const fine = await createAccount(t.db.kysely, t.firm.firmId, { cash: 500, modelId: t.firm.modelId });
    await addPosition(t.db.kysely, t.firm.firmId, fine, product.id, 10);
    await call('POST', root(fine), dollars({ cashAmount: 300 }));

    const response = await call('GET', '/rebalancer/v1/account/cashneeds');
    expect(response.statusCode).toBe(200);
    const needs = response.json();
    // Value 1,100; protected 300; 2% of the other 800 is 16; need 316; cash 100.
    expect(needs.find((n: { accountId: number }) => n.accountId === short)).toMatchObject({ accountValue: 1100, cash: 100, protectedCash: 300, modelCashTarget: 16, cashNeed: 316, shortfall: 216, modelId: t.firm.modelId });
    expect(needs.find((n: { accountId: number }) => n.accountId === fine)).toBeUndefined();
    const other = (await call('GET', '/rebalancer/v1/account/cashneeds', undefined, await rebalancerSession(t, 'admin', 'otherFirm'))).json();
    expect(other.find((n: { accountId: number }) => n.accountId === short)).toBeUndefined();

    // Largest shortfall first; every need unless $top is given, the number of needs in X-Total-Count.
    expect(response.headers['x-total-count']).toBe(String(needs.length));
    const shortfalls = needs.map((n: { shortfall: number }) => n.shortfall);
    expect(shortfalls).toEqual([...shortfalls].sort((a: number, b: number) => b - a));
    const page = await call('GET', '/rebalancer/v1/account/cashneeds?$top=1&$skip=1');
    expect(page.json()).toEqual(needs.slice(1, 2));
    expect(page.headers['x-total-count']).toBe(String(needs.length));
    const bad = await call('GET', '/rebalancer/v1/account/cashneeds?$top=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ field: 'querystring.$top' })]);
  });
  // Last: it moves the clock weeks ahead, past the platform tokens' lifetime.
  it('dollar-cost averaging: three records differing only in the date, each expiring on its own date', async () => {
    const accountId = await createAccount(t.db.kysely, t.firm.firmId);
    const start = clock.now().getTime();
    const dates = [1, 2, 3].map((n) => new Date(start + n * 7 * DAY).toISOString().slice(0, 10));
    for (const date of dates) {
      const response = await call('POST', root(accountId), { id: 0, cashAmountTypeId: 1, cashAmountTypeName: '$', cashAmount: 2000, expirationTypeId: 1, expirationTypeName: 'Date', expirationValue: date, startDate: today(), setAsideAccountTypeId: 1, minMultiplier: 0, maxMultiplier: 0 });
      expect(response.statusCode).toBe(200);
    }
    const state = async () => (await call('GET', root(accountId))).json().map((r: { isExpired: number }) => r.isExpired);
    const active = async () => (await loadRebalancerInputs(t.db.kysely, t.firm.firmId, [accountId], today())).setAsideCash.get(accountId)!.length;
    expect(await state()).toEqual([0, 0, 0]);
    expect(await active()).toBe(3);
    for (const [index, date] of dates.entries()) {
      // Its last day it still protects; the next day it has expired, the later ones not.
      clock.advance(Date.parse(`${date}T12:00:00Z`) - clock.now().getTime());
      expect(await state()).toEqual(dates.map((_, i) => (i < index ? 1 : 0)));
      clock.advance(DAY);
      expect(await state()).toEqual(dates.map((_, i) => (i <= index ? 1 : 0)));
      expect(await active()).toBe(2 - index);
      const expired = (await call('GET', root(accountId))).json()[index];
      expect(expired).toMatchObject({ isExpired: 1, isActive: 0, expiredOn: date, amountExpired: 2000, expirationValue: date });
    }
  });
});
