// Sell priority 6 Priority Sell: sold first when cash is raised.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, SellPriority } from '../index.js';
import { account, BND, model, rows, VTI, VXUS } from './fixtures.js';

describe('Priority Sell', () => {
  test('a withdrawal sells the Priority Sell product first, below its target if needed', () => {
    const m = model([[VTI, 60, 5], [BND, 35, 5, { sellPriority: SellPriority.PrioritySell }]], 5);
    const r = rebalanceAccount(account([[VTI, 300], [BND, 437.5]], 5000, m), { reason: 'Withdraw', amount: 5000 });
    expect(rows(r)).toEqual(['Sell BND 63 @80 = 5040']);
    expect(r.trades[0]?.reason).toBe('withdraw $5,000.00: priority sell BND');
  });

  test('cash below target: the Priority Sell product goes before a more overweight one', () => {
    // VTI 2,000 over, BND 1,000 over, VXUS 200 under; cash 2,200 against 5,000.
    const rowsOf = (priority?: 6) => {
      const m = model([[VTI, 40, 5], [BND, 35, 5, priority ? { sellPriority: priority } : {}], [VXUS, 20, 5]], 5);
      return rows(rebalanceAccount(account([[VTI, 210], [BND, 450], [VXUS, 330]], 2200, m), { reason: 'NeedReview' }));
    };
    expect(rowsOf(SellPriority.PrioritySell)).toEqual(['Sell BND 13 @80 = 1040', 'Sell VTI 9 @200 = 1800']);
    expect(rowsOf()).toEqual(['Sell BND 10 @80 = 800', 'Sell VTI 10 @200 = 2000']);
  });

  test('held outside the model it is sold in full', () => {
    const m = model([[VTI, 95, 5]], 5, { productPriorities: [{ productId: BND.id, sellPriority: SellPriority.PrioritySell }] });
    const r = rebalanceAccount(account([[VTI, 475], [BND, 0.5]], 4960, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell BND 0.5 @80 = 40']);
  });
});
