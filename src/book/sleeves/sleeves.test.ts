import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { createProduct } from '../../../test/support/rebalancer.js';
import { tradingCalls } from '../../../test/support/trading.js';
import { caller, createSleeveBook, fieldsOf, type SleeveBook } from './test-support.js';
import { refreshPositionLots, staleLotTexts } from '../../db/position-lots.js';

const base = '/api/v1/Trading/Sleeve/Registrations';
const process = `${base}/Action/Process`;

interface SleeveOut {
  accountId: number;
  accountNumber: string;
  sleeveType: string;
  sleeveDescription: string;
  targetAllocation: number | null;
  currentValue: number;
  currentAllocation: number;
  modelAggId: number | null;
  modelType: string | null;
  modelId: number | null;
  modelAllocations: { productId: number; ticker: string; targetPercent: number }[] | null;
  [key: string]: unknown;
}

describeEachDatabase('sleeve registrations (sections 2.15 and 4.8)', (database) => {
  const t = useTestApp(database);
  const call = caller(t);
  let book: SleeveBook;
  let foreignProduct: number;
  let foreignModel: number;

  /** Sleeves a fresh single-account registration into growth 50 / income 30 / self-directed 20. */
  const sleeved = async () => {
    const reg = await book.registration(1);
    const response = await call('POST', process, {
      registrationId: reg.registrationId,
      accountSleeves: [
        { accountId: reg.accountIds[0], sleeveType: 'Custodial Account' },
        { sleeveDescription: 'Growth', targetAllocation: 50, toleranceLower: 5, toleranceUpper: 5, modelAggId: book.growth },
        { sleeveDescription: 'Income', targetAllocation: 30, toleranceLower: 5, toleranceUpper: 5, modelAggId: book.income },
        {
          sleeveDescription: 'International',
          targetAllocation: 20,
          toleranceLower: 4,
          toleranceUpper: 4,
          modelAllocations: [
            { productId: book.products.VXUS, targetPercent: 60, lowerTolerance: 5, upperTolerance: 5 },
            { productId: book.products.IEFA, targetPercent: 40, lowerTolerance: 5, upperTolerance: 5 },
          ],
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    return { ...reg, state: response.json<{ accountSleeves: SleeveOut[]; [key: string]: unknown }>() };
  };

  /** Rows a failed Process must leave as they were. */
  const snapshot = async () => {
    const k = t.db.kysely;
    const firmId = t.firm.firmId;
    return {
      accounts: await k.selectFrom('accounts').selectAll().where('firm_id', '=', firmId).orderBy('id').execute(),
      registrations: await k.selectFrom('registrations').selectAll().where('firm_id', '=', firmId).orderBy('id').execute(),
      settings: await k.selectFrom('sleeve_registrations').selectAll().orderBy('id').execute(),
      sleeves: await k.selectFrom('account_sleeves').selectAll().orderBy('id').execute(),
      models: await k.selectFrom('models').selectAll().where('firm_id', '=', firmId).orderBy('id').execute(),
      allocations: await k.selectFrom('model_allocations').selectAll().where('firm_id', '=', firmId).orderBy('id').execute(),
    };
  };

  beforeAll(async () => {
    book = await createSleeveBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    const other = await createSleeveBook(t.db.kysely, t.otherFirm.firmId, t.otherFirm.representativeId);
    foreignProduct = other.products.VTI;
    foreignModel = other.growth;
  });

  it('shows a registration not yet sleeved: its single account as the Custodial Account it becomes, inactive', async () => {
    const reg = await book.registration(1);
    await t.db.kysely.insertInto('positions').values({ firm_id: t.firm.firmId, account_id: reg.accountIds[0]!, product_id: book.products.VTI, shares_micros: 10e6, cost_cents: 150_000 }).execute();
    const response = await call('GET', `${base}/${reg.registrationId}`, undefined, 'reader');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      registrationId: reg.registrationId,
      sleeveStrategyId: null,
      isActive: false,
      custodialAccountNumber: reg.numbers[0],
      asOfDate: null,
      contributionAllocationMethod: 'Sleeve Current Percent',
      distributionAllocationMethod: 'Sleeve Current Percent',
      corporateActionAllocationMethod: 'Sleeve Current Percent',
      autoRebalFrequency: 'None',
      autoRebalMonth: null,
      autoRebalDay: null,
      mandate: false,
      doNotTrade: false,
      createdBy: null,
      createdDate: null,
      editedBy: null,
      editedDate: null,
      accountSleeves: [
        {
          accountId: reg.accountIds[0],
          accountNumber: reg.numbers[0],
          registrationId: reg.registrationId,
          sleeveType: 'Custodial Account',
          sleeveDescription: expect.stringContaining('Account'),
          targetAllocation: null,
          currentAllocation: 0,
          currentValue: 3000,
          toleranceLower: null,
          toleranceUpper: null,
          contributionAllocation: null,
          distributionAllocation: null,
          corporateActionAllocation: null,
          sweepAssetId: null,
          modelAggId: null,
          modelAgg: null,
          modelType: null,
          modelId: null,
          managementStyleId: null,
          managementStyle: null,
          subAdvisorId: null,
          subAdvisor: null,
          modelAllocations: null,
        },
      ],
    });
    // Under both path forms.
    expect((await call('GET', `/api/Trading/Sleeve/Registrations/${reg.registrationId}`)).json()).toEqual(response.json());
    const two = await book.registration(2);
    expect((await call('GET', `${base}/${two.registrationId}`)).json()).toMatchObject({ isActive: false, custodialAccountNumber: null, accountSleeves: [] });
  });

  it('answers 404 for an unknown registration or another firm\'s, and 403 without portfolio.read', async () => {
    const reg = await book.registration(1);
    expect((await call('GET', `${base}/999999`)).statusCode).toBe(404);
    const foreign = await call('GET', `${base}/${reg.registrationId}`, undefined, 'admin', 'otherFirm');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain(reg.numbers[0]);
    expect((await call('GET', `${base}/${reg.registrationId}`, undefined, 'nobody')).statusCode).toBe(403);
    expect((await call('GET', `${base}/abc`)).json().errors[0].field).toBe('params.registrationId');
  });

  it('sleeves a single-account registration: the account becomes the Custodial Account and three Normal Sleeves are created', async () => {
    const { registrationId, accountIds, numbers, state } = await sleeved();
    expect(state).toMatchObject({ registrationId, isActive: true, custodialAccountNumber: numbers[0], asOfDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), createdBy: 'advisor@alpha' });
    const [custodial, growth, income, intl] = state.accountSleeves;
    expect(custodial).toMatchObject({ accountId: accountIds[0], sleeveType: 'Custodial Account', targetAllocation: null, currentValue: 1000 });
    expect(growth).toMatchObject({ sleeveType: 'Normal Sleeve', sleeveDescription: 'Growth', accountNumber: `${numbers[0]}-S1`, targetAllocation: 50, toleranceLower: 5, modelAggId: book.growth, modelAgg: expect.stringContaining('Growth'), modelType: 'Strategy', modelId: book.growth, modelAllocations: null, currentValue: 0 });
    expect(income).toMatchObject({ accountNumber: `${numbers[0]}-S2`, targetAllocation: 30, modelAggId: book.income, modelType: 'Strategy' });
    expect(intl).toMatchObject({ accountNumber: `${numbers[0]}-S3`, targetAllocation: 20, toleranceLower: 4, modelAggId: null, modelAgg: null, modelType: 'Self-Directed' });
    expect(intl!.modelAllocations!.map((a) => [a.productId, a.targetPercent]).sort()).toEqual([[book.products.VXUS, 60], [book.products.IEFA, 40]].sort());
    expect(intl!.modelId).toEqual(expect.any(Number));

    const k = t.db.kysely;
    expect((await k.selectFrom('registrations').select('is_sleeved').where('id', '=', registrationId).executeTakeFirstOrThrow()).is_sleeved).toBe(1);
    const accounts = await k.selectFrom('accounts').select(['id', 'sleeve_type', 'sleeve_target_pct', 'model_id', 'custodian']).where('registration_id', '=', registrationId).orderBy('id').execute();
    expect(accounts.map((a) => [a.sleeve_type, a.sleeve_target_pct, a.custodian])).toEqual([
      ['Custodial Account', null, 'Schwab'],
      ['Normal Sleeve', 50, 'Schwab'],
      ['Normal Sleeve', 30, 'Schwab'],
      ['Normal Sleeve', 20, 'Schwab'],
    ]);
    const own = await k.selectFrom('models').select(['name', 'cash_target_pct', 'is_active']).where('id', '=', intl!.modelId!).executeTakeFirstOrThrow();
    expect(own).toEqual({ name: `Self-directed sleeve ${numbers[0]}-S3`, cash_target_pct: 0, is_active: 1 });
    // GET answers what Process committed.
    expect((await call('GET', `${base}/${registrationId}`)).json()).toEqual(state);
  });

  it('updates the sleeves from the read state: changed fields, a sleeve switched to its own model, an empty sleeve removed', async () => {
    const { registrationId, state } = await sleeved();
    const [custodial, growth, income, intl] = state.accountSleeves;
    const response = await call('POST', process, {
      ...state,
      contributionAllocationMethod: 'Assigned',
      autoRebalFrequency: 'Quarterly',
      autoRebalMonth: 3,
      autoRebalDay: 15,
      mandate: true,
      sleeveStrategyId: 7,
      accountSleeves: [
        custodial,
        { ...growth, targetAllocation: 70, contributionAllocation: 70, managementStyleId: 2, managementStyle: 'Growth', subAdvisorId: 9, subAdvisor: 'Acme Advisors', sweepAssetId: book.products.BND },
        { ...intl, modelAggId: book.income, modelAllocations: null, targetAllocation: 30, contributionAllocation: 30, sleeveDescription: 'Now income' },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const after = response.json();
    expect(after).toMatchObject({ contributionAllocationMethod: 'Assigned', autoRebalFrequency: 'Quarterly', autoRebalMonth: 3, autoRebalDay: 15, mandate: true, sleeveStrategyId: 7 });
    expect(after.accountSleeves.map((s: SleeveOut) => s.accountId)).toEqual([custodial!.accountId, growth!.accountId, intl!.accountId]);
    expect(after.accountSleeves[1]).toMatchObject({ targetAllocation: 70, contributionAllocation: 70, managementStyle: 'Growth', subAdvisorId: 9, subAdvisor: 'Acme Advisors', sweepAssetId: book.products.BND });
    expect(after.accountSleeves[2]).toMatchObject({ sleeveDescription: 'Now income', modelType: 'Strategy', modelAggId: book.income, modelAllocations: null });

    const k = t.db.kysely;
    const removed = await k.selectFrom('accounts').select(['is_active', 'sleeve_type', 'sleeve_target_pct']).where('id', '=', income!.accountId).executeTakeFirstOrThrow();
    expect(removed).toEqual({ is_active: 0, sleeve_type: null, sleeve_target_pct: null });
    expect((await k.selectFrom('models').select('is_active').where('id', '=', intl!.modelId!).executeTakeFirstOrThrow()).is_active).toBe(0);

    // Back to its own model: the same model is reused with the new allocation.
    const again = await call('POST', process, {
      registrationId,
      accountSleeves: [
        custodial,
        after.accountSleeves[1],
        { accountId: intl!.accountId, modelAggId: null, modelAllocations: [{ productId: book.products.VXUS, targetPercent: 100 }], contributionAllocation: 30 },
      ],
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().accountSleeves[2]).toMatchObject({ modelType: 'Self-Directed', modelId: intl!.modelId, modelAllocations: [expect.objectContaining({ productId: book.products.VXUS, targetPercent: 100, lowerTolerance: 0 })] });
    expect((await k.selectFrom('models').select('is_active').where('id', '=', intl!.modelId!).executeTakeFirstOrThrow()).is_active).toBe(1);
  });

  it('refuses each broken rule with a 400 naming the field, and writes nothing', async () => {
    const { registrationId, state } = await sleeved();
    const [custodial, growth, income, intl] = state.accountSleeves;
    const two = await book.registration(2);
    const other = await sleeved();
    const otherIntl = other.state.accountSleeves[3] as SleeveOut;
    const body = (changes: object, sleeves: object[] = [custodial!, growth!, income!, intl!]) => ({ ...state, accountSleeves: sleeves, ...changes });
    const cases: [string, object, string, RegExp][] = [
      ['targets must total 100', body({}, [custodial!, { ...growth, targetAllocation: 40 }, income!, intl!]), 'accountSleeves[*].targetAllocation', /must total 100 .*total 90/],
      ['a Normal Sleeve needs a target', body({}, [custodial!, growth!, income!, intl!, { modelAggId: book.growth }]), 'accountSleeves[4].targetAllocation', /required/],
      ['contribution allocations when Assigned', body({ contributionAllocationMethod: 'Assigned' }, [custodial!, { ...growth, contributionAllocation: 50 }, { ...income, contributionAllocation: 30 }, { ...intl, contributionAllocation: 10 }]), 'accountSleeves[*].contributionAllocation', /must total 100 .*Assigned .*total 90/],
      ['a contribution allocation missing when Assigned', body({ contributionAllocationMethod: 'Assigned' }, [custodial!, { ...growth, contributionAllocation: 70 }, { ...income, contributionAllocation: 30 }, intl!]), 'accountSleeves[3].contributionAllocation', /required when contributionAllocationMethod is Assigned/],
      ['distribution allocations when Assigned', body({ distributionAllocationMethod: 'Assigned' }, [custodial!, { ...growth, distributionAllocation: 50 }, { ...income, distributionAllocation: 50 }, { ...intl, distributionAllocation: 10 }]), 'accountSleeves[*].distributionAllocation', /total 110/],
      ['corporate-action allocations when Assigned', body({ corporateActionAllocationMethod: 'Assigned' }, [custodial!, { ...growth, corporateActionAllocation: 100 }, { ...income, corporateActionAllocation: 1 }, { ...intl, corporateActionAllocation: 0 }]), 'accountSleeves[*].corporateActionAllocation', /total 101/],
      ['model allocations total 100', body({}, [custodial!, growth!, income!, { ...intl, modelAllocations: [{ productId: book.products.VXUS, targetPercent: 60 }, { productId: book.products.IEFA, targetPercent: 30 }] }]), 'accountSleeves[3].modelAllocations', /must total 100 \(total 90\)/],
      ['a model allocation of another firm\'s product', body({}, [custodial!, growth!, income!, { ...intl, modelAllocations: [{ productId: book.products.VXUS, targetPercent: 50 }, { productId: foreignProduct, targetPercent: 50 }] }]), 'accountSleeves[3].modelAllocations[1].productId', /does not exist/],
      ['a product twice', body({}, [custodial!, growth!, income!, { ...intl, modelAllocations: [{ productId: book.products.VXUS, targetPercent: 50 }, { productId: book.products.VXUS, targetPercent: 50 }] }]), 'accountSleeves[3].modelAllocations[1].productId', /listed twice/],
      ['a strategy sleeve needs modelAggId', body({}, [custodial!, { ...growth, modelAggId: null }, income!, intl!]), 'accountSleeves[1].modelAggId', /required for a strategy sleeve/],
      ['a new strategy sleeve needs modelAggId', body({}, [custodial!, { ...growth, targetAllocation: 40 }, income!, intl!, { targetAllocation: 10 }]), 'accountSleeves[4].modelAggId', /required for a strategy sleeve/],
      ['modelAggId of another firm', body({}, [custodial!, { ...growth, modelAggId: foreignModel }, income!, intl!]), 'accountSleeves[1].modelAggId', /model \d+ does not exist/],
      ['modelAggId naming a self-directed model', body({}, [custodial!, { ...growth, modelAggId: otherIntl.modelId }, income!, intl!]), 'accountSleeves[1].modelAggId', /self-directed model of sleeve account/],
      ['both a model and allocations', body({}, [custodial!, growth!, income!, { ...intl, modelAggId: book.growth }]), 'accountSleeves[3].modelAggId', /must be null for a self-directed sleeve/],
      ['a sweep asset of another firm', body({}, [custodial!, { ...growth, sweepAssetId: foreignProduct }, income!, intl!]), 'accountSleeves[1].sweepAssetId', /does not exist/],
      ['a changed system sleeve', body({}, [{ ...custodial, targetAllocation: 10 }, growth!, income!, intl!]), 'accountSleeves[0].targetAllocation', /system sleeve; it cannot be changed/],
      ['a system sleeve\'s type', body({}, [{ ...custodial, sleeveType: 'Normal Sleeve' }, growth!, income!, intl!]), 'accountSleeves[0].sleeveType', /system sleeve/],
      ['a system sleeve\'s description', body({}, [{ ...custodial, sleeveDescription: 'Renamed' }, growth!, income!, intl!]), 'accountSleeves[0].sleeveDescription', /system sleeve/],
      ['a missing system sleeve', body({}, [growth!, income!, intl!]), 'accountSleeves', /Custodial Account sleeve .* is missing/],
      ['adding a system sleeve', body({}, [custodial!, { ...growth, targetAllocation: 40 }, income!, intl!, { sleeveType: 'Contribution Sleeve', targetAllocation: 10, modelAggId: book.growth }]), 'accountSleeves[4].sleeveType', /only Normal Sleeve sleeves can be added/],
      ['a Normal Sleeve turned system', body({}, [custodial!, { ...growth, sleeveType: 'Distribution Sleeve' }, income!, intl!]), 'accountSleeves[1].sleeveType', /cannot become a Distribution Sleeve/],
      ['an account of another registration', body({}, [custodial!, growth!, income!, intl!, { accountId: two.accountIds[0], targetAllocation: 0, modelAggId: book.growth }]), 'accountSleeves[4].accountId', /is not a sleeve of registration/],
      ['an account twice', body({}, [custodial!, growth!, income!, intl!, growth!]), 'accountSleeves[4].accountId', /listed twice/],
      ['a negative tolerance', body({}, [custodial!, { ...growth, toleranceLower: -1 }, income!, intl!]), 'accountSleeves[1].toleranceLower', /must be >= 0/],
      ['an unknown method', body({ distributionAllocationMethod: 'Pro Rata' }), 'distributionAllocationMethod', /must be one of Assigned, Sleeve Current Percent, Sleeve Target Percent/],
      ['an unknown frequency', body({ autoRebalFrequency: 'Weekly' }), 'autoRebalFrequency', /must be one of None, Monthly, Quarterly, Semi-Annually, Annually/],
      ['a frequency without its day', body({ autoRebalFrequency: 'Monthly', autoRebalDay: null }), 'autoRebalDay', /required when autoRebalFrequency is Monthly/],
      ['a frequency without its month', body({ autoRebalFrequency: 'Annually', autoRebalDay: 2, autoRebalMonth: null }), 'autoRebalMonth', /required when autoRebalFrequency is Annually/],
      ['unsleeving', body({ isActive: false }), 'isActive', /stays active/],
      ['a registration of several accounts not yet sleeved', { registrationId: two.registrationId, accountSleeves: [{ targetAllocation: 100, modelAggId: book.growth }] }, 'registrationId', /holds 2 accounts and is not sleeved/],
    ];
    const before = await snapshot();
    for (const [name, payload, field, message] of cases) {
      const response = await call('POST', process, payload);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      const problem = response.json().errors.find((e: { field: string }) => e.field === field);
      expect(problem, `${name}: ${response.body}`).toBeDefined();
      expect(problem.message, name).toMatch(message);
    }
    expect(await snapshot()).toEqual(before);
    void registrationId;
  });

  // Section 4.8: "Processing creates new sleeves, updates existing ones and removes omitted ones."
  it('removes an omitted sleeve that holds positions and cash: they move to the Custodial Account, share for share and cent for cent', async () => {
    const { registrationId, state } = await sleeved();
    const [custodial, growth, income, intl] = state.accountSleeves;
    const k = t.db.kysely;
    const firmId = t.firm.firmId;
    const position = async (accountId: number, productId: number, lots: [number, number, string][]) => {
      const shares = lots.reduce((sum, [micros]) => sum + micros, 0);
      const cost = lots.reduce((sum, [, cents]) => sum + cents, 0);
      const row = await k.insertInto('positions').values({ firm_id: firmId, account_id: accountId, product_id: productId, shares_micros: shares, cost_cents: cost }).returning('id').executeTakeFirstOrThrow();
      await k.insertInto('tax_lots').values(lots.map(([micros, cents, date]) => ({ firm_id: firmId, position_id: row.id, shares_micros: micros, cost_cents: cents, acquired_date: date }))).execute();
      await refreshPositionLots(k, firmId, [row.id]);
    };
    await position(custodial!.accountId, book.products.BND, [[2e6, 15_000, '2024-01-02']]);
    await position(income!.accountId, book.products.BND, [[3e6, 25_000, '2024-05-06'], [2_500_000, 15_001, '2025-07-08']]);
    await position(income!.accountId, book.products.VTI, [[1e6, 18_000, '2023-03-04']]);
    await k.updateTable('accounts').set({ cash_cents: 1_234 }).where('id', '=', intl!.accountId).execute();
    await k.updateTable('accounts').set({ cash_cents: -17 }).where('id', '=', income!.accountId).execute();
    const ids = state.accountSleeves.map((x) => x.accountId);
    const totals = async () => ({
      shares: Number((await k.selectFrom('positions').select((eb) => eb.fn.sum<number>('shares_micros').as('n')).where('account_id', 'in', ids).executeTakeFirstOrThrow()).n),
      cost: Number((await k.selectFrom('positions').select((eb) => eb.fn.sum<number>('cost_cents').as('n')).where('account_id', 'in', ids).executeTakeFirstOrThrow()).n),
      cash: Number((await k.selectFrom('accounts').select((eb) => eb.fn.sum<number>('cash_cents').as('n')).where('id', 'in', ids).executeTakeFirstOrThrow()).n),
      lots: (await k.selectFrom('tax_lots as l').innerJoin('positions as p', 'p.id', 'l.position_id').select(['l.shares_micros', 'l.cost_cents', 'l.acquired_date']).where('p.account_id', 'in', ids).orderBy('l.acquired_date').execute()).map((l) => [Number(l.shares_micros), Number(l.cost_cents), l.acquired_date]),
    });
    const before = await totals();

    const response = await call('POST', process, { registrationId, accountSleeves: [custodial, { ...growth, targetAllocation: 100 }] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().accountSleeves.map((x: SleeveOut) => x.accountId)).toEqual([custodial!.accountId, growth!.accountId]);
    expect(await totals()).toEqual(before);
    const held = await k.selectFrom('positions').select(['product_id', 'shares_micros', 'cost_cents']).where('account_id', '=', custodial!.accountId).orderBy('product_id').execute();
    expect(held.map((p) => [p.product_id, Number(p.shares_micros), Number(p.cost_cents)])).toEqual(
      [[book.products.VTI, 1e6, 18_000], [book.products.BND, 7_500_000, 55_001]].sort((a, b) => a[0]! - b[0]!),
    );
    const bndLots = await k.selectFrom('tax_lots as l').innerJoin('positions as p', 'p.id', 'l.position_id').select('l.id').where('p.account_id', '=', custodial!.accountId).where('p.product_id', '=', book.products.BND).execute();
    expect(bndLots).toHaveLength(3);
    // The merged position's lot text holds the lots moved into it.
    expect(await staleLotTexts(k)).toEqual([]);
    const removed = await k.selectFrom('accounts').select(['id', 'cash_cents', 'is_active']).where('id', 'in', [income!.accountId, intl!.accountId]).orderBy('id').execute();
    expect(removed.map((a) => [Number(a.cash_cents), a.is_active])).toEqual([[0, 0], [0, 0]]);
    expect((await k.selectFrom('positions').select('id').where('account_id', 'in', [income!.accountId, intl!.accountId]).execute())).toEqual([]);
    expect(Number((await k.selectFrom('accounts').select('cash_cents').where('id', '=', custodial!.accountId).executeTakeFirstOrThrow()).cash_cents)).toBe(100_000 + 1_234 - 17);
    // The committed state shows the custodial sleeve holding it.
    expect(response.json().accountSleeves[0].currentValue).toBe(1000 + 12.34 - 0.17 + 7.5 * 80 + 200);
  });

  it('keeps an omitted sleeve while orders, pending transactions or transfers are still on their way to it', async () => {
    const { registrationId, state } = await sleeved();
    const [custodial, growth, income] = state.accountSleeves;
    await t.db.kysely.insertInto('pending_transactions').values({ firm_id: t.firm.firmId, account_id: income!.accountId, product_id: book.products.BND, type: 'Buy', shares_micros: 1e6, amount_cents: -8_000, trade_date: '2026-01-02', created_at: new Date().toISOString() }).execute();
    const before = await snapshot();
    const response = await call('POST', process, { registrationId, accountSleeves: [custodial, { ...growth, targetAllocation: 100 }] });
    expect(response.statusCode).toBe(400);
    const messages = response.json().errors.filter((e: { field: string }) => e.field === 'accountSleeves').map((e: { message: string }) => e.message);
    expect(messages).toEqual([expect.stringMatching(new RegExp(`sleeve account ${income!.accountId} .* still has 1 pending transaction\\(s\\)`))]);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for an unknown or foreign registration on Process, and 403 without portfolio.edit', async () => {
    const { registrationId, state } = await sleeved();
    expect((await call('POST', process, { ...state, registrationId: 999_999 })).statusCode).toBe(404);
    expect((await call('POST', process, state, 'admin', 'otherFirm')).statusCode).toBe(404);
    expect((await call('POST', process, state, 'reader')).statusCode).toBe(403);
    expect((await call('POST', process, { accountSleeves: [] })).json().errors.map((e: { field: string }) => e.field)).toContain('registrationId');
    expect((await call('GET', `${base}/${registrationId}`)).json()).toEqual(state);
  });

  it('sets registration-level do-not-trade over several sleeved registrations, all or nothing', async () => {
    const a = await sleeved();
    const b = await sleeved();
    const plain = await book.registration(1);
    const batch = (items: object[], sync = true, user: 'advisor' | 'reader' = 'advisor') => call('PUT', `${base}/Batch?syncToEclipse=${sync}`, items, user);
    const outbox = async () => Number((await t.db.kysely.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

    const events = await outbox();
    const on = await batch([{ registrationId: a.registrationId, doNotTrade: true }, { registrationId: b.registrationId, doNotTrade: true }]);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual([
      { registrationId: a.registrationId, doNotTrade: true, tradeBlocks: [expect.objectContaining({ entityEnum: 6, entityId: a.registrationId, description: 'Do not trade (sleeve registrations batch)', isDeleted: false })] },
      { registrationId: b.registrationId, doNotTrade: true, tradeBlocks: [expect.objectContaining({ entityEnum: 6, entityId: b.registrationId })] },
    ]);
    expect(await outbox()).toBe(events + 2);
    expect((await call('GET', `${base}/${a.registrationId}`)).json().doNotTrade).toBe(true);
    // Setting it again adds no second block.
    expect((await batch([{ registrationId: a.registrationId, doNotTrade: true }])).json()[0].tradeBlocks).toHaveLength(1);

    // syncToEclipse=false stores the change and publishes nothing.
    const quiet = await outbox();
    const off = await batch([{ registrationId: a.registrationId, doNotTrade: false }], false);
    expect(off.json()).toEqual([{ registrationId: a.registrationId, doNotTrade: false, tradeBlocks: [] }]);
    expect(await outbox()).toBe(quiet);
    expect((await call('GET', `${base}/${a.registrationId}`)).json().doNotTrade).toBe(false);

    const details = async () => Number((await t.db.kysely.selectFrom('trade_block_details').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const count = await details();
    const bad = await batch([
      { registrationId: a.registrationId, doNotTrade: true },
      { registrationId: plain.registrationId, doNotTrade: true },
      { registrationId: 999_999, doNotTrade: true },
      { registrationId: a.registrationId, doNotTrade: false },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { field: '[1].registrationId', message: `registration ${plain.registrationId} is not sleeved; registration-level do-not-trade applies to sleeved registrations only` },
      { field: '[2].registrationId', message: 'registration 999999 does not exist' },
      { field: '[3].registrationId', message: `registration ${a.registrationId} is listed twice (also [0])` },
    ]);
    expect(await details()).toBe(count);
    expect(fieldsOf((await batch([{ registrationId: a.registrationId }])).json())).toEqual(['[0].doNotTrade']);
    expect((await batch([])).statusCode).toBe(400);
    expect((await batch([{ registrationId: a.registrationId, doNotTrade: true }], true, 'reader')).statusCode).toBe(403);
    const foreign = await call('PUT', `${base}/Batch`, [{ registrationId: a.registrationId, doNotTrade: false }], 'admin', 'otherFirm');
    expect(foreign.json().errors[0].message).toBe(`registration ${a.registrationId} does not exist`);
    expect((await call('GET', `${base}/${b.registrationId}`)).json().doNotTrade).toBe(true);
  });

  it('sets the legacy do_not_trade flag when the firm runs without multi trade block', async () => {
    const a = await sleeved();
    await t.db.kysely.updateTable('firms').set({ multi_trade_block: 0 }).where('id', '=', t.firm.firmId).execute();
    try {
      const on = await call('PUT', `${base}/Batch`, [{ registrationId: a.registrationId, doNotTrade: true }]);
      expect(on.json()).toEqual([{ registrationId: a.registrationId, doNotTrade: true, tradeBlocks: [] }]);
      const flag = async () => (await t.db.kysely.selectFrom('registrations').select('do_not_trade').where('id', '=', a.registrationId).executeTakeFirstOrThrow()).do_not_trade;
      expect(await flag()).toBe(1);
      expect((await call('GET', `${base}/${a.registrationId}`)).json().doNotTrade).toBe(true);
      await call('PUT', `${base}/Batch?syncToEclipse=false`, [{ registrationId: a.registrationId, doNotTrade: false }]);
      expect(await flag()).toBe(0);
    } finally {
      await t.db.kysely.updateTable('firms').set({ multi_trade_block: 1 }).where('id', '=', t.firm.firmId).execute();
    }
  });

  it('keeps Contribution and Distribution sleeves out of the targets and of the rebalance, even imported with a target', async () => {
    const { registrationId, state } = await sleeved();
    const now = new Date().toISOString();
    const contribution = await t.db.kysely
      .insertInto('accounts')
      .values({ firm_id: t.firm.firmId, registration_id: registrationId, number: `CONTRIB-${registrationId}`, name: 'Contributions', custodian: 'Schwab', model_id: book.growth, cash_cents: 500_000, is_trading_blocked: 0, restricted_plan_id: null, is_active: 1, sleeve_type: 'Contribution Sleeve', sleeve_target_pct: 10, sleeve_tolerance_lower: 0, sleeve_tolerance_upper: 0, created_at: now, created_by: 'import', edited_at: now, edited_by: 'import' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const read = (await call('GET', `${base}/${registrationId}`)).json();
    expect(read.accountSleeves.map((s: SleeveOut) => s.sleeveType)).toEqual(['Custodial Account', 'Normal Sleeve', 'Normal Sleeve', 'Normal Sleeve', 'Contribution Sleeve']);
    expect(read.accountSleeves[4]).toMatchObject({ accountId: contribution.id, targetAllocation: 10, currentValue: 5000, modelType: null, modelAggId: null, modelId: book.growth });
    // Sent back as read it is accepted; the Normal Sleeves alone total 100.
    expect((await call('POST', process, read)).statusCode).toBe(200);
    const missing = await call('POST', process, { ...read, accountSleeves: read.accountSleeves.slice(0, 4) });
    expect(missing.json().errors).toEqual([{ field: 'accountSleeves', message: `the Contribution Sleeve sleeve (account ${contribution.id}, CONTRIB-${registrationId}) is missing; system sleeves cannot be removed or changed` }]);

    const advisor = await t.session('advisor');
    const trading = tradingCalls(t, () => advisor);
    const batchId = await trading.generate({ reason: 'NeedReview', level: 'Registration', keys: [contribution.id] });
    const status = await trading.status(batchId);
    expect(status).toMatchObject({ status: 'Complete', errorCount: 0, totalItems: 5 });
    expect(await trading.tradesOf(batchId)).toEqual([]);
    expect(await trading.transfersOf(status.tradeInstanceId)).toEqual([]);
    void state;
  });

  it('names the sleeve accounts after the custodial account, skipping numbers already taken', async () => {
    const reg = await book.registration(1);
    const product = await createProduct(t.db.kysely, t.firm.firmId, 10);
    // Someone already holds the -S1 number in the firm.
    const other = await book.registration(1);
    await t.db.kysely.updateTable('accounts').set({ number: `${reg.numbers[0]}-S1` }).where('id', '=', other.accountIds[0]!).execute();
    const response = await call('POST', process, {
      registrationId: reg.registrationId,
      accountSleeves: [{ accountId: reg.accountIds[0] }, { targetAllocation: 100, modelAllocations: [{ productId: product.id, targetPercent: 100 }] }],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().accountSleeves[1].accountNumber).toBe(`${reg.numbers[0]}-S2`);
  });
});
