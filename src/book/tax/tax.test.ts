// The book knows taxes (docs/tax-aware.md): account tax status, product wash-sale group and
// harvest replacement, tax lots per account, realized gains per household — on both databases.
import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describeEachDatabase('tax data of the book', (database) => {
  const t = useTestApp(database);
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, user: 'admin' | 'reader' | 'nobody' = 'admin', of: 'firm' | 'otherFirm' = 'firm') =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: await t.session(user, of) } });
  const unique = () => Math.random().toString(36).slice(2, 8);

  async function household(type: string) {
    const client = (await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: `Tax ${unique()}`, representativeId: t.firm.representativeId, id: 0 })).json();
    const registration = (await call('POST', '/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: type, type })).json();
    const account = (await call('POST', '/api/v1/Portfolio/Accounts/Verbose', { registrationId: registration.id, number: `TX-${unique()}`, name: type, custodian: 'Schwab', modelId: t.firm.modelId })).json();
    return { client, registration, account };
  }
  const product = async (extra: object = {}) => (await call('POST', '/api/v1/Portfolio/Products/Verbose', { ticker: `T${unique()}`, name: 'Fund', type: 'ETF', price: 200, priceDate: daysAgo(1), ...extra })).json();

  it('an account takes its tax status from the registration type until it is set; a status that does not exist is a 400', async () => {
    const ira = await household('Traditional IRA');
    expect(ira.account.taxStatus).toBe('TaxDeferred');
    expect((await household('Roth IRA')).account.taxStatus).toBe('TaxExempt');
    const individual = await household('Individual');
    expect(individual.account.taxStatus).toBe('Taxable');
    const { id, createdDate: _c, createdBy: _cb, editedDate: _e, editedBy: _eb, sleeveType: _s, sleeveTargetPercent: _st, sleeveToleranceLower: _sl, sleeveToleranceUpper: _su, ...rest } = individual.account;
    const set = await call('PUT', `/api/v1/Portfolio/Accounts/Verbose/${id}`, { ...rest, id, taxStatus: 'TaxExempt' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().taxStatus).toBe('TaxExempt');
    expect((await call('GET', `/api/v1/Portfolio/Accounts/Verbose/${id}`)).json().taxStatus).toBe('TaxExempt');
    const back = await call('PUT', `/api/v1/Portfolio/Accounts/Verbose/${id}`, { ...rest, id, taxStatus: null });
    expect(back.json().taxStatus).toBe('Taxable');
    const bad = await call('PUT', `/api/v1/Portfolio/Accounts/Verbose/${id}`, { ...rest, id, taxStatus: 'Offshore' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().errors as { field: string }[]).every((e) => e.field === 'taxStatus')).toBe(true);
    expect((await call('GET', `/api/v1/Portfolio/Accounts/Verbose/${id}`)).json().taxStatus).toBe('Taxable');
  });

  it('a product names its wash-sale group and harvest replacement; a replacement of another firm is a 400', async () => {
    const schb = await product();
    const vti = await product({ washSaleGroup: ' US total market ', harvestReplacementProductId: schb.id });
    expect(vti).toMatchObject({ washSaleGroup: 'US total market', harvestReplacementProductId: schb.id });
    expect(schb).toMatchObject({ washSaleGroup: null, harvestReplacementProductId: null });
    const foreign = (await call('POST', '/api/v1/Portfolio/Products/Verbose', { ticker: `F${unique()}`, name: 'Other', type: 'ETF' }, 'admin', 'otherFirm')).json();
    const bad = await call('POST', '/api/v1/Portfolio/Products/Verbose', { ticker: `T${unique()}`, name: 'Fund', type: 'ETF', harvestReplacementProductId: foreign.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('harvestReplacementProductId');
    expect((await call('POST', '/api/v1/Portfolio/Products/Verbose', { ticker: `T${unique()}`, name: 'Fund', type: 'ETF', washSaleGroup: 'x'.repeat(65) })).statusCode).toBe(400);
  });

  it('TaxLots lists every lot with its term and unrealized gain, by product on request', async () => {
    const { account } = await household('Individual');
    const vti = await product();
    const bnd = await product({ price: 80 });
    const positions = [
      { productId: vti.id, taxLots: [{ shares: 10, costBasis: 1500, acquiredDate: daysAgo(800) }, { shares: 5, costBasis: 1150, acquiredDate: daysAgo(60) }] },
      { productId: bnd.id, taxLots: [{ shares: 20, costBasis: 1700, acquiredDate: daysAgo(10) }] },
    ].map((p) => ({ ...p, shares: p.taxLots.reduce((s, l) => s + l.shares, 0), costBasis: p.taxLots.reduce((s, l) => s + l.costBasis, 0) }));
    const written = await call('PUT', `/api/v1/Portfolio/Accounts/${account.id}/Positions`, positions);
    expect(written.statusCode, written.body).toBe(200);
    const lots = await call('GET', `/api/v1/Portfolio/Accounts/${account.id}/TaxLots`);
    expect(lots.statusCode).toBe(200);
    const rows = lots.json<{ productId: number; shares: number; costBasis: number; term: string; unrealizedGain: number; acquiredDate: string; taxLotId: number }[]>();
    const mine = (id: number) => rows.filter((r) => r.productId === id).map((r) => [r.shares, r.costBasis, r.acquiredDate, r.term, r.unrealizedGain]);
    expect(mine(vti.id)).toEqual([
      [10, 1500, daysAgo(800), 'Long', 500],
      [5, 1150, daysAgo(60), 'Short', -150],
    ]);
    expect(mine(bnd.id)).toEqual([[20, 1700, daysAgo(10), 'Short', -100]]);
    const one = (await call('GET', `/api/v1/Portfolio/Accounts/${account.id}/TaxLots?productId=${bnd.id}`)).json();
    expect(one).toHaveLength(1);
    expect((await call('GET', `/api/v1/Portfolio/Accounts/${account.id}/TaxLots?productId=abc`)).statusCode).toBe(400);
    expect((await call('GET', `/api/v1/Portfolio/Accounts/${account.id}/TaxLots`, undefined, 'admin', 'otherFirm')).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/Portfolio/Accounts/${account.id}/TaxLots`, undefined, 'nobody')).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/v1/Portfolio/Accounts/${account.id}/TaxLots` })).statusCode).toBe(401);
  });

  it('RealizedGains sums the executed sales of the year, a disallowed loss left out', async () => {
    const { client, account } = await household('Individual');
    const vti = await product();
    const year = Number(daysAgo(0).slice(0, 4));
    const sale = (date: string, term: 'Short' | 'Long', gain: number, disallowed = 0) => ({
      firm_id: t.firm.firmId, client_id: client.id, account_id: account.id, product_id: vti.id, trade_id: null, trade_date: date, acquired_date: '2020-01-02',
      shares_micros: 1e6, proceeds_cents: 10000, cost_cents: 10000 - gain, term, gain_cents: gain, disallowed_loss_cents: disallowed, created_at: '2026-01-01T00:00:00Z',
    });
    await t.db.kysely.insertInto('realized_sales').values([sale(`${year}-01-02`, 'Long', 125000), sale(`${year}-01-03`, 'Short', -40000, 10000), sale(`${year - 1}-12-30`, 'Short', 99900)]).execute();
    const gains = await call('GET', `/api/v1/Portfolio/Clients/${client.id}/RealizedGains?year=${year}`);
    expect(gains.statusCode).toBe(200);
    expect(gains.json()).toEqual({ clientId: client.id, year, shortTermGain: -300, longTermGain: 1250 });
    expect((await call('GET', `/api/v1/Portfolio/Clients/${client.id}/RealizedGains`)).json()).toMatchObject({ year: new Date().getUTCFullYear() });
    expect((await call('GET', `/api/v1/Portfolio/Clients/${client.id}/RealizedGains?year=${year - 1}`)).json()).toMatchObject({ shortTermGain: 999, longTermGain: 0 });
    const bad = await call('GET', `/api/v1/Portfolio/Clients/${client.id}/RealizedGains?year=20x6`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('year');
    expect((await call('GET', `/api/v1/Portfolio/Clients/${client.id}/RealizedGains`, undefined, 'admin', 'otherFirm')).statusCode).toBe(404);
  });
});
