import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { tradingCalls } from '../../test/support/trading.js';
import { addPosition, createAccount } from '../../test/support/rebalancer.js';
import { useBalancedModel } from './balanced-model.test-support.js';


/** Plans, priorities and protected cash written through the routes, honoured by POST /Trading/GenerateTrades. */

describeEachDatabase('GenerateTrades reads the rebalancing application\'s data', (database) => {
  const t = useTestApp(database);
  const fixture = useBalancedModel(t);
  const { ids, post, assignPlan } = fixture;
  let platform: string;
  let modelId: number;
  const trading = tradingCalls(t, () => platform);
  const generate = (accountId: number, reason = 'NeedReview') => trading.rebalance({ reason, keys: [accountId] });
  beforeAll(() => {
    ({ platform, modelId } = fixture);
  });

  it('an account in a restricted plan buys only plan securities and the plan equivalent of a model product outside it', async () => {
    const plan = await post('/rebalancer/v1/restrictedPlans', { name: 'No BND', securities: { securities: [{ securityId: ids.VTI }, { securityId: ids.ALT }] } });
    const accountId = await createAccount(t.db.kysely, t.firm.firmId, { cash: 100_000, modelId });
    await assignPlan(accountId, plan.id);
    const bought = (await generate(accountId)).filter((x) => x.action === 'BUY').map((x) => x.productId);
    expect(bought.sort()).toEqual([ids.VTI, ids.ALT].sort());
  });

  it('a Do Not Sell security is never sold', async () => {
    const plan = await post('/rebalancer/v1/restrictedPlans', {
      name: 'Keep OUT',
      securities: { securities: [{ securityId: ids.VTI }, { securityId: ids.BND }, { securityId: ids.OUT, sellPriorityId: 1, sellPriority: 'Do Not Sell' }] },
    });
    const accountId = await createAccount(t.db.kysely, t.firm.firmId, { cash: 0, modelId });
    await addPosition(t.db.kysely, t.firm.firmId, accountId, ids.OUT, 200, 15_000);
    await assignPlan(accountId, plan.id);
    for (const reason of ['NeedReview', 'Withdraw100Pct']) {
      expect((await generate(accountId, reason)).some((x) => x.productId === ids.OUT && x.action === 'SELL'), reason).toBe(false);
    }
  });

  it('protected cash is never spent', async () => {
    const accountId = await createAccount(t.db.kysely, t.firm.firmId, { cash: 10_000, modelId });
    await post(`/rebalancer/v1/account/accounts/${accountId}/asidecash`, { cashAmountTypeId: 1, cashAmount: 3_000, expirationTypeId: 3 });
    const trades = await generate(accountId);
    const spent = trades.reduce((sum, x) => sum + (x.action === 'BUY' ? x.amount : -x.amount), 0);
    expect(spent).toBeGreaterThan(6_000);
    expect(10_000 - spent).toBeGreaterThanOrEqual(3_000);
  });
});
