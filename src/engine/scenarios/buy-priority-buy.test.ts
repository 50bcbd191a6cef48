// Buy priority 5 Priority Buy: bought first when cash is short.
import { describe, expect, test } from 'vitest';
import { BuyPriority, rebalanceAccount, SellPriority, type ModelTarget } from '../index.js';
import { AAPL, account, BND, model, rows, VTI } from './fixtures.js';

function run(bndExtra: Partial<ModelTarget>) {
  const m = model([[VTI, 50, 5], [BND, 45, 5, bndExtra]], 5, { productPriorities: [{ productId: AAPL.id, sellPriority: SellPriority.DoNotSell }] });
  return rows(rebalanceAccount(account([[AAPL, 300]], 55000, m), { reason: 'NeedReview' }));
}

describe('Priority Buy', () => {
  test('the Priority Buy product is filled before the larger shortfall', () => {
    expect(run({ buyPriority: BuyPriority.PriorityBuy })).toEqual(['Buy BND 562 @80 = 44960', 'Buy VTI 25 @200 = 5000']);
  });

  test('without it, the largest shortfall is filled first', () => {
    expect(run({})).toEqual(['Buy VTI 250 @200 = 50000']);
  });
});
