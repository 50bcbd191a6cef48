import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { type RebalanceOptions, rebalanceAccount } from '../engine/index.js';
import { snapshotsOf } from '../trading/chunk-reads.js';
import { SnapshotRepository } from '../trading/snapshot-repository.js';
import { TradeBlockRepository } from '../trade-blocks/repository.js';
import { addPosition, createAccount } from '../../test/support/rebalancer.js';
import { useBalancedModel } from './balanced-model.test-support.js';

/**
 * The data written through the rebalancing application's routes, read back by the rebalance
 * loader (SnapshotRepository) into the engine, as every rebalance does.
 */
describeEachDatabase('rebalances read plans, priorities, protected cash and models from the tables', (database) => {
  const t = useTestApp(database);
  const fixture = useBalancedModel(t);
  const { ids, post, assignPlan } = fixture;
  let modelId: number;
  const asOf = new Date().toISOString().slice(0, 10);
  beforeAll(() => {
    modelId = fixture.modelId;
  });

  async function rebalance(accountId: number, options: RebalanceOptions = { reason: 'NeedReview' }) {
    // The production loader, as a rebalance batch reads an account.
    const snapshots = new SnapshotRepository(t.db.kysely, new TradeBlockRepository(t.db.kysely));
    const context = await snapshots.firmContext(t.firm.firmId, asOf);
    const [loaded] = snapshotsOf(context, await snapshots.chunkReads(context, [accountId], false));
    return rebalanceAccount(loaded!.snapshot, { assetValues: 'Current', includeCustodialCash: true, ...options });
  }

  it('an account in a restricted plan buys only plan securities, and the plan equivalent of a model product outside it', async () => {
    const plan = await post('/rebalancer/v1/restrictedPlans', { name: 'No BND', securities: { securities: [{ securityId: ids.VTI }, { securityId: ids.ALT }] } });
    const accountId = await createAccount(t.db.kysely, t.firm.firmId, { cash: 100_000, modelId });
    await assignPlan(accountId, plan.id);
    const result = await rebalance(accountId);
    const bought = new Set(result.trades.filter((x) => x.side === 'Buy').map((x) => x.productId));
    expect([...bought].sort()).toEqual([ids.VTI, ids.ALT].sort());
    expect(bought.has(ids.BND)).toBe(false);

    // The same account without its plan buys the model product itself.
    await assignPlan(accountId, null);
    const free = await rebalance(accountId);
    expect(free.trades.filter((x) => x.side === 'Buy').map((x) => x.productId).sort()).toEqual([ids.VTI, ids.BND].sort());
  });

  it('a Do Not Sell security of the plan is never sold, not even on a full liquidation', async () => {
    const plan = await post('/rebalancer/v1/restrictedPlans', {
      name: 'Keep OUT',
      securities: { securities: [{ securityId: ids.VTI }, { securityId: ids.BND }, { securityId: ids.OUT, sellPriorityId: 1, sellPriority: 'Do Not Sell' }] },
    });
    const accountId = await createAccount(t.db.kysely, t.firm.firmId, { cash: 0, modelId });
    await addPosition(t.db.kysely, t.firm.firmId, accountId, ids.OUT, 200, 15_000);
    await addPosition(t.db.kysely, t.firm.firmId, accountId, ids.VTI, 10, 2_000);
    // Without the plan OUT (not in the model) is sold.
    expect((await rebalance(accountId)).trades.some((x) => x.productId === ids.OUT && x.side === 'Sell')).toBe(true);
    await assignPlan(accountId, plan.id);
    for (const options of [{ reason: 'NeedReview' }, { reason: 'Withdraw', amount: 5_000 }, { reason: 'Withdraw100Pct' }] as RebalanceOptions[]) {
      const result = await rebalance(accountId, options);
      expect(result.trades.some((x) => x.productId === ids.OUT && x.side === 'Sell'), options.reason).toBe(false);
    }
    expect((await rebalance(accountId, { reason: 'Withdraw100Pct' })).trades.some((x) => x.productId === ids.VTI && x.side === 'Sell')).toBe(true);
  });

  it('protected cash is never spent; expired and deleted set asides protect nothing', async () => {
    const accountId = await createAccount(t.db.kysely, t.firm.firmId, { cash: 10_000, modelId });
    const root = `/rebalancer/v1/account/accounts/${accountId}/asidecash`;
    const spent = (result: Awaited<ReturnType<typeof rebalance>>) => result.trades.reduce((sum, x) => sum + (x.side === 'Buy' ? x.estimatedAmount : -x.estimatedAmount), 0);
    const unprotected = await rebalance(accountId);
    expect(spent(unprotected)).toBeGreaterThan(9_000);

    await post(root, { cashAmountTypeId: 1, cashAmount: 3_000, expirationTypeId: 3 });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await post(root, { cashAmountTypeId: 1, cashAmount: 5_000, expirationTypeId: 1, expirationValue: yesterday, startDate: '2026-01-01' });
    const deleted = await post(root, { cashAmountTypeId: 1, cashAmount: 4_000, expirationTypeId: 3 });
    await t.app.inject({ method: 'DELETE', url: `${root}/${deleted.id}`, headers: { authorization: fixture.rebalancer } });
    const result = await rebalance(accountId);
    expect(result.cash.protected).toBe(3_000);
    expect(10_000 - spent(result)).toBeGreaterThanOrEqual(3_000);
    expect(spent(result)).toBeGreaterThan(6_000);

    // A percent record protects its share of the value as well: 10% of 10,000 more.
    await post(root, { cashAmountTypeId: 2, cashAmount: 10, expirationTypeId: 3 });
    const both = await rebalance(accountId);
    expect(both.cash.protected).toBe(4_000);
    expect(10_000 - spent(both)).toBeGreaterThanOrEqual(4_000);
  });

  it('a security flagged doNotBuyGroupEquivalency in a plan is not bought by accounts without a plan', async () => {
    const model = await post('/rebalancer/v1/modeling/models', { name: 'ALT only', cashTargetPercent: 2, targets: [{ productId: ids.VTI, targetPercent: 49 }, { productId: ids.ALT, targetPercent: 49 }] });
    await post('/rebalancer/v1/restrictedPlans', { name: 'Flags ALT', securities: { securities: [{ securityId: ids.ALT, doNotBuyGroupEquivalency: true }] } });
    const accountId = await createAccount(t.db.kysely, t.firm.firmId, { cash: 50_000, modelId: model.id });
    const saved = modelId;
    modelId = model.id;
    try {
      const result = await rebalance(accountId);
      expect(result.trades.some((x) => x.productId === ids.VTI && x.side === 'Buy')).toBe(true);
      expect(result.trades.some((x) => x.productId === ids.ALT)).toBe(false);
    } finally {
      modelId = saved;
    }
  });
});
