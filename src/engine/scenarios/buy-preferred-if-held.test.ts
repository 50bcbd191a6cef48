// Buy priority 6 Preferred if held: a held equivalent is bought instead of the model product.
import { describe, expect, test } from 'vitest';
import { BuyPriority, rebalanceAccount } from '../index.js';
import { account, BND, ITOT, model, rows, SCHB, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5, { equivalents: [ITOT.id, SCHB.id] }], [BND, 35, 5]], 5, {
  productPriorities: [{ productId: SCHB.id, buyPriority: BuyPriority.PreferredIfHeld }],
});

describe('Preferred if held', () => {
  test('the held SCHB is bought for the VTI line', () => {
    const r = rebalanceAccount(account([[SCHB, 200]], 90000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960', 'Buy SCHB 1000 @50 = 50000']);
  });

  test('not held, the model product itself is bought', () => {
    const r = rebalanceAccount(account([[ITOT, 100]], 90000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 437 @80 = 34960', 'Buy VTI 250 @200 = 50000']);
  });
});
