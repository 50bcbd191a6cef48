// Sell priority 2 Hard To Sell: sold only when cash cannot be raised from other products.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, SellPriority } from '../index.js';
import { account, BND, model, rows, VTI, VXUS } from './fixtures.js';

const m = model([[VTI, 40, 5, { sellPriority: SellPriority.HardToSell }], [VXUS, 20, 5], [BND, 35, 5]], 5);

describe('Hard To Sell', () => {
  test('out of tolerance but not sold while nothing needs its cash', () => {
    // VTI 46% (band 35-45), VXUS 17.1%, BND 31.76%, cash 5.14%.
    const r = rebalanceAccount(account([[VTI, 230], [VXUS, 285], [BND, 397]], 5140, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 1 @80 = 80', 'Buy VXUS 1 @60 = 60']);
  });

  test('sold last, after the other overweight product, when the buys need the cash', () => {
    // BND 24.96% is out of band and needs 10,040; VXUS (4,000 over) goes first, VTI covers the rest.
    const r = rebalanceAccount(account([[VTI, 230], [VXUS, 400], [BND, 312]], 5040, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell VTI 30 @200 = 6000', 'Sell VXUS 67 @60 = 4020', 'Buy BND 125 @80 = 10000']);
    expect(r.trades.map((t) => t.reason)).toEqual([
      'cash below target: hard to sell VTI, no other source',
      'cash below target: sell overweight VXUS 24.0% vs 20.0%',
      'out of tolerance: BND 25.0% vs 35.0% ±5.0',
    ]);
  });
});
