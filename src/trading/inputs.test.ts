import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { createTestFirm } from '../../test/support/firm.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { refreshPositionLots } from '../db/position-lots.js';
import { snapshotsOf } from './chunk-reads.js';
import { SnapshotRepository } from './snapshot-repository.js';
import { TradeBlockRepository } from '../trade-blocks/repository.js';
import { loadRebalancerInputs } from './firm-inputs-repository.js';
import { addPosition, createAccount, createProduct } from '../../test/support/rebalancer.js';

/** Models as a rebalance batch reads them (the production loader's firm context). */
const modelsOf = async (db: ConstructorParameters<typeof SnapshotRepository>[0], firmId: number) => (await new SnapshotRepository(db, new TradeBlockRepository(db)).firmContext(firmId, '2026-01-01')).models;

const audit = { created_at: '2026-01-01T00:00:00.000Z', created_by: 'test', edited_at: '2026-01-01T00:00:00.000Z', edited_by: 'test' };

async function setAside(db: Kysely<Database>, firmId: number, accountId: number, values: Partial<Database['set_aside_cash']> & { expiration_type_id: number }) {
  await db
    .insertInto('set_aside_cash')
    .values({
      firm_id: firmId,
      account_id: accountId,
      description: null,
      cash_amount_type_id: 1,
      cash_amount_cents: 100_000,
      initial_amount_cents: 100_000,
      cash_amount_pct: null,
      min_cash_cents: null,
      max_cash_cents: null,
      percent_calculation_type_id: null,
      expiration_date: null,
      expiration_transaction_type_id: null,
      tolerance_value: null,
      is_deplete_over_time: 0,
      set_aside_account_type_id: null,
      start_date: '2026-01-01',
      is_expired: 0,
      expired_on: null,
      expired_by: null,
      amount_expired_cents: 0,
      is_deleted: 0,
      ...audit,
      ...(values as object),
    } as never)
    .execute();
}

describeEachDatabase('loadRebalancerInputs', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let firmId: number;
  let otherFirmId: number;
  beforeAll(async () => {
    const opened = await database.open();
    db = opened.db;
    drop = opened.drop;
    firmId = (await createTestFirm(db.kysely, 'alpha')).firmId;
    otherFirmId = (await createTestFirm(db.kysely, 'beta')).firmId;
  });
  afterAll(async () => drop());

  it('loads plans, plan membership, active set asides and flagged products in batches, one plan object per plan', async () => {
    const k = db.kysely;
    const [a, b, c] = [await createProduct(k, firmId), await createProduct(k, firmId), await createProduct(k, firmId)];
    const plan = await k.insertInto('restricted_plans').values({ firm_id: firmId, name: 'Plan', name_key: 'plan', use_in_trade_file: 0, external_plan_id: null, ...audit }).returning('id').executeTakeFirstOrThrow();
    await k
      .insertInto('restricted_plan_securities')
      .values([
        { firm_id: firmId, plan_id: plan.id, product_id: b.id, do_not_buy_group_equivalency: 1, buy_priority_id: 5, sell_priority_id: null, ...audit },
        { firm_id: firmId, plan_id: plan.id, product_id: a.id, do_not_buy_group_equivalency: 0, buy_priority_id: null, sell_priority_id: 1, ...audit },
      ])
      .execute();
    // 1,200 accounts: more than two chunks of ids.
    const template = await k.selectFrom('accounts').selectAll().where('id', '=', await createAccount(k, firmId)).executeTakeFirstOrThrow();
    const { id: _id, ...columns } = template;
    const ids: number[] = [];
    for (let i = 0; i < 1200; i += 200) {
      const rows = Array.from({ length: 200 }, (_, j) => ({ ...columns, number: `BULK-${i + j}`, restricted_plan_id: (i + j) % 2 === 0 ? plan.id : null }));
      ids.push(...(await k.insertInto('accounts').values(rows).returning('id').execute()).map((r) => r.id));
    }
    const [first, second] = ids as [number, number];
    await setAside(k, firmId, first, { expiration_type_id: 3 });
    await setAside(k, firmId, first, { expiration_type_id: 1, expiration_date: '2026-03-01' });
    await setAside(k, firmId, first, { expiration_type_id: 1, expiration_date: '2026-02-28' });
    await setAside(k, firmId, first, { expiration_type_id: 2, expiration_transaction_type_id: 1, is_expired: 1 });
    await setAside(k, firmId, first, { expiration_type_id: 3, is_deleted: 1 });
    await setAside(k, firmId, first, { expiration_type_id: 3, start_date: '2026-03-02' });
    await setAside(k, firmId, second, { expiration_type_id: 3, cash_amount_type_id: 2, cash_amount_cents: null, initial_amount_cents: null, cash_amount_pct: 5, min_cash_cents: 10_000 });
    const otherAccount = await createAccount(k, otherFirmId, { planId: plan.id });
    await setAside(k, otherFirmId, otherAccount, { expiration_type_id: 3 });

    const inputs = await loadRebalancerInputs(k, firmId, [...ids, otherAccount, c.id * 1000 + 999_999], '2026-03-01');
    expect(inputs.planOfAccount.size).toBe(600);
    expect(inputs.planOfAccount.get(first)).toBe(plan.id);
    expect(inputs.planOfAccount.has(second)).toBe(false);
    expect(inputs.planOfAccount.has(otherAccount)).toBe(false);
    expect([...inputs.restrictedPlans.keys()]).toEqual([plan.id]);
    expect(inputs.restrictedPlans.get(plan.id)).toEqual({
      id: plan.id,
      name: 'Plan',
      securities: [
        { productId: a.id, buyPriorityId: null, sellPriorityId: 1, doNotBuyGroupEquivalency: false },
        { productId: b.id, buyPriorityId: 5, sellPriorityId: null, doNotBuyGroupEquivalency: true },
      ],
    });
    expect(inputs.doNotBuyGroupEquivalency).toEqual([b.id]);

    // Active on 2026-03-01: the record without expiry and the one whose last day is today.
    const records = inputs.setAsideCash.get(first)!;
    expect(records.map((r) => [r.expirationTypeId, r.expirationDate ?? null])).toEqual([[3, null], [1, '2026-03-01']]);
    expect(records[0]).toMatchObject({ cashAmountTypeId: 1, cashAmount: 1000, minCashAmount: null, maxCashAmount: null, isExpired: false });
    expect(inputs.setAsideCash.get(second)).toEqual([expect.objectContaining({ cashAmountTypeId: 2, cashAmount: 5, minCashAmount: 100, percentCalculationTypeId: 0 })]);
    expect(inputs.setAsideCash.get(ids[2]!)).toEqual([]);
    expect(inputs.setAsideCash.get(otherAccount)).toEqual([]);

    const later = await loadRebalancerInputs(k, firmId, [first], '2026-03-02');
    expect(later.setAsideCash.get(first)!.map((r) => r.expirationTypeId)).toEqual([3, 3]);
  });

  it("hands a taxable account's lots over with their summary (highest cost per share, newest date), read only when asked", async () => {
    const k = db.kysely;
    const [held, bare] = [await createProduct(k, firmId, 50), await createProduct(k, firmId, 20)];
    const accountId = await createAccount(k, firmId);
    await addPosition(k, firmId, accountId, held.id, 30, 1650);
    await addPosition(k, firmId, accountId, bare.id, 5, 90);
    const position = await k.selectFrom('positions').select('id').where('account_id', '=', accountId).where('product_id', '=', held.id).executeTakeFirstOrThrow();
    await k
      .insertInto('tax_lots')
      .values([
        { firm_id: firmId, position_id: position.id, shares_micros: 10_000_000, cost_cents: 40_000, acquired_date: '2021-03-01' },
        { firm_id: firmId, position_id: position.id, shares_micros: 12_500_000, cost_cents: 87_500, acquired_date: '2025-12-20' },
        { firm_id: firmId, position_id: position.id, shares_micros: 7_500_000, cost_cents: 37_500, acquired_date: '2024-07-04' },
      ])
      .execute();
    await refreshPositionLots(k, firmId, [position.id]);
    const repository = new SnapshotRepository(db.kysely, new TradeBlockRepository(db.kysely));
    const context = await repository.firmContext(firmId, '2026-01-01');
    const loaded = snapshotsOf(context, await repository.chunkReads(context, [accountId], true));
    const positions = loaded[0]!.snapshot.positions;
    const withLots = positions.find((p) => p.productId === held.id)!;
    expect(withLots.lotsSummary).toEqual({ maxCostPerShare: 70, latestAcquiredOn: '2025-12-20', maxLotCost: 875 });
    expect([...withLots.taxLots!].sort((x, y) => x.acquiredOn!.localeCompare(y.acquiredOn!)).map(({ shares, costBasis, acquiredOn }) => ({ shares, costBasis, acquiredOn }))).toEqual([
      { shares: 10, costBasis: 400, acquiredOn: '2021-03-01' },
      { shares: 7.5, costBasis: 375, acquiredOn: '2024-07-04' },
      { shares: 12.5, costBasis: 875, acquiredOn: '2025-12-20' },
    ]);
    const without = positions.find((p) => p.productId === bare.id)!;
    expect(without.lotsSummary).toBeUndefined();
    expect(without.taxLots).toBeUndefined();
    expect(without.costBasis).toBe(90);
  });

  it('loads models with targets, equivalents by rank and the cash target', async () => {
    const k = db.kysely;
    const [a, b, e1, e2] = [await createProduct(k, firmId), await createProduct(k, firmId), await createProduct(k, firmId), await createProduct(k, firmId)];
    const model = await k.insertInto('models').values({ firm_id: firmId, name: 'Growth', description: null, cash_target_pct: 5, cash_lower_pct: 1, cash_upper_pct: 2, is_active: 1, ...audit }).returning('id').executeTakeFirstOrThrow();
    const allocation = await k.insertInto('model_allocations').values({ firm_id: firmId, model_id: model.id, product_id: a.id, target_pct: 60, lower_pct: 3, upper_pct: 4 }).returning('id').executeTakeFirstOrThrow();
    await k.insertInto('model_allocations').values({ firm_id: firmId, model_id: model.id, product_id: b.id, target_pct: 35, lower_pct: 2, upper_pct: 2 }).execute();
    await k.insertInto('model_equivalents').values([
      { firm_id: firmId, model_allocation_id: allocation.id, product_id: e2.id, rank: 2 },
      { firm_id: firmId, model_allocation_id: allocation.id, product_id: e1.id, rank: 1 },
    ]).execute();
    const models = await modelsOf(k, firmId);
    expect(models.get(model.id)).toEqual({
      id: model.id,
      name: 'Growth',
      cashTargetPercent: 5,
      cashUpperTolerance: 2,
      targets: [
        { productId: a.id, targetPercent: 60, lowerTolerance: 3, upperTolerance: 4, equivalents: [e1.id, e2.id] },
        { productId: b.id, targetPercent: 35, lowerTolerance: 2, upperTolerance: 2, equivalents: [] },
      ],
    });
    expect((await modelsOf(k, otherFirmId)).has(model.id)).toBe(false);
  });
});
