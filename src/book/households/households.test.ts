import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { useTestApp } from '../../../test/support/app.js';

const SECTION_2_16_FIELDS = [
  'id', 'name', 'billing', 'recurringAdjustments', 'feePayingAccounts', 'tieredFeeAccounts', 'householdBills', 'financialPlanningFee',
  'portfolio', 'householdMembers', 'notes', 'documents', 'additionalAccounts', 'suitability', 'userDefinedFields', 'entityOptions',
  'targetAllocations', 'creditCard', 'assetExclusions', 'portfolioGroups', 'appLinks', 'additionalRepresentatives',
];

describeEachDatabase('household verbose record (section 2.16)', (database) => {
  const t = useTestApp(database);
  const send = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { authorization: await t.session('admin') } });

  it('carries all 22 fields of section 2.16, filled from the book below the household', async () => {
    const client = (await send('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'The Adeyemis', representativeId: t.firm.representativeId })).json();
    const joint = (await send('POST', '/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: 'Adeyemi Joint', type: 'Joint' })).json();
    const roth = (await send('POST', '/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: 'Ada Adeyemi Roth', type: 'Roth IRA' })).json();
    const product = (await send('POST', '/api/v1/Portfolio/Products/Verbose', { ticker: 'ADYX', name: 'Adeyemi Test Fund', type: 'ETF', price: 20, priceDate: '2026-11-20' })).json();
    const brokerage = (await send('POST', '/api/v1/Portfolio/Accounts/Verbose', { registrationId: joint.id, number: 'ADY-1', name: 'Joint Brokerage', custodian: 'Schwab', modelId: t.firm.modelId, cash: 250 })).json();
    const ira = (await send('POST', '/api/v1/Portfolio/Accounts/Verbose', { registrationId: roth.id, number: 'ADY-2', name: 'Roth', custodian: 'Schwab', modelId: t.firm.modelId, cash: 0 })).json();
    await send('PUT', `/api/v1/Portfolio/Accounts/${ira.id}/Positions`, [{ productId: product.id, shares: 100, costBasis: 1500 }]);

    // Section 4.9's path, lower case as the spec writes it.
    const read = await send('GET', `/api/portfolio/clients/verbose/${client.id}?expand=userdefinedfields`);
    expect(read.statusCode).toBe(200);
    const record = read.json();
    expect(Object.keys(record)).toEqual(expect.arrayContaining(SECTION_2_16_FIELDS));
    expect(record.portfolio).toEqual({
      name: 'The Adeyemis',
      representativeId: t.firm.representativeId,
      representativeName: expect.any(String),
      registrationCount: 2,
      accountCount: 2,
      activeAccountCount: 2,
      cash: 250,
      holdingsValue: 2000,
      totalValue: 2250,
    });
    expect(record.householdMembers).toEqual([
      { registrationId: joint.id, name: 'Adeyemi Joint', registrationType: 'Joint' },
      { registrationId: roth.id, name: 'Ada Adeyemi Roth', registrationType: 'Roth IRA' },
    ]);
    expect(record.additionalAccounts.map((a: { id: number; totalValue: number }) => [a.id, a.totalValue])).toEqual([[brokerage.id, 250], [ira.id, 2000]]);
    expect(record.targetAllocations).toEqual([{ modelId: t.firm.modelId, modelName: expect.any(String), accountIds: [brokerage.id, ira.id], value: 2250, percent: 100 }]);
    expect(record.suitability).toEqual({ riskScore: null, riskCategory: null, surveyDate: null });
    expect(record.billing).toEqual({ isBillable: false, feeScheduleId: null, billingFrequency: null, billingStartDate: null });
    for (const empty of ['recurringAdjustments', 'feePayingAccounts', 'tieredFeeAccounts', 'householdBills', 'documents', 'entityOptions', 'assetExclusions', 'portfolioGroups', 'appLinks', 'additionalRepresentatives']) {
      expect(record[empty], empty).toEqual([]);
    }

    // Section 4.9's rule: the whole record goes back; the read-only parts are ignored, the change is kept.
    const updated = await send('PUT', `/api/portfolio/clients/verbose/${client.id}?expand=userdefinedfields`, { ...record, notes: 'annual review in March' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ notes: 'annual review in March', portfolio: { totalValue: 2250 } });
  });

  it('lists a page of households with their details', async () => {
    const page = await send('GET', '/api/v1/Portfolio/Clients?$top=5');
    expect(page.statusCode).toBe(200);
    for (const household of page.json()) expect(household.portfolio.name).toBe(household.name);
  });
});
